"""Races on PostgreSQL: the game's row lock makes each change happen once, in some order."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.utils import timezone

from accounts.models import User
from core.errors import ActionRefused
from games import services
from games.models import Game, Move, Seat
from tests.factories import UserFactory, reference_turn_of, started_game

if TYPE_CHECKING:
    from tests.conftest import Race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(race: Race, *actions: Callable[[], str]) -> list[str]:
    """The actions' outcomes when started at the same instant, sorted."""
    outcomes = race(*actions, refusals=(ActionRefused,))
    return sorted(
        f"rejected: {o.messages[0]}" if isinstance(o, ActionRefused) else o for o in outcomes
    )


def commit(game: Game, user: User) -> Callable[[], str]:
    round_number, turn = reference_turn_of(game, user)

    def action() -> str:
        services.move_submit(game_id=game.pk, user=user, round_number=round_number, turn=turn)
        return "applied"

    return action


def test_two_players_committing_the_last_moves_at_once_advance_the_round_once(race: Race) -> None:
    ana, ben, cy = UserFactory.create_batch(3)
    game = started_game([ana, ben, cy])
    commit(game, ana)()
    version = Game.objects.get(pk=game.pk).version
    assert run_together(race, commit(game, ben), commit(game, cy)) == ["applied", "applied"]
    game.refresh_from_db()
    assert game.round == 2
    assert Move.objects.filter(seat__game=game, round=1).count() == 3
    assert game.version == version + 2


def test_two_players_joining_the_last_seat_at_once(race: Race) -> None:
    ana, ben, cy = UserFactory.create_batch(3)
    game = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE)

    def join(user: User) -> Callable[[], str]:
        return lambda: (services.game_join(game=game, user=user), "joined")[1]

    outcomes = run_together(race, join(ben), join(cy))
    assert outcomes[0] == "joined"
    assert outcomes[1] in (
        "rejected: This game has already started.",
        "rejected: This game is full.",
    )
    game.refresh_from_db()
    assert game.seats.count() == 2
    assert game.status == Game.Status.ACTIVE


def test_deadline_expiring_during_the_last_commit_of_a_round(race: Race) -> None:
    ana, ben = UserFactory.create_batch(2)
    game = started_game([ana, ben])
    commit(game, ana)()
    # The deadline falls in the instant Ben commits: the scheduler's clock says it has
    # passed, Ben's request (still within it) does not.
    deadline = timezone.now() + datetime.timedelta(seconds=5)
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    game.refresh_from_db()
    late = deadline + datetime.timedelta(milliseconds=1)

    def expire() -> str:
        return f"expired {services.expire_deadlines(now=late)}"

    outcomes = run_together(race, commit(game, ben), expire)
    game.refresh_from_db()
    ben_seat = Seat.objects.get(game=game, user=ben)
    moved = Move.objects.filter(seat=ben_seat).exists()
    # Either Ben's move landed first (nobody times out) or the time-out did (his move is
    # refused); never both, never neither, and round 2 started exactly once.
    assert moved != (ben_seat.status == Seat.Status.TIMED_OUT)
    assert outcomes in (
        ["applied", "expired 0"],
        ["expired 1", "rejected: You ran out of time and have left this game."],
    )
    assert game.round == 2
