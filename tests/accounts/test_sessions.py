"""The account's signed-in sessions, and signing out all the others at once."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def _sign_in(user: User, agent: str) -> Client:
    client = Client(HTTP_USER_AGENT=agent)
    client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    assert get_user(client) == user
    return client


def test_the_player_sees_their_sessions_and_signs_the_others_out(user: User) -> None:
    laptop = _sign_in(user, "Laptop browser")
    phone = _sign_in(user, "Phone browser")
    settings_page = laptop.get(reverse("accounts:settings")).content.decode()
    assert reverse("usersessions_list") in settings_page
    page = laptop.get(reverse("usersessions_list"))
    assert page.status_code == 200
    assert page.context["session_count"] == 2
    text = page.content.decode()
    assert "Laptop browser" in text and "Phone browser" in text

    laptop.post(reverse("usersessions_list"))
    assert not get_user(phone).is_authenticated
    assert get_user(laptop) == user
    assert laptop.get(reverse("usersessions_list")).context["session_count"] == 1


@pytest.mark.parametrize(
    "path",
    [
        "/i18n/",
        "/accounts/login/",
        "/accounts/2fa/totp/activate/",
        "/accounts/2fa/recovery-codes/generate/",
        "/accounts/2fa/webauthn/add/",
    ],
)
def test_anonymous_posts_leave_the_session_table_as_it_was(path: str) -> None:
    # A visitor without a cookie, as a script sends them: with and without a CSRF token.
    before = Session.objects.count()
    for _ in range(20):
        Client().post(path, {"language": "de", "login": "nobody", "password": "wrong"})
        Client(enforce_csrf_checks=True).post(path, {"language": "de"})

    assert Session.objects.count() == before


def test_a_signed_out_visitor_on_a_two_factor_page_is_sent_to_sign_in() -> None:
    response = Client().post("/accounts/2fa/totp/activate/", {"code": "123456"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
