"""One player's computer games cannot flood the task queue, nor go on without a person."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from core.errors import ActionRefused
from floor import limits
from games import computer, services
from games.models import Game, Move, Seat
from tests.factories import DATABASE_QUEUE, UserFactory, play_turn

pytestmark = pytest.mark.django_db

Committed = Callable[[], AbstractContextManager[Any]]
STRONG_SEVEN = ["strong"] * 7


def _bot_game(user: User, committed: Committed, levels: list[str]) -> Game:
    with committed():
        game = services.game_create_multi(
            user=user, seats_max=len(levels) + 1, pace=Game.Pace.LIVE, bots=levels
        )
    game.refresh_from_db()
    return game


def test_a_player_has_at_most_a_few_games_with_computers(user: User, committed: Committed) -> None:
    with override_settings(TASKS=DATABASE_QUEUE):
        games = [_bot_game(user, committed, STRONG_SEVEN) for _ in range(limits.MAX_COMPUTER_GAMES)]
        with pytest.raises(ActionRefused, match="games with computer players"):
            _bot_game(user, committed, STRONG_SEVEN)
        # Nor by adding a computer to a game waiting for people.
        waiting = services.game_create_multi(user=user, seats_max=3, pace=Game.Pace.LIVE)
        with pytest.raises(ActionRefused, match="games with computer players"):
            services.seat_add_bot(game=waiting, user=user, level="easy")
    assert not waiting.seats.filter(bot_level__gt="").exists()
    assert Game.objects.filter(created_by=user, seats__bot_level__gt="").distinct().count() == 3
    # Games of other players are not counted, and leaving one frees a place.
    _bot_game(UserFactory(), committed, ["easy"])
    services.seat_resign(game=games[0], user=user)
    _bot_game(user, committed, ["easy"])


def test_computers_stop_when_the_last_person_resigns(user: User, committed: Committed) -> None:
    game = _bot_game(user, committed, ["strong", "easy"])
    with committed():
        game = play_turn(game, user)
        game = play_turn(game, user)
        services.seat_resign(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    bots = game.seats.filter(user__isnull=True)
    assert {seat.status for seat in bots} == {Seat.Status.RESIGNED}
    # Round 3 was theirs to play when the person left: they never played it.
    assert not Move.objects.filter(seat__game=game, round=3).exists()


def test_computers_stop_when_the_last_person_times_out(user: User, committed: Committed) -> None:
    game = _bot_game(user, committed, ["easy"])
    assert game.deadline is not None
    with committed():
        services.expire_deadlines(now=game.deadline)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(user=user).status == Seat.Status.TIMED_OUT
    assert game.seats.get(user__isnull=True).status == Seat.Status.RESIGNED


def test_computers_play_on_while_another_person_does(user: User, committed: Committed) -> None:
    other = UserFactory()
    with committed():
        game = services.game_create_multi(
            user=user, seats_max=3, pace=Game.Pace.LIVE, bots=["easy"]
        )
        services.game_join(game=game, user=other)
        services.seat_resign(game=game, user=user)
        game = play_turn(game, other)
    game.refresh_from_db()
    assert game.is_active and game.round == 2
    assert game.seats.get(user__isnull=True).status == Seat.Status.PLAYING


def test_another_players_computers_wait_behind_one_task_of_a_flood_at_most(
    user: User, committed: Committed
) -> None:
    flooder = UserFactory()
    with override_settings(TASKS=DATABASE_QUEUE):
        flood = [_bot_game(flooder, committed, STRONG_SEVEN) for _ in range(3)]
        finished = services.game_create_solo(user=flooder)
        with committed():
            # Resigning ends a solo game: its analysis is queued.
            services.seat_resign(game=finished, user=flooder)
        mine = _bot_game(user, committed, ["strong"])
    order = [
        (result.task_path.rsplit(".", 1)[1], result.args_kwargs["args"][0])
        for result in DBTaskResult.objects.ready()
    ]
    # The queue's order: the flood's first, then the other player's, then the flood's rest;
    # analyses, which nobody waits for, last.
    assert order == [
        ("bots_play_task", flood[0].pk),
        ("bots_play_task", mine.pk),
        ("bots_play_task", flood[1].pk),
        ("bots_play_task", flood[2].pk),
        ("game_analyse_task", finished.pk),
    ]
    priorities = list(DBTaskResult.objects.ready().values_list("priority", flat=True))
    assert priorities[:2] == [computer.BOTS_PRIORITY] * 2
