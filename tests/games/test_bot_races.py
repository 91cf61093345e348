"""Races on PostgreSQL: a computer player's round is played once, however many tasks run."""

from __future__ import annotations

import pytest

from games import computer, services
from games.models import Game, Move
from tests.conftest import Race
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_workers_running_one_rounds_bot_task_at_once_play_it_once(
    monkeypatch: pytest.MonkeyPatch, race: Race
) -> None:
    # The game is opened without queueing the bots, so that the two "workers" below are
    # the ones to play round 1.
    with monkeypatch.context() as patch:
        patch.setattr(services, "_bots_enqueue", lambda game, seats: None)
        game = services.game_create_multi(
            user=UserFactory(), seats_max=3, pace=Game.Pace.LIVE, bots=["strong", "easy"]
        )
    assert not Move.objects.exists()
    played = race(
        lambda: computer.bots_play(game_id=game.pk, round_number=1),
        lambda: computer.bots_play(game_id=game.pk, round_number=1),
    )
    assert sum(played) == 2
    rounds = list(Move.objects.order_by("seat__position").values_list("seat__bot_level", "round"))
    assert rounds == [("strong", 1), ("easy", 1)]
