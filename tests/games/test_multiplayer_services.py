"""Multiplayer games through the services: lobby life, simultaneous rounds, leaving, deadlines."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.utils import timezone

import rules
from accounts.models import User
from accounts.services import notification_preferences_set
from core.errors import ActionRefused
from games import rebuild, services
from games.models import Game, Move, Seat
from tests.factories import (
    UserFactory,
    final_score,
    play_turn,
    reference_turn_of,
    seat_user,
    started_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana() -> User:
    return UserFactory(username="ana")


@pytest.fixture
def ben() -> User:
    return UserFactory(username="ben")


@pytest.fixture
def cy() -> User:
    return UserFactory(username="cy")


def seat_of(game: Game, user: User) -> Seat:
    return Seat.objects.get(game=game, user=user)


# -- creating, joining, leaving, starting ------------------------------------------------


def test_new_game_waits_for_players_with_an_invitation_code(ana: User) -> None:
    game = services.game_create_multi(
        user=ana, seats_max=3, pace=Game.Pace.CORRESPONDENCE, ferryman=True, listed=False
    )
    assert game.status == Game.Status.OPEN
    assert game.ruleset == "ferryman"
    assert game.round_seconds == 86400
    assert game.invite_code is not None and len(game.invite_code) == services.INVITE_LENGTH
    assert [s.user for s in game.seats.all()] == [ana]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seats_max": 1, "pace": "live"}, "2 to 8 seats"),
        ({"seats_max": 9, "pace": "live"}, "2 to 8 seats"),
        ({"seats_max": 2, "pace": "untimed"}, "Choose a pace"),
        ({"seats_max": 2, "pace": "live", "round_seconds": 86400}, "not offered"),
    ],
)
def test_bad_game_options_are_refused_and_nothing_is_created(
    ana: User, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ActionRefused, match=message):
        services.game_create_multi(user=ana, **options)
    assert not Game.objects.exists()


def test_last_seat_taken_starts_the_game(ana: User, ben: User, cy: User) -> None:
    game = services.game_create_multi(user=ana, seats_max=3, pace=Game.Pace.LIVE)
    services.game_join(game=game, user=ben)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    services.game_join(game=game, user=cy)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.started_at is not None
    assert game.deadline is not None
    assert game.deadline - game.started_at == datetime.timedelta(seconds=180)
    assert [s.position for s in game.seats.all()] == [1, 2, 3]


def test_joining_a_full_or_started_game_is_refused(ana: User, ben: User, cy: User) -> None:
    game = started_game([ana, ben])
    with pytest.raises(ActionRefused, match="already started"):
        services.game_join(game=game, user=cy)
    assert game.seats.count() == 2


def test_joining_twice_changes_nothing(ana: User, ben: User) -> None:
    game = services.game_create_multi(user=ana, seats_max=3, pace=Game.Pace.LIVE)
    services.game_join(game=game, user=ben)
    services.game_join(game=game, user=ben)
    assert game.seats.count() == 2


def test_invitation_only_game_needs_the_code(ana: User, ben: User, cy: User) -> None:
    game = services.game_create_multi(user=ana, seats_max=3, pace=Game.Pace.LIVE, listed=False)
    with pytest.raises(PermissionDenied):
        services.game_join(game=game, user=ben)
    with pytest.raises(PermissionDenied):
        services.game_join(game=game, user=ben, code="WRONGCODE")
    services.game_join(game=game, user=cy, code=game.invite_code)
    assert {s.user for s in game.seats.all()} == {ana, cy}


def test_creator_starts_with_two_players_not_one(ana: User, ben: User) -> None:
    game = services.game_create_multi(user=ana, seats_max=4, pace=Game.Pace.LIVE)
    with pytest.raises(ActionRefused, match="at least one other player"):
        services.game_start(game=game, user=ana)
    services.game_join(game=game, user=ben)
    with pytest.raises(PermissionDenied):
        services.game_start(game=game, user=ben)
    services.game_start(game=game, user=ana)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats_max == 2


def test_player_leaves_and_creator_cancels_before_the_start(ana: User, ben: User, cy: User) -> None:
    game = services.game_create_multi(user=ana, seats_max=3, pace=Game.Pace.LIVE)
    services.game_join(game=game, user=ben)
    services.game_leave(game=game, user=ben)
    assert [s.user for s in game.seats.all()] == [ana]
    with pytest.raises(ActionRefused, match="cancel it instead"):
        services.game_leave(game=game, user=ana)
    with pytest.raises(PermissionDenied):
        services.game_cancel(game=game, user=cy)
    services.game_cancel(game=game, user=ana)
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    with pytest.raises(ActionRefused, match="cancelled"):
        services.game_join(game=game, user=cy)


def test_version_moves_with_every_change_a_waiting_page_shows(
    ana: User, ben: User, cy: User
) -> None:
    game = services.game_create_multi(user=ana, seats_max=3, pace=Game.Pace.LIVE)
    versions = [Game.objects.get(pk=game.pk).version]
    services.game_join(game=game, user=ben)
    versions.append(Game.objects.get(pk=game.pk).version)
    services.game_leave(game=game, user=ben)
    versions.append(Game.objects.get(pk=game.pk).version)
    services.game_join(game=game, user=ben)
    services.game_start(game=game, user=ana)
    versions.append(Game.objects.get(pk=game.pk).version)
    play_turn(game, ana)
    versions.append(Game.objects.get(pk=game.pk).version)
    assert versions == sorted(set(versions))


# -- simultaneous rounds -----------------------------------------------------------------


def test_next_card_waits_for_every_player(ana: User, ben: User, cy: User) -> None:
    game = started_game([ana, ben, cy])
    play_turn(game, ben)
    play_turn(game, ana)
    game.refresh_from_db()
    assert game.round == 1
    assert rebuild.rules_game(game).waiting_for() == ["cy"]
    first_deadline = game.deadline
    play_turn(game, cy)
    game.refresh_from_db()
    assert game.round == 2
    assert game.deadline is not None and first_deadline is not None
    assert game.deadline > first_deadline
    assert list(Seat.objects.filter(game=game).values_list("rounds_played", flat=True)) == [1] * 3


def test_three_player_game_to_the_end_gives_places_by_score(ana: User, ben: User, cy: User) -> None:
    game = started_game([ana, ben, cy], diagonal=True)
    for _ in range(rules.ROUNDS):
        for player in (cy, ana, ben):
            play_turn(game, player)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.round == 17
    assert game.deadline is None
    state = rebuild.rules_game(game)
    expected = {s.player: (s.score.total, s.place) for s in state.outcome().standings}
    seats = {
        seat_user(s).username: (final_score(s), s.place) for s in game.seats.select_related("user")
    }
    assert seats == expected
    assert 1 in {place for _, place in seats.values()}


def test_a_players_choice_cannot_be_replayed_or_changed(ana: User, ben: User) -> None:
    game = started_game([ana, ben])
    round_number, turn = reference_turn_of(game, ana)
    services.move_submit(game_id=game.pk, user=ana, round_number=round_number, turn=turn)
    # The same move again (double click) is a no-op; another is refused.
    services.move_submit(game_id=game.pk, user=ana, round_number=round_number, turn=turn)
    other = rules.Turn(rules.Placement((0, 0), (turn.placement.rotation + 90) % 360))
    with pytest.raises(services.MoveRejected, match="already played round 1"):
        services.move_submit(game_id=game.pk, user=ana, round_number=round_number, turn=other)
    assert Move.objects.filter(seat__game=game).count() == 1


def test_game_not_started_takes_no_move(ana: User) -> None:
    game = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE)
    turn = rules.Turn(rules.Placement((0, 0)))
    with pytest.raises(services.MoveRejected, match="not started"):
        services.move_submit(game_id=game.pk, user=ana, round_number=1, turn=turn)


# -- resigning and deadlines -------------------------------------------------------------


def test_resigning_player_ranks_last_and_the_game_goes_on(ana: User, ben: User, cy: User) -> None:
    game = started_game([ana, ben, cy])
    play_turn(game, ana)
    play_turn(game, cy)
    services.seat_resign(game=game, user=ben)
    game.refresh_from_db()
    # Ben was the last to play round 1: his leaving completes it.
    assert game.round == 2
    seat = seat_of(game, ben)
    assert (seat.status, seat.rounds_played) == (Seat.Status.RESIGNED, 0)
    with pytest.raises(services.MoveRejected, match="resigned"):
        play_turn(game, ben)
    for _ in range(rules.ROUNDS - 1):
        play_turn(game, ana)
        play_turn(game, cy)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert seat_of(game, ben).place == 3


def test_resigning_twice_changes_nothing(ana: User, ben: User, cy: User) -> None:
    game = started_game([ana, ben, cy])
    services.seat_resign(game=game, user=cy)
    version = Game.objects.get(pk=game.pk).version
    services.seat_resign(game=game, user=cy)
    assert Game.objects.get(pk=game.pk).version == version


def test_last_player_left_finishes_alone_without_a_deadline(ana: User, ben: User) -> None:
    game = started_game([ana, ben])
    play_turn(game, ana)
    play_turn(game, ben)
    services.seat_resign(game=game, user=ben)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.deadline is None
    for _ in range(rules.ROUNDS - 1):
        play_turn(game, ana)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert (seat_of(game, ana).place, seat_of(game, ben).place) == (1, 2)


def test_everyone_resigning_ends_the_game(ana: User, ben: User) -> None:
    game = started_game([ana, ben])
    services.seat_resign(game=game, user=ana)
    services.seat_resign(game=game, user=ben)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_solo_abandoned_counts_with_the_score_so_far(
    user: User, solo_game: Game, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(solo_game, 3)
    services.seat_resign(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    result = game.solo_result
    assert result.abandoned
    assert result.score == rebuild.rules_game(game).scores()[user.username].total


def test_missed_deadline_times_out_only_those_still_waited_for(
    ana: User, ben: User, cy: User
) -> None:
    game = started_game([ana, ben, cy])
    play_turn(game, ana)
    deadline = game.deadline
    assert deadline is not None
    later = deadline + datetime.timedelta(seconds=1)
    assert services.expire_deadlines(now=later) == 1
    game.refresh_from_db()
    statuses = dict(game.seats.values_list("user__username", "status"))
    assert statuses == {"ana": "playing", "ben": "timed_out", "cy": "timed_out"}
    # Ana is alone now: round 2 waits for her, without a deadline.
    assert (game.round, game.deadline, game.status) == (2, None, Game.Status.ACTIVE)
    assert services.expire_deadlines(now=later) == 0


def test_committing_after_the_deadline_times_the_player_out(ana: User, ben: User) -> None:
    game = started_game([ana, ben])
    play_turn(game, ana)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - datetime.timedelta(1))
    with pytest.raises(services.MoveRejected, match="ran out of time"):
        play_turn(game, ben)
    assert seat_of(game, ben).status == Seat.Status.TIMED_OUT
    assert not Move.objects.filter(seat__user=ben).exists()
    game.refresh_from_db()
    assert game.round == 2


def test_timed_out_players_rank_by_rounds_played(ana: User, ben: User, cy: User) -> None:
    game = started_game([ana, ben, cy])
    for player in (ana, ben, cy):
        play_turn(game, player)
    play_turn(game, ana)
    play_turn(game, cy)
    services.expire_deadlines(now=Game.objects.get(pk=game.pk).deadline)
    play_turn(game, ana)
    services.expire_deadlines(now=Game.objects.get(pk=game.pk).deadline)
    game.refresh_from_db()
    # Ben timed out after 1 round, Cy after 2; Ana finishes alone.
    for _ in range(game.round, rules.ROUNDS + 1):
        play_turn(game, ana)
    game.refresh_from_db()
    places = dict(game.seats.values_list("user__username", "place"))
    assert game.status == Game.Status.FINISHED
    assert places == {"ana": 1, "cy": 2, "ben": 3}


def test_expire_deadlines_command_reports_the_games(ana: User, ben: User) -> None:
    game = started_game([ana, ben])
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - datetime.timedelta(1))
    from io import StringIO

    out = StringIO()
    call_command("expire_deadlines", stdout=out)
    assert "1 game(s)" in out.getvalue()
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_user_resign_everywhere_leaves_running_and_waiting_games(
    ana: User, ben: User, cy: User
) -> None:
    running = started_game([ana, ben, cy])
    waiting = services.game_create_multi(user=cy, seats_max=3, pace=Game.Pace.LIVE)
    services.game_join(game=waiting, user=ana)
    own = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE)
    assert services.user_resign_everywhere(user=ana) == 3
    assert seat_of(running, ana).status == Seat.Status.RESIGNED
    assert not waiting.seats.filter(user=ana).exists()
    assert Game.objects.get(pk=own.pk).status == Game.Status.CANCELLED


# -- email ---------------------------------------------------------------------------------


def test_correspondence_players_get_an_email_per_round_unless_they_opt_out(
    ana: User,
    ben: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
    time_machine: Any,
) -> None:
    notification_preferences_set(user=ben, choices={("turn", "email"): False})
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
    assert [m.to for m in mail.outbox] == [[ana.email]]
    assert "round 1" in mail.outbox[0].subject
    assert f"/games/{game.pk}/" in mail.outbox[0].body
    # Turn mails are batched: the next round an interval later gets its own.
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=61))
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(game, ana)
        play_turn(game, ben)
    assert [m.to for m in mail.outbox] == [[ana.email], [ana.email]]
    assert "round 2" in mail.outbox[1].subject


def test_live_games_send_no_email(
    ana: User, ben: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        started_game([ana, ben])
    assert mail.outbox == []
