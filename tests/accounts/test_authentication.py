"""Signing up, in and out, and looking after a password, through allauth's pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "new-limes-pw-456"


def sign_in(client: Client, login: str, password: str = PASSWORD) -> str:
    """Submit the sign-in form and return the page the player ends up on."""
    response = client.post(
        reverse("account_login"), {"login": login, "password": password}, follow=True
    )
    return response.content.decode()


def test_sign_up_creates_an_account_and_signs_in(client: Client) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "username": "marta",
            "email": "marta@example.com",
            "password1": "fir-and-lake-42",
            "password2": "fir-and-lake-42",
        },
        follow=True,
    )

    assert response.redirect_chain[-1][0] == reverse("games:home")
    assert get_user(client).username == "marta"
    page = response.content.decode()
    assert "marta" in page
    assert "Sign out" in page
    assert User.objects.get(username="marta").email == "marta@example.com"


def test_sign_up_refuses_a_name_reserved_for_deleted_players(client: Client) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "username": "deleted-7",
            "email": "sneaky@example.com",
            "password1": "fir-and-lake-42",
            "password2": "fir-and-lake-42",
        },
    )

    assert response.status_code == 200
    assert "Username can not be used" in response.content.decode()
    assert not User.objects.filter(email="sneaky@example.com").exists()


def test_sign_up_refuses_a_name_that_would_shadow_the_settings_page(client: Client) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "username": "settings",
            "email": "settings@example.com",
            "password1": "fir-and-lake-42",
            "password2": "fir-and-lake-42",
        },
    )

    assert response.status_code == 200
    assert not User.objects.filter(username="settings").exists()


def test_sign_up_refuses_an_email_already_in_use(client: Client, user: User) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "username": "copycat",
            "email": user.email,
            "password1": "fir-and-lake-42",
            "password2": "fir-and-lake-42",
        },
    )

    assert response.status_code == 200
    assert "already registered" in response.content.decode()
    assert not User.objects.filter(username="copycat").exists()


def test_sign_in_by_username(client: Client, user: User) -> None:
    page = sign_in(client, user.username)

    assert get_user(client) == user
    assert f"Successfully signed in as {user.username}" in page


def test_sign_in_by_email(client: Client, user: User) -> None:
    page = sign_in(client, user.email)

    assert get_user(client) == user
    assert "Sign out" in page


def test_sign_in_with_a_wrong_password_is_refused(client: Client, user: User) -> None:
    page = sign_in(client, user.username, "not-my-password")

    assert not get_user(client).is_authenticated
    assert "not correct" in page


def test_sign_out_by_post(client_logged_in: Client) -> None:
    response = client_logged_in.post(reverse("account_logout"), follow=True)

    assert not get_user(client_logged_in).is_authenticated
    page = response.content.decode()
    assert "You have signed out" in page
    assert "Sign in" in page


def test_header_sign_out_is_a_post_form(client_logged_in: Client) -> None:
    page = client_logged_in.get(reverse("games:home")).content.decode()

    form = re.search(r'<form method="post" action="([^"]+)"[^>]*>.*?</form>', page, re.S)
    assert form is not None
    assert form.group(1) == reverse("account_logout")
    assert "csrfmiddlewaretoken" in form.group(0)


def test_password_change(client_logged_in: Client, user: User) -> None:
    response = client_logged_in.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        follow=True,
    )

    assert "Password successfully changed" in response.content.decode()
    # Still signed in: ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE is off.
    assert get_user(client_logged_in) == user
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_password_reset_email_link_sets_a_new_password(client: Client, user: User) -> None:
    response = client.post(reverse("account_reset_password"), {"email": user.email}, follow=True)

    assert response.redirect_chain[-1][0] == reverse("account_reset_password_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [user.email]
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", str(message.body))
    assert link is not None

    # The emailed link stashes the key in the session and redirects to a key-free URL.
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    assert "password1" in form_page.content.decode()
    set_password_url = form_page.redirect_chain[-1][0]

    done = client.post(
        set_password_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}, follow=True
    )

    assert done.redirect_chain[-1][0] == reverse("account_reset_password_from_key_done")
    assert "Your password is now changed" in done.content.decode()
    sign_in(client, user.username, NEW_PASSWORD)
    assert get_user(client) == user


def test_repeated_failed_sign_ins_are_throttled(client: Client, user: User) -> None:
    for _ in range(5):
        assert "not correct" in sign_in(client, user.username, "guess")

    # Even the right password is refused until the limit's window has passed.
    page = sign_in(client, user.username, PASSWORD)

    assert "Too many failed login attempts" in page
    assert not get_user(client).is_authenticated


def test_throttling_one_account_leaves_others_alone(client: Client, user: User) -> None:
    for _ in range(6):
        sign_in(client, user.username, "guess")

    other = User.objects.create_user("other", "other@example.com", PASSWORD)
    sign_in(client, other.username)

    assert get_user(client) == other


def test_failed_sign_ins_from_one_address_do_not_lock_the_player_out_elsewhere(
    user: User,
) -> None:
    attacker, player = Client(REMOTE_ADDR="203.0.113.7"), Client(REMOTE_ADDR="198.51.100.2")
    for _ in range(6):
        sign_in(attacker, user.username, "guess")
    assert "Too many failed login attempts" in sign_in(attacker, user.username, PASSWORD)
    assert not get_user(attacker).is_authenticated
    # The player, from their own address, signs in with the right password.
    sign_in(player, user.username, PASSWORD)
    assert get_user(player) == user
