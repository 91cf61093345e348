"""Hints are bounded per player: each is a strong computer's turn computed in the request."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from time_machine import TimeMachineFixture

from accounts.models import User
from core.errors import ActionRefused
from games import computer, services, throttle
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def test_a_burst_of_hints_is_cut_off_per_player_and_allowed_again_later(
    client_logged_in: Client, solo_game: Game, time_machine: TimeMachineFixture
) -> None:
    url = reverse("games:hint", kwargs={"pk": solo_game.pk})
    statuses = [client_logged_in.post(url, headers=HTMX).status_code for _ in range(30)]
    assert statuses.count(200) == throttle.HINTS_PER_WINDOW
    assert statuses[throttle.HINTS_PER_WINDOW :] == [429] * (30 - throttle.HINTS_PER_WINDOW)
    refused = client_logged_in.post(url, headers=HTMX)
    assert "a lot of hints at once" in refused.content.decode()

    # Another player is not held back by this one's burst.
    other = UserFactory()
    game = services.game_create_solo(user=other)
    assert computer.hint_take(game=game, user=other) is not None

    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(
        seconds=throttle.HINT_WINDOW_SECONDS + 1
    )
    time_machine.move_to(later, tick=True)
    assert client_logged_in.post(url, headers=HTMX).status_code == 200


def test_a_refused_hint_changes_nothing(user: User, solo_game: Game) -> None:
    for _ in range(throttle.HINTS_PER_WINDOW):
        computer.hint_take(game=solo_game, user=user)
    other_game = services.game_create_solo(user=user)
    with pytest.raises(ActionRefused) as refusal:
        computer.hint_take(game=other_game, user=user)
    assert refusal.value.status == 429
    other_game.refresh_from_db()
    assert not other_game.assisted
