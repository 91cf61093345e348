"""Winter clocks run out though nobody looks: the site's scheduled job (``manage.py
expire_deadlines``, through ``floor.clocks``) plays a late player's turn."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from io import StringIO
from typing import TYPE_CHECKING, Any

import pytest
from django.core.management import call_command
from django.utils import timezone

import winter
from accounts.models import User
from accounts.services import vacation_start
from core.errors import ActionRefused
from games.models import Game
from tests.factories import UserFactory, started_game
from wintergames import services
from wintergames.models import WinterGame, WinterTurn
from wintergames.rebuild import winter_game

if TYPE_CHECKING:
    from tests.conftest import Race

pytestmark = pytest.mark.django_db

SECOND = datetime.timedelta(seconds=1)


def _two_people(pace: str, turn_seconds: int | None = None) -> tuple[WinterGame, User, User]:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = services.game_create(
        user=ana,
        players=2,
        computers=0,
        level="easy",
        farmers=True,
        pace=pace,
        turn_seconds=turn_seconds,
    )
    services.game_join(game_id=game.pk, user=ben)
    game.refresh_from_db()
    return game, ana, ben


def _placements(game: WinterGame) -> int:
    game.refresh_from_db()
    state = winter_game(game, list(game.seats.select_related("user").order_by("position")))
    return sum(isinstance(turn, winter.Placement) for turn in state.turns)


def _job() -> str:
    out = StringIO()
    call_command("expire_deadlines", stdout=out)
    return out.getvalue()


def _play(game: WinterGame, user: User) -> None:
    game.refresh_from_db()
    state = winter_game(game, list(game.seats.select_related("user").order_by("position")))
    assert state.drawn is not None
    move = next(state.iter_placements(state.drawn))
    services.turn_play(
        game_id=game.pk, user=user, at=move.at, rotation=move.rotation, follower=move.follower
    )


def test_a_live_game_nobody_looks_at_moves_on(time_machine: Any) -> None:
    game, ana, ben = _two_people("live", turn_seconds=30)
    assert game.waiting_for == ana
    time_machine.move_to(timezone.now() + 29 * SECOND)
    assert "0 game(s)" in _job()
    assert _placements(game) == 0

    time_machine.move_to(timezone.now() + 2 * SECOND)
    assert "1 game(s) had players time out." in _job()
    assert _placements(game) == 1
    assert game.waiting_for == ben and game.deadline is not None
    assert 28 * SECOND < game.deadline - timezone.now() <= 30 * SECOND
    # Run again at once: Ben's clock has not run out, nothing moves.
    assert "0 game(s)" in _job()
    assert _placements(game) == 1

    time_machine.move_to(timezone.now() + 31 * SECOND)
    assert services.expire_deadlines(now=timezone.now()) == 1
    assert _placements(game) == 2
    assert game.waiting_for == ana


def test_the_job_leaves_untimed_games_and_computers_alone(time_machine: Any) -> None:
    untimed, _ana, _ben = _two_people("untimed")
    person = UserFactory()
    game = services.game_create(
        user=person, players=2, computers=1, level="easy", farmers=True, pace="live"
    )
    _play(game, person)  # the computer's turn is queued on commit: never run here
    time_machine.move_to(timezone.now() + datetime.timedelta(days=30))
    assert services.expire_deadlines(now=timezone.now()) == 0
    assert _placements(untimed) == 0 and _placements(game) == 1


def test_one_job_runs_the_clocks_of_both_games(time_machine: Any) -> None:
    winter_game_, _ana, _ben = _two_people("live")
    limes = started_game([UserFactory(), UserFactory()])
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=10))
    assert "2 game(s) had players time out." in _job()
    assert _placements(winter_game_) == 1
    assert Game.objects.get(pk=limes.pk).status == Game.Status.FINISHED


def test_a_vacation_stops_the_clock_exactly_however_often_the_job_runs(
    time_machine: Any,
) -> None:
    game, ana, ben = _two_people("correspondence")
    _play(game, ana)  # Ben's three days begin now
    began = WinterTurn.objects.filter(game=game).order_by("-number").first()
    assert began is not None
    time_machine.move_to(timezone.now() + datetime.timedelta(days=1))
    vacation = vacation_start(user=ben, until=timezone.now().date() + datetime.timedelta(days=2))
    away = vacation.ends_at - vacation.starts_at
    # The job every six hours, from Ben's first deadline to his last, long after he is back.
    for hours in range(2 * 24 - 6, 4 * 24 + 12, 6):
        time_machine.move_to(vacation.starts_at + datetime.timedelta(hours=hours))
        assert services.expire_deadlines(now=timezone.now()) == 0
    game.refresh_from_db()
    # Three days of Ben's own, and not a moment of his vacation counted twice.
    expected = began.played_at + services.CORRESPONDENCE_TURN + away
    assert game.deadline is not None and abs(game.deadline - expected) < SECOND
    time_machine.move_to(expected + SECOND)
    assert services.expire_deadlines(now=timezone.now()) == 1
    assert _placements(game) == 2


def test_a_vacation_on_the_first_turn_is_counted_once(time_machine: Any) -> None:
    game, ana, _ben = _two_people("correspondence")  # Ana's three days begin now
    began = game.turn_started_at
    assert began is not None
    time_machine.move_to(timezone.now() + datetime.timedelta(days=1))
    vacation = vacation_start(user=ana, until=timezone.now().date() + datetime.timedelta(days=3))
    away = vacation.ends_at - vacation.starts_at
    for hours in range(2 * 24 - 6, 5 * 24, 6):
        time_machine.move_to(vacation.starts_at + datetime.timedelta(hours=hours))
        assert services.expire_deadlines(now=timezone.now()) == 0
    game.refresh_from_db()
    expected = began + services.CORRESPONDENCE_TURN + away
    assert game.deadline is not None and abs(game.deadline - expected) < SECOND
    time_machine.move_to(expected + SECOND)
    assert services.expire_deadlines(now=timezone.now()) == 1
    assert _placements(game) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_job_and_a_late_turn_at_once_play_one_turn(race: Race, time_machine: Any) -> None:
    game, ana, _ben = _two_people("live", turn_seconds=30)
    state = winter_game(game, list(game.seats.select_related("user").order_by("position")))
    assert state.drawn is not None
    move = next(state.iter_placements(state.drawn))
    time_machine.move_to(timezone.now() + 31 * SECOND)

    def late_turn() -> str:
        played = services.turn_play(
            game_id=game.pk,
            user=ana,
            at=move.at,
            rotation=move.rotation,
            follower=move.follower,
            turn_number=len(state.turns),
        )
        # (The computer may have chosen the very same move: then it was not Ana's.)
        return "repeated" if played.repeated else "played"

    outcomes = race(
        late_turn,
        lambda: services.expire_deadlines(now=timezone.now()),
        lambda: services.expire_deadlines(now=timezone.now()),
        refusals=(ActionRefused,),
    )
    assert _placements(game) == 1
    # Ana's own turn, or the computer's for her: one of them, once.
    assert sum(o == "played" or o == 1 for o in outcomes) == 1


def test_a_game_whose_clock_fails_holds_up_no_other(
    time_machine: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken, _ana, _ben = _two_people("live", turn_seconds=30)
    ana, ben = UserFactory(username="cy"), UserFactory(username="di")
    fine = services.game_create(
        user=ana, players=2, computers=0, level="easy", farmers=True, pace="live", turn_seconds=30
    )
    services.game_join(game_id=fine.pk, user=ben)
    enforce = services.deadlines_enforce

    def failing(*, game_id: int, now: datetime.datetime) -> bool:
        if game_id == broken.pk:
            raise RuntimeError("a game this job cannot rebuild")
        return enforce(game_id=game_id, now=now)

    monkeypatch.setattr(services, "deadlines_enforce", failing)
    time_machine.move_to(timezone.now() + 31 * SECOND)
    assert "1 game(s) had players time out." in _job()
    assert (_placements(broken), _placements(fine)) == (0, 1)
    assert "a game this job cannot rebuild" in caplog.text


def test_a_computers_lost_turn_is_queued_again_when_its_clock_runs_out(
    time_machine: Any, monkeypatch: pytest.MonkeyPatch, committed: Callable[[], Any]
) -> None:
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr("wintergames.computer.bots_play_enqueue", lambda *turn: queued.append(turn))
    ana = UserFactory(username="ana")
    game = services.game_create(
        user=ana, players=2, computers=1, level="easy", farmers=True, pace="live", turn_seconds=30
    )
    with committed():
        _play(game, ana)
    assert len(queued) == 1  # the computer's turn, queued once: then the task is lost
    queued.clear()
    time_machine.move_to(timezone.now() + 31 * SECOND)
    with committed():
        _job()
    game.refresh_from_db()
    assert queued == [(game.pk, len(game.turns.all()))]
    assert game.deadline is not None and game.deadline > timezone.now()  # a new clock
    with committed():
        _job()
    assert len(queued) == 1  # not again before that clock runs out
