from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

import winter
from accounts.services import vacation_start
from core.errors import ActionRefused
from tests.factories import UserFactory
from wintergames import computer, services
from wintergames.models import WinterGame, WinterSeat, WinterTurn
from wintergames.rebuild import winter_game
from wintergames.turnmail import turns_waiting

pytestmark = pytest.mark.django_db


def _solo(user: Any, *, computers: int = 1, level: str = "easy", seed: int = 7) -> WinterGame:
    return services.game_create(
        user=user,
        players=computers + 1,
        computers=computers,
        level=level,
        farmers=True,
        pace="untimed",
        seed=seed,
    )


def _state(game: WinterGame) -> winter.Game:
    game.refresh_from_db()
    return winter_game(game, list(game.seats.select_related("user").order_by("position")))


def _first_move(state: winter.Game) -> winter.Placement:
    assert state.drawn is not None
    return next(state.iter_placements(state.drawn))


def _play_first(game: WinterGame, user: Any, **kwargs: Any) -> services.TurnPlayed:
    move = _first_move(_state(game))
    return services.turn_play(
        game_id=game.pk,
        user=user,
        at=move.at,
        rotation=move.rotation,
        follower=move.follower,
        **kwargs,
    )


def test_a_game_against_computers_starts_at_once(user: Any) -> None:
    game = _solo(user, computers=3)
    game.refresh_from_db()
    assert game.status == WinterGame.Status.RUNNING
    assert [seat.is_bot for seat in game.seats.all()] == [False, True, True, True]
    assert _state(game).to_move == 0


def test_a_game_with_open_seats_waits_then_starts_when_full(user: Any) -> None:
    game = services.game_create(
        user=user, players=3, computers=1, level="normal", farmers=False, pace="live"
    )
    assert game.status == WinterGame.Status.OPEN
    other = UserFactory()
    services.game_join(game_id=game.pk, user=other)
    game.refresh_from_db()
    assert game.status == WinterGame.Status.RUNNING
    assert game.deadline is not None
    with pytest.raises(ActionRefused):
        services.game_join(game_id=game.pk, user=UserFactory())


@pytest.mark.parametrize(
    ("players", "computers", "level", "pace"),
    [
        (1, 0, "easy", "live"),
        (6, 1, "easy", "live"),
        (3, 3, "easy", "live"),
        (2, 1, "x", "live"),
        (2, 1, "easy", "fast"),
    ],
)
def test_create_refuses_what_is_out_of_bounds(
    user: Any, players: int, computers: int, level: str, pace: str
) -> None:
    with pytest.raises(ActionRefused):
        services.game_create(
            user=user, players=players, computers=computers, level=level, farmers=True, pace=pace
        )
    assert not WinterGame.objects.exists()


def test_a_refused_move_changes_nothing(user: Any) -> None:
    game = _solo(user)
    version = WinterGame.objects.get(pk=game.pk).version
    turns = WinterTurn.objects.count()
    with pytest.raises(ActionRefused) as refused:
        services.turn_play(game_id=game.pk, user=user, at=(5, 5), rotation=0, follower=None)
    assert refused.value.status == 400
    assert "share no side" in refused.value.messages[0]
    state = _state(game)
    assert state.drawn is not None
    legal = state.legal_moves(state.drawn)[0]
    missing = next(n for n in ("cloister", "N", "E", "S", "W") if n not in legal.followers)
    with pytest.raises(ActionRefused):
        services.turn_play(
            game_id=game.pk, user=user, at=legal.at, rotation=legal.rotation, follower=missing
        )
    assert WinterGame.objects.get(pk=game.pk).version == version
    assert WinterTurn.objects.count() == turns


def test_a_move_sent_twice_is_played_once(user: Any) -> None:
    game = _solo(user, computers=1)
    number = len(_state(game).turns)
    move = _first_move(_state(game))
    first, again = (
        services.turn_play(
            game_id=game.pk,
            user=user,
            at=move.at,
            rotation=move.rotation,
            follower=move.follower,
            turn_number=number,
        )
        for _ in range(2)
    )
    assert not first.repeated and again.repeated
    assert WinterTurn.objects.filter(game=game, number=number + 1).count() == 1
    assert WinterGame.objects.get(pk=game.pk).version == first.game.version


def test_a_turn_rolled_back_leaves_no_position_behind(
    user: Any, committed: Callable[[], Any]
) -> None:
    # A turn stored, then its transaction rolled back (a later write of the same request
    # failed). The game's version moves on by another change (a moderator hides the game):
    # its page must show the game as it is, not the turn that never was.
    with committed():
        game = _solo(user, computers=1)
        before = _state(game)
        move = _first_move(before)
        with pytest.raises(RuntimeError), transaction.atomic():
            services.turn_play(
                game_id=game.pk, user=user, at=move.at, rotation=move.rotation, follower=None
            )
            raise RuntimeError("a later write of the request failed")
        services.game_hidden_set(game.pk, True, "spam")
    shown = _state(game)
    assert shown.turns == before.turns
    assert shown.drawn == before.drawn and shown.to_move == before.to_move


def test_it_is_refused_out_of_turn(user: Any) -> None:
    game = _solo(user, computers=1)
    _play_first(game, user)  # the computer's turn is queued on commit, never run here
    with pytest.raises(ActionRefused) as refused:
        _play_first(game, user)
    assert refused.value.status == 409


def test_a_computer_seat_plays_through_its_task(user: Any, committed: Callable[[], Any]) -> None:
    with committed():
        game = _solo(user, computers=2, level="strong")
    with committed():
        _play_first(game, user)
    state = _state(game)
    # Both computers played: it is the person's turn again.
    assert state.to_move == 0
    assert sum(isinstance(t, winter.Placement) for t in state.turns) == 3


def test_the_computer_task_run_twice_plays_once(user: Any) -> None:
    game = _solo(user, computers=1)
    _play_first(game, user)
    number = len(_state(game).turns)
    assert computer.bots_play(game_id=game.pk, turn_number=number) == 1
    assert computer.bots_play(game_id=game.pk, turn_number=number) == 0


def test_a_game_played_to_its_end_is_scored(user: Any, committed: Callable[[], Any]) -> None:
    with committed():
        game = _solo(user, computers=1, level="easy", seed=3)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            break
        with committed():
            _play_first(game, user)
    seats = list(game.seats.order_by("position"))
    assert all(seat.score is not None and seat.place in (1, 2) for seat in seats)
    assert WinterTurn.objects.filter(game=game).count() == 83
    assert game.finished_at is not None


def test_resigning_hands_the_seat_to_the_computer(user: Any, committed: Callable[[], Any]) -> None:
    other = UserFactory()
    game = services.game_create(
        user=user, players=2, computers=0, level="easy", farmers=True, pace="correspondence"
    )
    services.game_join(game_id=game.pk, user=other)
    with committed():
        services.game_resign(game_id=game.pk, user=user)
    seat = WinterSeat.objects.get(game=game, user=user)
    assert seat.resigned and seat.is_bot
    # The computer played the resigned seat's turn: the other player is to move.
    assert _state(game).to_move == 1


def test_the_seat_levels_are_the_engines() -> None:
    import winter.bot

    assert tuple(WinterSeat.Level.values) == winter.bot.BOT_LEVELS


def _two_people(user: Any, pace: str) -> tuple[WinterGame, Any]:
    other = UserFactory()
    game = services.game_create(
        user=user, players=2, computers=0, level="easy", farmers=True, pace=pace
    )
    services.game_join(game_id=game.pk, user=other)
    game.refresh_from_db()
    return game, other


def test_a_live_clock_run_out_lets_the_computer_play_the_turn(user: Any, time_machine: Any) -> None:
    game, other = _two_people(user, "live")
    assert game.waiting_for == user
    assert not services.deadlines_enforce(game_id=game.pk)
    time_machine.move_to(timezone.now() + services.LIVE_TURN + datetime.timedelta(seconds=1))
    assert services.deadlines_enforce(game_id=game.pk)
    game.refresh_from_db()
    assert game.waiting_for == other
    assert sum(isinstance(t, winter.Placement) for t in _state(game).turns) == 1
    assert not WinterSeat.objects.get(game=game, user=user).resigned  # still theirs


def test_a_correspondence_clock_stands_still_on_vacation(user: Any, time_machine: Any) -> None:
    game, _other = _two_people(user, "correspondence")
    assert game.deadline is not None
    vacation_start(user=user, until=(timezone.now() + datetime.timedelta(days=6)).date())
    time_machine.move_to(
        timezone.now() + services.CORRESPONDENCE_TURN + datetime.timedelta(hours=1)
    )
    assert not services.deadlines_enforce(game_id=game.pk)
    game.refresh_from_db()
    assert game.deadline is not None and game.deadline > timezone.now()
    assert _state(game).turns == []


def test_a_correspondence_turn_is_in_the_turn_mail(user: Any) -> None:
    game, other = _two_people(user, "correspondence")
    lines = [turn.line for turn in turns_waiting(user, "https://example.org")]
    assert lines == [lines[0]] and f"/winter/games/{game.pk}/" in lines[0]
    assert turns_waiting(other, "https://example.org") == []
