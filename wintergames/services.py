"""Every write of a Winter game: create, join, play a turn, resign, finish.

Each service is keyword-only and atomic, takes the game's row lock first, checks what a
player may get wrong before any write, and ends in ``_touch``: the one funnel that moves the
game's version on and tells its pages (``floor.push.winter_game_changed``). A refusal
raises ``ActionRefused`` and leaves everything as it was. Computer players think outside
any transaction (``wintergames.computer``) and commit through ``bot_turn_submit``.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

import winter
import winter.bot
from accounts.models import User
from accounts.notifications import Event
from accounts.selectors import vacation_paused
from core.errors import ActionRefused
from floor import mail, push
from floor.notify import notify
from wintergames import computer
from wintergames.models import WinterGame, WinterSeat, WinterTurn
from wintergames.pollstate import poll_states
from wintergames.rebuild import fresh_game, remember, winter_game
from wintergames.signals import winter_game_finished

MIN_PLAYERS, MAX_PLAYERS = 2, 5
LIVE_TURN = datetime.timedelta(minutes=2)
CORRESPONDENCE_TURN = datetime.timedelta(days=3)
RESIGNED_LEVEL = WinterSeat.Level.EASY
"""A resigned player's seat is played on by the computer at this level, and placed last."""


@dataclass(frozen=True)
class TurnPlayed:
    """What a turn's commit leaves: the game, its seats and position after it, and whether
    the request was a repeat of a turn already played (then nothing was written)."""

    game: WinterGame
    seats: list[WinterSeat]
    state: winter.Game
    repeated: bool = False


# -- the funnel ----------------------------------------------------------------------------


def _touch(game: WinterGame, state: winter.Game | None, *fields: str) -> None:
    # Every change a page must show moves the version its polls and stream compare.
    game.version += 1
    game.save(update_fields=["version", "updated_at", *fields])
    if state is not None:
        remember(game, state)
    poll_states.publish(game.pk, game.version, game.deadline)
    push.winter_game_changed(game.pk, version=game.version, deadline=game.deadline)


def _locked(game_id: int) -> tuple[WinterGame, list[WinterSeat]]:
    try:
        game = WinterGame.objects.select_for_update().get(pk=game_id)
    except WinterGame.DoesNotExist:
        raise ActionRefused(_("No such game."), status=404) from None
    seats = list(game.seats.select_related("user").order_by("position"))
    return game, seats


# -- create and join -----------------------------------------------------------------------


@transaction.atomic
def game_create(
    *,
    user: User,
    players: int,
    computers: int,
    level: str,
    farmers: bool,
    pace: str,
    seed: int | None = None,
    aids: bool = True,
) -> WinterGame:
    """A new game of ``players`` seats: ``user`` first, the seats still open for people,
    then ``computers`` computer players at ``level``, with the table ``aids`` or not. It
    starts at once when no seat is open."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ActionRefused(
            _("A game has %(min)d to %(max)d players.") % {"min": MIN_PLAYERS, "max": MAX_PLAYERS}
        )
    if not 0 <= computers < players:
        raise ActionRefused(_("At least one seat is yours: fewer computers, please."))
    if computers and level not in WinterSeat.Level.values:
        raise ActionRefused(_("Choose the computer players' level."))
    if pace not in WinterGame.Pace.values:
        raise ActionRefused(_("Choose the game's pace."))
    game = WinterGame.objects.create(
        seed=secrets.randbelow(2**31) if seed is None else seed,
        farmers=farmers,
        aids=aids,
        pace=pace,
        created_by=user,
    )
    humans = players - computers
    seats = [WinterSeat(game=game, position=0, user=user)]
    seats += [WinterSeat(game=game, position=p) for p in range(1, humans)]
    seats += [WinterSeat(game=game, position=p, bot_level=level) for p in range(humans, players)]
    WinterSeat.objects.bulk_create(seats)
    seats = list(game.seats.select_related("user").order_by("position"))
    if humans == 1:
        _start(game, seats)
    else:
        _touch(game, None)
        push.lobby_changed()  # a game waiting for players: the lobby lists it
    return game


@transaction.atomic
def game_join(*, game_id: int, user: User) -> WinterGame:
    """Take the first open seat of an open game; the game starts when it is full."""
    game, seats = _locked(game_id)
    if game.status != WinterGame.Status.OPEN:
        raise ActionRefused(_("This game is no longer open."), status=409)
    if any(seat.user_id == user.pk for seat in seats):
        raise ActionRefused(_("You are already at this table."), status=409)
    seat = next((seat for seat in seats if seat.is_open), None)
    if seat is None:
        raise ActionRefused(_("Every seat is taken."), status=409)
    seat.user = user
    seat.save(update_fields=["user"])
    push.lobby_changed()  # a seat taken, or the game gone from the lobby
    if any(other.is_open for other in seats):
        _touch(game, None)
    else:
        _start(game, seats)
    return game


def _start(game: WinterGame, seats: list[WinterSeat]) -> None:
    state = fresh_game(game, seats)
    game.status = WinterGame.Status.RUNNING
    _store_new_turns(game, state, stored=0)
    _next_turn(game, seats, state)
    _touch(game, state, "status", "deadline", "waiting_for")


# -- turns ---------------------------------------------------------------------------------


def _store_new_turns(game: WinterGame, state: winter.Game, *, stored: int) -> None:
    now = timezone.now()
    WinterTurn.objects.bulk_create(
        WinterTurn(game=game, number=number, entry=winter.turn_to_json(turn), played_at=now)
        for number, turn in enumerate(state.turns[stored:], stored + 1)
    )


def _next_turn(game: WinterGame, seats: list[WinterSeat], state: winter.Game) -> None:
    """After the position changed: finish the game, or set the clock of the player to move
    and tell them (a person) or queue their turn (a computer)."""
    if state.is_over():
        _finish(game, seats, state)
        return
    seat = seats[state.to_move]
    now = timezone.now()
    game.deadline = {
        WinterGame.Pace.LIVE: now + LIVE_TURN,
        WinterGame.Pace.CORRESPONDENCE: now + CORRESPONDENCE_TURN,
    }.get(WinterGame.Pace(game.pace))
    number = len(state.turns)
    game.waiting_for = None if seat.is_bot else seat.user
    if seat.is_bot:
        game_id = game.pk
        transaction.on_commit(lambda: computer.bots_play_enqueue(game_id, number))
    elif seat.user is not None:
        _notify_turn(game, seats, seat.user)


def _notify_turn(game: WinterGame, seats: Sequence[WinterSeat], user: User) -> None:
    people = sum(1 for seat in seats if seat.user_id is not None and not seat.is_bot)
    if game.pace == WinterGame.Pace.CORRESPONDENCE:
        mail.turn_mail_notify([user])  # batched by the task worker (floor.mail)
        event = Event.TURN
    elif game.pace == WinterGame.Pace.LIVE and people >= 2:
        event = Event.LIVE_TURN
    else:
        return
    url = reverse("winter:detail", kwargs={"pk": game.pk})
    notify(user=user, event=event, text=_turn_text(game), url=url, mail_too=False)


def _turn_text(game: WinterGame) -> Callable[[], str]:
    return lambda: _("Your turn in Carcassonne: Winter Edition (game %(id)d).") % {"id": game.pk}


def _finish(game: WinterGame, seats: list[WinterSeat], state: winter.Game) -> None:
    totals = state.totals()
    # Resigned players come after everyone who played on, whatever their points.
    keys = [(not seat.resigned, totals[seat.position]) for seat in seats]
    places: dict[int, int] = {}
    for place, key in enumerate(sorted(set(keys), reverse=True), 1):
        for seat in seats:
            if keys[seat.position] == key:
                places[seat.position] = place
    for seat in seats:
        seat.score = totals[seat.position]
        seat.place = places[seat.position]
    WinterSeat.objects.bulk_update(seats, ["score", "place"])
    game.status = WinterGame.Status.FINISHED
    game.finished_at = timezone.now()
    game.deadline = None
    game.waiting_for = None
    # In this transaction: the apps above (leaderboards' ratings) commit with the result.
    winter_game_finished.send(sender=WinterGame, game=game, seats=seats, state=state)


def _play(
    game: WinterGame,
    seats: list[WinterSeat],
    seat: WinterSeat,
    placement: winter.Placement,
    turn_number: int | None,
) -> TurnPlayed:
    if game.status != WinterGame.Status.RUNNING:
        raise ActionRefused(_("This game is not in play."), status=409)
    state = winter_game(game, seats)
    if turn_number is not None and turn_number != len(state.turns):
        # (The tile is the one drawn then, which the request does not name.)
        entry = winter.turn_to_json(placement)
        entry.pop("tile")
        then = game.turns.filter(number=turn_number + 1).values_list("entry", flat=True)
        played = [{k: v for k, v in stored.items() if k != "tile"} for stored in then]
        if turn_number < len(state.turns) and played == [entry]:
            # The same turn sent twice (a double click, a resent form): played once.
            return TurnPlayed(game, seats, state, repeated=True)
        raise ActionRefused(_("The game has moved on since this page was drawn."), status=409)
    if seats[state.to_move].pk != seat.pk:
        raise ActionRefused(_("It is not your turn."), status=409)
    if placement.tile != state.drawn:
        raise ActionRefused(_("That is not the tile drawn."), status=409)
    stored = len(state.turns)
    try:
        state.play(placement)
    except winter.WinterError as error:
        raise ActionRefused(str(error), status=400) from None
    _store_new_turns(game, state, stored=stored)
    _next_turn(game, seats, state)
    _touch(game, state, "status", "deadline", "finished_at", "waiting_for")
    return TurnPlayed(game, seats, state)


@transaction.atomic
def turn_play(
    *,
    game_id: int,
    user: User,
    at: winter.Point,
    rotation: int,
    follower: str | None,
    turn_number: int | None = None,
) -> TurnPlayed:
    """Play ``user``'s turn: the drawn tile at ``at`` turned ``rotation``, with a follower
    on ``follower`` or none. ``turn_number`` is the count of record entries the page was
    drawn for: a turn sent again once played is not played twice."""
    game, seats = _locked(game_id)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None or seat.resigned:
        raise ActionRefused(_("You do not play in this game."), status=403)
    state = winter_game(game, seats) if game.is_running else None
    tile = state.drawn if state is not None else None
    placement = winter.Placement(tile or "", at, rotation, follower)
    return _play(game, seats, seat, placement, turn_number)


@transaction.atomic
def bot_turn_submit(
    *, game_id: int, turn_number: int, placement: winter.Placement
) -> TurnPlayed | None:
    """Commit a computer player's turn worked out for entry ``turn_number``; ``None`` when
    the game moved on meanwhile (the turn is then dropped)."""
    game, seats = _locked(game_id)
    if not game.is_running:
        return None
    state = winter_game(game, seats)
    seat = seats[state.to_move]
    if len(state.turns) != turn_number or not seat.is_bot:
        return None
    return _play(game, seats, seat, placement, turn_number)


@transaction.atomic
def game_resign(*, game_id: int, user: User) -> WinterGame:
    """``user`` leaves a game in play: the computer plays their seat on, and they are
    placed last. When no person is left playing, the computer plays the game to its end."""
    game, seats = _locked(game_id)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise ActionRefused(_("You do not play in this game."), status=403)
    if not game.is_running or seat.resigned:
        raise ActionRefused(_("This game is not in play."), status=409)
    seat.resigned = True
    seat.bot_level = RESIGNED_LEVEL
    seat.save(update_fields=["resigned", "bot_level"])
    state = winter_game(game, seats)
    if seats[state.to_move].pk == seat.pk:
        _next_turn(game, seats, state)  # their turn, now the computer's
    _touch(game, state, "deadline", "waiting_for")
    return game


# -- clocks --------------------------------------------------------------------------------


def deadline_passed(game: WinterGame, now: datetime.datetime | None = None) -> bool:
    """Whether the turn's clock of a running game has run out (a cheap check, no lock)."""
    now = now or timezone.now()
    return game.is_running and game.deadline is not None and game.deadline <= now


@transaction.atomic
def deadlines_enforce(*, game_id: int, now: datetime.datetime | None = None) -> bool:
    """Play the late player's turn if their clock has run out: the computer (``easy``)
    plays it for them, and the game goes on. A correspondence clock stands still while
    its player is on vacation. Returns whether a turn was played; safe to call any time."""
    now = now or timezone.now()
    game, seats = _locked(game_id)
    if not deadline_passed(game, now):
        return False
    assert game.deadline is not None
    state = winter_game(game, seats)
    seat = seats[state.to_move]
    if seat.is_bot or seat.user is None or state.drawn is None:
        return False
    if game.pace == WinterGame.Pace.CORRESPONDENCE:
        since = game.deadline - CORRESPONDENCE_TURN
        paused = vacation_paused(seat.user.pk, since, now)
        if paused and game.deadline + paused > now:
            game.deadline += paused
            _touch(game, state, "deadline")
            return False
    placement = winter.bot.choose(RESIGNED_LEVEL, winter.bot.View.from_game(state))
    _play(game, seats, seat, placement, len(state.turns))
    return True
