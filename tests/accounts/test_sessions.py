"""The account's signed-in sessions, and signing out all the others at once."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user
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
