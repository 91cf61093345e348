"""Staff sign in through the site's sign-in: its second factor and its throttles."""

from __future__ import annotations

import datetime

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import (
    format_hotp_value,
    hotp_value,
    yield_hotp_counters_from_time,
)
from django.contrib.auth import get_user
from django.test import Client, override_settings
from django.urls import reverse
from django.utils.http import urlencode
from time_machine import TimeMachineFixture

from accounts.models import User
from tests.factories import PASSWORD, UserFactory, moderators_group

pytestmark = pytest.mark.django_db


def _code(secret: str) -> str:
    counters = list(yield_hotp_counters_from_time())
    return str(format_hotp_value(hotp_value(secret, counters[len(counters) // 2])))


@pytest.fixture
def moderator() -> User:
    user: User = UserFactory(username="mod", is_staff=True)
    user.groups.add(moderators_group())
    return user


def _with_totp(user: User) -> str:
    client = Client()
    client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    secret = str(client.get(reverse("mfa_activate_totp")).context["form"].secret)
    client.post(reverse("mfa_activate_totp"), {"code": _code(secret)})
    assert Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()
    return secret


def test_the_admin_sign_in_page_sends_to_the_sites_sign_in(client: Client) -> None:
    response = client.get("/admin/login/?next=/admin/games/game/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=%2Fadmin%2Fgames%2Fgame%2F"
    # Another site as the destination is dropped for the admin's front page.
    response = client.get("/admin/login/?next=https://evil.example/")
    assert response["Location"] == "/accounts/login/?next=%2Fadmin%2F"


def test_a_password_alone_opens_no_session_for_staff_with_a_second_factor(
    moderator: User,
) -> None:
    secret = _with_totp(moderator)
    client = Client()
    form = {"username": moderator.username, "password": PASSWORD, "next": "/admin/"}
    response = client.post("/admin/login/", form)
    assert response.status_code == 302
    assert not get_user(client).is_authenticated
    assert client.get(reverse("admin:index"))["Location"].startswith("/admin/login/")

    # Through the site's sign-in the code is asked for, and then the admin opens.
    response = client.post(
        reverse("account_login"), {"login": moderator.username, "password": PASSWORD}
    )
    assert response["Location"] == reverse("mfa_authenticate")
    assert not get_user(client).is_authenticated
    client.post(reverse("mfa_authenticate"), {"code": _code(secret)})
    assert get_user(client) == moderator
    assert client.get(reverse("admin:index")).status_code == 200


def test_guessing_a_staff_password_is_throttled(moderator: User) -> None:
    client = Client()
    for attempt in range(30):
        client.post("/admin/login/", {"username": moderator.username, "password": f"no{attempt}"})
    client.post("/admin/login/", {"username": moderator.username, "password": PASSWORD})
    assert not get_user(client).is_authenticated

    # The only sign-in there is stops taking guesses after five, the right password too.
    for attempt in range(5):
        client.post(reverse("account_login"), {"login": "mod", "password": f"no{attempt}"})
    response = client.post(reverse("account_login"), {"login": "mod", "password": PASSWORD})
    assert not get_user(client).is_authenticated
    assert "Too many failed login attempts" in response.content.decode()


def test_a_signed_in_player_who_is_not_staff_is_refused_not_sent_round(client: Client) -> None:
    client.force_login(UserFactory())
    assert client.get("/admin/login/?next=/admin/").status_code == 403


@override_settings(LIMES_STAFF_NEED_MFA=True)
def test_where_required_a_session_without_the_second_factor_is_asked_for_it(
    moderator: User,
) -> None:
    secret = _with_totp(moderator)
    client = Client()
    # A session opened by the password alone (before the factor existed, or otherwise).
    client.force_login(moderator)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('mfa_reauthenticate')}?next=%2Fadmin%2F"
    client.post(reverse("mfa_reauthenticate"), {"code": _code(secret)})
    assert client.get(reverse("admin:index")).status_code == 200


@override_settings(LIMES_STAFF_NEED_MFA=True)
def test_where_required_staff_cannot_switch_their_second_factor_off(moderator: User) -> None:
    secret = _with_totp(moderator)
    client = Client()
    client.post(reverse("account_login"), {"login": moderator.username, "password": PASSWORD})
    client.post(reverse("mfa_authenticate"), {"code": _code(secret)})
    # Switching a factor off asks for the password again, however recent the sign-in.
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    response = client.post(reverse("mfa_deactivate_totp"))
    assert "You cannot deactivate two-factor authentication." in response.content.decode()
    assert Authenticator.objects.filter(user=moderator, type=Authenticator.Type.TOTP).exists()


def test_players_may_still_switch_their_second_factor_off(user: User) -> None:
    secret = _with_totp(user)
    client = Client()
    client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    client.post(reverse("mfa_authenticate"), {"code": _code(secret)})
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    client.post(reverse("mfa_deactivate_totp"))
    assert not Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()


def test_deleting_an_account_with_a_second_factor_asks_for_its_code(
    user: User, time_machine: TimeMachineFixture
) -> None:
    secret = _with_totp(user)
    client = Client()
    client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    client.post(reverse("mfa_authenticate"), {"code": _code(secret)})
    # Long after the sign-in: the password again is not enough, the code is asked for.
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=10)
    time_machine.move_to(later, tick=True)
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    url = reverse("accounts:delete")
    response = client.post(url, {"confirm_username": user.username})
    query = urlencode({"next": url})
    assert response["Location"] == f"{reverse('mfa_reauthenticate')}?{query}"
    user.refresh_from_db()
    assert user.deleted_at is None
    client.post(response["Location"], {"code": _code(secret)})
    client.post(url, {"confirm_username": user.username})
    user.refresh_from_db()
    assert user.deleted_at is not None
