"""One main action a screen: the other buttons of the game pages look secondary."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BUTTON = re.compile(r'<(?:a|button)\b[^>]*class="(button\b[^"]*)"[^>]*>')


def filled(page: str) -> list[str]:
    """The classes of each button drawn as a main action (filled, not outlined or red)."""
    return [
        classes
        for classes in BUTTON.findall(page)
        if not {"button--secondary", "danger", "button--danger"} & set(classes.split())
    ]


def test_the_board_and_the_waiting_room_have_one_main_action(
    client_logged_in: Client, user: User
) -> None:
    solo = services.game_create_solo(user=user)
    page = client_logged_in.get(reverse("games:detail", kwargs={"pk": solo.pk})).content.decode()
    # Commit is the main action; Hint and the turn buttons are not.
    assert filled(page[page.index('id="board"') :]) == ["button primary"]
    room = services.game_create_multi(user=user, seats_max=4, pace=Game.Pace.LIVE)
    services.seat_add_bot(game=room, user=user, level="easy")
    page = client_logged_in.get(reverse("games:detail", kwargs={"pk": room.pk})).content.decode()
    assert filled(page[page.index('id="table"') :]) == ["button primary"]
    other = UserFactory()
    guest = Client()
    guest.force_login(other)
    services.game_join(game=room, user=other)
    page = guest.get(reverse("games:detail", kwargs={"pk": room.pk})).content.decode()
    assert "Leave this game" in page and "Join this game" not in page
    # Leaving is no main action.
    assert filled(page[page.index('id="table"') :]) == []
