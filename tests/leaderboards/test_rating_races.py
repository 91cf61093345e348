"""Live ratings and ``recompute_ratings`` agree however simultaneous finishes interleave.

On PostgreSQL, with real threads: games sharing a player are rated in the order their
transactions take the ratings' row locks, and the recompute replays them by finishing
time, so that time must follow the same order.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

import pytest
from django.core.management import call_command
from django.db import connection

import leaderboards.services
from accounts.models import User
from games import services
from games.models import Game, Seat
from leaderboards.models import PlayerRating
from tests.factories import UserFactory, play_turn, seat_user, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.fail("row locks are tested on PostgreSQL: set DATABASE_URL")


def _last_one_standing(players: list[User], *, rounds: int) -> Game:
    """A game whose players all left but the first: its resignation finishes it."""
    game = started_game(players)
    for _ in range(rounds):
        for player in players:
            play_turn(game, player)
    for player in players[1:]:
        services.seat_resign(game=game, user=player)
    return game


def _finish(game: Game) -> Callable[[], None]:
    user = seat_user(game.seats.get(position=1))

    def action() -> None:
        try:
            services.seat_resign(game=game, user=user)
        finally:
            connection.close()

    return action


def _run_together(*actions: Callable[[], None]) -> None:
    barrier = threading.Barrier(len(actions))

    def run(action: Callable[[], None]) -> None:
        barrier.wait()
        action()

    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _ratings() -> dict[tuple[int, str], tuple[float, float, int]]:
    return {(r.user_id, r.ruleset): (r.mu, r.sigma, r.games) for r in PlayerRating.objects.all()}


def _seat_ratings() -> dict[int, tuple[float | None, float | None]]:
    return {
        pk: (before, after)
        for pk, before, after in Seat.objects.values_list("pk", "rating_before", "rating_after")
    }


def _assert_recompute_agrees() -> None:
    live, seats = _ratings(), _seat_ratings()
    call_command("recompute_ratings", verbosity=0)
    assert _ratings() == live
    assert _seat_ratings() == seats


def test_a_game_that_waited_for_the_ratings_lock_is_replayed_after_the_one_it_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ana, ben, cy = UserFactory.create_batch(3)
    first = _last_one_standing([ben, ana], rounds=1)
    second = _last_one_standing([ben, cy], rounds=0)
    # The first game to finish is held up just before it takes the ratings' locks, until
    # the second one has finished, been rated and committed.
    second_done = threading.Event()
    real_rate = leaderboards.services._game_rate

    def held_up(game: Game, seats: list[Seat]) -> None:
        if game.pk == first.pk:
            assert second_done.wait(timeout=30)
        real_rate(game, seats)

    monkeypatch.setattr(leaderboards.services, "_game_rate", held_up)
    finish_second = _finish(second)

    def second_then_signal() -> None:
        finish_second()
        second_done.set()

    _run_together(_finish(first), second_then_signal)
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2
    _assert_recompute_agrees()


def test_live_ratings_equal_a_recompute_after_many_simultaneous_finishes() -> None:
    rng = random.Random(2014)
    players = UserFactory.create_batch(5)
    for _ in range(6):
        # Two games with a player in common finish at the same instant.
        shared, one, other = rng.sample(players, 3)
        games = [
            _last_one_standing([shared, one], rounds=rng.randint(0, 1)),
            _last_one_standing([other, shared], rounds=rng.randint(0, 1)),
        ]
        _run_together(*(_finish(game) for game in games))
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 12
    _assert_recompute_agrees()
