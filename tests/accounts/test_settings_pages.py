"""The account settings and account deletion pages."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user
from django.test import Client
from django.urls import reverse
from django.utils.http import urlencode

from accounts.models import User
from accounts.notifications import Channel, Event
from accounts.selectors import notification_channels
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["accounts:settings", "accounts:delete"])
def test_anonymous_visitor_is_sent_to_sign_in(client: Client, name: str) -> None:
    url = reverse(name)

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={url}"


def test_settings_page_shows_profile_form_and_account_links(
    client_logged_in: Client, user: User
) -> None:
    response = client_logged_in.get(reverse("accounts:settings"))

    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="bio"' in page
    assert reverse("account_change_password") in page
    assert reverse("account_email") in page
    assert reverse("accounts:delete") in page
    assert user.username in page


def test_settings_page_saves_bio(client_logged_in: Client, user: User) -> None:
    response = client_logged_in.post(
        reverse("accounts:settings"), {"bio": "Forester at heart."}, follow=True
    )

    page = response.content.decode()
    assert "Your profile was saved." in page
    assert "Forester at heart." in page
    user.refresh_from_db()
    assert user.bio == "Forester at heart."


def test_settings_page_refuses_an_overlong_bio(client_logged_in: Client, user: User) -> None:
    response = client_logged_in.post(reverse("accounts:settings"), {"bio": "x" * 501})

    assert response.status_code == 200
    assert "at most 500 characters" in response.content.decode()
    user.refresh_from_db()
    assert user.bio == ""


def _reauthenticate(client: Client) -> None:
    # Deleting asks for the password again, however recent the sign-in.
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})


def test_delete_page_asks_for_the_username(client_logged_in: Client, user: User) -> None:
    response = client_logged_in.get(reverse("accounts:delete"))

    page = response.content.decode()
    assert response.status_code == 200
    assert "This cannot be undone" in page
    assert 'name="confirm_username"' in page
    assert user.username in page


@pytest.mark.parametrize("typed", ["", "somebody-else"])
def test_delete_with_wrong_username_changes_nothing(
    client_logged_in: Client, user: User, typed: str
) -> None:
    _reauthenticate(client_logged_in)
    response = client_logged_in.post(reverse("accounts:delete"), {"confirm_username": typed})

    assert response.status_code == 200
    assert "Your account was not deleted." in response.content.decode()
    assert get_user(client_logged_in) == user
    user.refresh_from_db()
    assert user.deleted_at is None
    assert user.is_active
    assert EmailAddress.objects.filter(user=user).exists()


def test_delete_account(client_logged_in: Client, user: User) -> None:
    username, email = user.username, user.email
    _reauthenticate(client_logged_in)

    response = client_logged_in.post(
        reverse("accounts:delete"), {"confirm_username": username}, follow=True
    )

    assert response.redirect_chain[-1][0] == reverse("games:home")
    assert "Your account was deleted." in response.content.decode()
    assert not get_user(client_logged_in).is_authenticated
    user.refresh_from_db()
    assert user.display_name == "deleted player"
    assert user.username != username
    assert user.email == ""
    assert not EmailAddress.objects.filter(user=user).exists()
    assert not EmailAddress.objects.filter(email=email).exists()

    for login in (username, email):
        page = client_logged_in.post(
            reverse("account_login"), {"login": login, "password": PASSWORD}, follow=True
        ).content.decode()
        assert not get_user(client_logged_in).is_authenticated
        assert "not correct" in page


def test_deleted_players_email_can_be_used_again(client: Client, user: User) -> None:
    client.force_login(user)
    _reauthenticate(client)
    client.post(reverse("accounts:delete"), {"confirm_username": user.username})

    client.post(
        reverse("account_signup"),
        {
            "username": "returning",
            "email": user.email,
            "password1": "fir-and-lake-42",
            "password2": "fir-and-lake-42",
        },
    )

    assert User.objects.filter(username="returning").exists()


def test_a_player_turns_off_the_round_emails(client_logged_in: Client, user: User) -> None:
    page = client_logged_in.get(reverse("accounts:settings")).content.decode()
    box = page.split('name="turn__email"')[1].split(">")[0]
    assert "checked" in box
    response = client_logged_in.post(
        reverse("accounts:notification_preferences"), {"turn__push": "on"}
    )
    assert response.status_code == 302
    assert notification_channels(user, Event.TURN) == {Channel.PUSH}
    page = client_logged_in.get(reverse("accounts:settings")).content.decode()
    assert "checked" not in page.split('name="turn__email"')[1].split(">")[0]


def test_deleting_needs_the_password_again_then_goes_ahead(
    client_logged_in: Client, user: User
) -> None:
    url = reverse("accounts:delete")
    response = client_logged_in.post(url, {"confirm_username": user.username})
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_reauthenticate')}?{urlencode({'next': url})}"
    user.refresh_from_db()
    assert user.deleted_at is None
    # A wrong password deletes nothing; the right one carries the held request out.
    client_logged_in.post(response["Location"], {"password": "not-it"})
    user.refresh_from_db()
    assert user.deleted_at is None
    client_logged_in.post(response["Location"], {"password": PASSWORD})
    user.refresh_from_db()
    assert user.deleted_at is not None


def test_the_your_move_sound_is_off_until_the_player_turns_it_on(
    client_logged_in: Client, user: User
) -> None:
    page = client_logged_in.get(reverse("accounts:settings")).content.decode()
    assert 'name="move_sound"' in page
    assert "checked" not in page.split('name="move_sound"')[1][:40]
    # The box sits before its words, inside their label (not under a label of its own).
    label = page.split('<label class="check">', 1)[1].split("</label>", 1)[0]
    assert label.index('name="move_sound"') < label.index("Play a sound when a game waits")
    assert "Turn on notifications on this device" in page
    client_logged_in.post(reverse("accounts:settings"), {"bio": "", "move_sound": "on"})
    user.refresh_from_db()
    assert user.move_sound
    page = client_logged_in.get(reverse("accounts:settings")).content.decode()
    assert "checked" in page.split('name="move_sound"')[1][:40]
