"""Races on PostgreSQL: a computer player's round is played once, however many tasks run."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.models import Game, Move
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.fail("row locks are tested on PostgreSQL: set DATABASE_URL")


def test_two_workers_running_one_rounds_bot_task_at_once_play_it_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The game is opened without queueing the bots, so that the two "workers" below are
    # the ones to play round 1.
    with monkeypatch.context() as patch:
        patch.setattr(services, "_bots_enqueue", lambda game, seats: None)
        game = services.game_create_multi(
            user=UserFactory(), seats_max=3, pace=Game.Pace.LIVE, bots=["strong", "easy"]
        )
    assert not Move.objects.exists()
    barrier = threading.Barrier(2)
    played: list[int] = []

    def worker() -> None:
        barrier.wait()
        try:
            played.append(services.bots_play(game_id=game.pk, round_number=1))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(played) == 2
    rounds = list(Move.objects.order_by("seat__position").values_list("seat__bot_level", "round"))
    assert rounds == [("strong", 1), ("easy", 1)]
