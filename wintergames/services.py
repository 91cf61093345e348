"""Every write of a Winter game: create, join or leave, seat computers, cancel, play a
turn, resign, finish, rematch, and the clocks.

Each service is keyword-only and atomic, takes the game's row lock first, checks what a
player may get wrong before any write, and ends in ``_touch``: the one funnel that moves the
game's version on and tells its pages (``floor.push.winter_game_changed``). A refusal
raises ``ActionRefused`` and leaves everything as it was. Computer players think outside
any transaction (``wintergames.computer``) and commit through ``bot_turn_submit``. The
clocks are enforced when a game is looked at and, for games nobody looks at, by the site's
scheduled job (``floor.clocks``, which runs ``expire_deadlines``).
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

import winter
import winter.bot
from accounts.models import User
from accounts.notifications import Event
from accounts.selectors import vacation_paused
from accounts.services import ensure_not_banned
from core.errors import ActionRefused
from core.ids import is_row_id
from floor import clocks, limits, mail, push
from floor.internals import Inserter, RowsById, columns_saver
from floor.notify import notify
from wintergames import computer
from wintergames.models import WinterGame, WinterSeat, WinterTurn
from wintergames.pollstate import poll_states
from wintergames.rebuild import fresh_game, remember, winter_game
from wintergames.signals import winter_game_finished

MIN_PLAYERS, MAX_PLAYERS = 2, 5
LIVE_TURN = datetime.timedelta(minutes=2)
CORRESPONDENCE_TURN = datetime.timedelta(days=3)
DEFAULT_TURN = {
    WinterGame.Pace.LIVE: LIVE_TURN,
    WinterGame.Pace.CORRESPONDENCE: CORRESPONDENCE_TURN,
}
#: The times for a turn a creator may choose, in seconds, per timed pace.
TURN_SECONDS = {
    WinterGame.Pace.LIVE: (30, 60, 120, 300),
    WinterGame.Pace.CORRESPONDENCE: (86400, 3 * 86400, 7 * 86400),
}
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
    columns_saver(WinterGame, ("version", "updated_at", *fields))(game)
    if state is not None:
        remember(game, state)
    poll_states.publish(game.pk, game.version, game.deadline)
    push.winter_game_changed(game.pk, version=game.version, deadline=game.deadline)


def _locked(game_id: int) -> tuple[WinterGame, list[WinterSeat]]:
    # The row lock on the game serialises every change to it.
    found = _game_locked(game_id) if is_row_id(game_id) else []
    if not found:
        raise ActionRefused(_("No such game."), status=404)
    game = found[0]
    seats = _seats_of_game(game_id)
    for seat in seats:
        seat.game = game  # as reading them through game.seats leaves them
    return game, seats


# Every turn takes these two reads and a write of each: their SQL is compiled once a
# process, not at each turn.
_game_locked = RowsById(lambda pk: WinterGame.objects.select_for_update().filter(pk=pk))
_seats_of_game = RowsById(
    lambda pk: WinterSeat.objects.select_related("user").filter(game_id=pk).order_by("position")
)
_turn_insert = Inserter(WinterTurn)


@transaction.atomic
def game_hidden_set(game_id: int, hidden: bool, reason: str = "") -> WinterGame:
    """Take a game off the lists and the ratings, or put it back (for moderation, which
    checks who may); nothing is deleted. ``reason`` is kept while it is hidden. Raises
    ``ActionRefused`` (409) if the game is already as asked. Returns the game as written.
    """
    game, _seats = _locked(game_id)
    if game.hidden == hidden:
        message = _("This game is already hidden.") if hidden else _("This game is not hidden.")
        raise ActionRefused(message, code="unchanged", status=409)
    game.hidden, game.hidden_reason = hidden, reason if hidden else ""
    # Through the one funnel: its pages, their polls' cached state and the stream move on.
    _touch(game, None, "hidden", "hidden_reason")
    return game


# -- create, join and leave ----------------------------------------------------------------


def _check_turn_seconds(pace: str, turn_seconds: int | None) -> None:
    if turn_seconds is None:
        return
    if turn_seconds not in TURN_SECONDS.get(WinterGame.Pace(pace), ()):
        raise ActionRefused(_("That time per turn is not offered for this pace."))


def turn_length(game: WinterGame) -> datetime.timedelta | None:
    """How long the player to move has for a turn: the game's choice or its pace's
    default; ``None`` for an untimed game."""
    default = DEFAULT_TURN.get(WinterGame.Pace(game.pace))
    if default is None or game.turn_seconds is None:
        return default
    return datetime.timedelta(seconds=game.turn_seconds)


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
    turn_seconds: int | None = None,
    listed: bool = True,
    challenge: bool = False,
) -> WinterGame:
    """A new game of ``players`` seats: ``user`` first, the seats still open for people,
    then ``computers`` computer players at ``level``, with the table ``aids`` or not. A
    timed ``pace`` gives ``turn_seconds`` for a turn (one of ``TURN_SECONDS``; ``None``:
    the pace's default). It starts at once when no seat is open. Refused past one
    person's caps (``floor.limits``); a ``challenge``'s game (a friend's challenge
    accepted: the challenged takes the other seat in the same transaction) never waits
    for players, and is not counted among the games that do."""
    ensure_not_banned(user)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ActionRefused(
            _("A game has %(min)d to %(max)d players.") % {"min": MIN_PLAYERS, "max": MAX_PLAYERS}
        )
    if not 0 <= computers < players:
        raise ActionRefused(_("At least one seat is yours: fewer computers, please."))
    if computers and level not in WinterSeat.Level.values:
        raise ActionRefused(_("Choose the computer players' level."))
    humans = players - computers
    return _open(
        user=user,
        levels=[""] * humans + [level] * computers,
        farmers=farmers,
        pace=pace,
        seed=seed,
        aids=aids,
        turn_seconds=turn_seconds,
        listed=listed,
        waits=not challenge,
    )


def _open(
    *,
    user: User,
    levels: Sequence[str],
    farmers: bool,
    pace: str,
    aids: bool,
    turn_seconds: int | None,
    seed: int | None = None,
    rematch_of: WinterGame | None = None,
    position: int = 0,
    listed: bool = True,
    waits: bool = True,
) -> WinterGame:
    # One seat per level ("": a person's), ``user`` at ``position``; started when full.
    # ``waits``: its open seats wait for whoever comes (not a challenge's, taken at once).
    if pace not in WinterGame.Pace.values:
        raise ActionRefused(_("Choose the game's pace."))
    _check_turn_seconds(pace, turn_seconds)
    # One person's caps (floor.limits), under their row lock: no flood of the lobby, which
    # lists the newest open games, nor of the computers' queue.
    limits.lock_person(user)
    if waits and levels.count("") > 1:
        waiting = WinterGame.objects.filter(status=WinterGame.Status.OPEN, created_by=user)
        limits.ensure_open_games_room(waiting.count())
    if any(levels):
        limits.ensure_computer_games_room(_computer_games(user))
    game = WinterGame.objects.create(
        seed=secrets.randbelow(2**31) if seed is None else seed,
        farmers=farmers,
        aids=aids,
        pace=pace,
        turn_seconds=turn_seconds,
        created_by=user,
        rematch_of=rematch_of,
        listed=listed,
    )
    WinterSeat.objects.bulk_create(
        WinterSeat(
            game=game,
            position=number,
            user=user if number == position else None,
            bot_level=level,
        )
        for number, level in enumerate(levels)
    )
    seats = list(game.seats.select_related("user").order_by("position"))
    if any(seat.is_open for seat in seats):
        _touch(game, None)
        push.lobby_changed()  # a game waiting for players: the lobby lists it
    else:
        _start(game, seats)
    return game


def _computer_games(user: User) -> int:
    # Games ``user`` opened, waiting or in play, with computers they chose (a person who
    # resigned is played by the computer too, but was not chosen), or in play with no
    # person left in it: the computers play those to their end, and a game opened with a
    # friend and left by both would otherwise be a way round the cap.
    seats = WinterSeat.objects.filter(game=OuterRef("pk"), resigned=False)
    chosen = Exists(seats.exclude(bot_level=""))
    people_left = Exists(seats.filter(user__isnull=False))
    return WinterGame.objects.filter(
        Q(chosen) | Q(~people_left, status=WinterGame.Status.RUNNING),
        created_by=user,
        status__in=(WinterGame.Status.OPEN, WinterGame.Status.RUNNING),
    ).count()


def _ensure_open(game: WinterGame) -> None:
    if game.status != WinterGame.Status.OPEN:
        raise ActionRefused(_("This game is no longer open."), status=409)


def _ensure_creator(game: WinterGame, user: User, refusal: str) -> None:
    if game.created_by_id != user.pk:
        raise ActionRefused(refusal, status=403)


def _seat_taken(game: WinterGame, seats: list[WinterSeat]) -> None:
    # A seat of an open game has just been filled: start it if none is left open.
    push.lobby_changed()  # a seat taken, or the game gone from the lobby
    if any(other.is_open for other in seats):
        _touch(game, None)
    else:
        _start(game, seats)


@transaction.atomic
def game_join(*, game_id: int, user: User) -> WinterGame:
    """Take the first open seat of an open game; the game starts when it is full."""
    game, seats = _locked(game_id)
    _join(game, seats, user)
    return game


def _join(
    game: WinterGame, seats: list[WinterSeat], user: User, position: int | None = None
) -> None:
    # ``position``: the seat wanted, if it is open; else the first open one.
    ensure_not_banned(user)
    _ensure_open(game)
    if any(seat.user_id == user.pk for seat in seats):
        raise ActionRefused(_("You are already at this table."), status=409)
    open_seats = [seat for seat in seats if seat.is_open]
    if not open_seats:
        raise ActionRefused(_("Every seat is taken."), status=409)
    seat = next((s for s in open_seats if s.position == position), open_seats[0])
    seat.user = user
    seat.save(update_fields=["user"])
    _seat_taken(game, seats)


@transaction.atomic
def game_leave(*, game_id: int, user: User) -> WinterGame:
    """Give up one's seat at a game still waiting for players: it is open again. Its
    creator cancels the game instead. Leaving a game one has already left changes
    nothing."""
    game, seats = _locked(game_id)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    _ensure_open(game)
    if seat is None:
        return game
    if game.created_by_id == user.pk:
        raise ActionRefused(_("You created this game: cancel it instead."), status=409)
    seat.user = None
    seat.save(update_fields=["user"])
    _touch(game, None)
    push.lobby_changed()  # one more seat open
    return game


@transaction.atomic
def game_cancel(*, game_id: int, user: User) -> None:
    """Call off a game still waiting for players; only its creator may. It is deleted:
    nothing was played. A rematch offer called off leaves its finished game free to
    offer another."""
    original = WinterGame.objects.filter(pk=game_id).values_list("rematch_of", flat=True).first()
    # The finished game first, as ``game_rematch`` locks the two: no deadlock between them.
    finished = _locked(original)[0] if original is not None else None
    game, _seats = _locked(game_id)
    _ensure_creator(game, user, _("Only the player who created this game can cancel it."))
    _ensure_open(game)
    game.delete()
    push.lobby_changed()
    if finished is not None:
        _touch(finished, None)  # its people's final pages redraw without the offer


# -- computer seats while the game is open -------------------------------------------------


@transaction.atomic
def seat_add_computer(
    *, game_id: int, user: User, level: str, version: int | None = None
) -> WinterGame:
    """Seat a computer player of ``level`` in the last open seat of a game still waiting
    for players; the creator's call. Taking the last open seat starts the game, as a
    person joining would. ``version``, when given, is the game's version the creator saw:
    a request sent twice (or after the table changed) is refused, and seats one computer."""
    if level not in WinterSeat.Level.values:
        raise ActionRefused(_("Choose the computer players' level."))
    game, seats = _locked(game_id)
    _ensure_creator(game, user, _("Only the player who created this game can add computers."))
    _ensure_open(game)
    if version is not None and version != game.version:
        raise ActionRefused(_("The table has changed since this page was drawn."), status=409)
    seat = next((s for s in reversed(seats) if s.is_open), None)
    if seat is None:
        raise ActionRefused(_("Every seat is taken."), status=409)
    if not any(s.is_bot for s in seats):
        # The game's first computer: it counts towards the creator's cap now.
        limits.lock_person(user)
        limits.ensure_computer_games_room(_computer_games(user))
    seat.bot_level = level
    seat.save(update_fields=["bot_level"])
    _seat_taken(game, seats)
    return game


@transaction.atomic
def seat_remove_computer(*, game_id: int, user: User, seat_id: int) -> WinterGame:
    """Take a computer player out of a game still waiting for players: its seat is open
    for a person again; the creator's call. A seat already open changes nothing."""
    game, seats = _locked(game_id)
    _ensure_creator(game, user, _("Only the player who created this game can remove computers."))
    seat = next((s for s in seats if s.pk == seat_id), None)
    if seat is None:
        raise ActionRefused(_("No such computer player in this game."), status=404)
    _ensure_open(game)
    if seat.is_open:
        return game
    if not seat.is_bot:
        raise ActionRefused(_("A person sits there, not a computer."), status=409)
    seat.bot_level = ""
    seat.save(update_fields=["bot_level"])
    _touch(game, None)
    push.lobby_changed()  # one more seat open
    return game


# -- rematch -------------------------------------------------------------------------------


@transaction.atomic
def game_rematch(*, game_id: int, user: User) -> WinterGame:
    """Play a finished game again: the first of its people to ask opens the rematch, the
    others take their seats in it by asking too. Returns the rematch.

    The rematch has the same options, pace, time per turn and computer players; every
    seat moves one place on, so the second player starts. Each person's seat waits for
    them (as any open seat, anyone may take it from the lobby). Asking again once seated
    changes nothing. Refused to anyone who did not play the game, and once the rematch has
    started without them."""
    ensure_not_banned(user)
    # Under the finished game's lock: two people asking at once open one rematch.
    game, seats = _locked(game_id)
    if not game.is_finished:
        raise ActionRefused(_("Only a finished game has a rematch."), status=409)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    if mine is None:
        raise ActionRefused(_("You do not play in this game."), status=403)
    count = len(seats)
    position = (mine.position - 1) % count
    offered = WinterGame.objects.filter(rematch_of=game).values_list("pk", flat=True).first()
    if offered is not None:
        rematch, rematch_seats = _locked(offered)
        if not any(s.user_id == user.pk for s in rematch_seats):
            _join(rematch, rematch_seats, user, position)
        return rematch
    # A resigned person's seat was the computer's only for that game.
    levels = ["" if seat.user_id or seat.resigned else seat.bot_level for seat in seats]
    rematch = _open(
        user=user,
        levels=[levels[(number + 1) % count] for number in range(count)],
        farmers=game.farmers,
        pace=game.pace,
        aids=game.aids,
        turn_seconds=game.turn_seconds,
        rematch_of=game,
        position=position,
        listed=game.listed,
    )
    # The others' final pages redraw with the offer.
    _touch(game, None)
    return rematch


def _start(game: WinterGame, seats: list[WinterSeat]) -> None:
    state = fresh_game(game, seats)
    game.status = WinterGame.Status.RUNNING
    _store_new_turns(game, state, stored=0)
    _next_turn(game, seats, state)
    _touch(game, state, "status", "deadline", "turn_started_at", "waiting_for")


# -- turns ---------------------------------------------------------------------------------


def _store_new_turns(game: WinterGame, state: winter.Game, *, stored: int) -> None:
    now = timezone.now()
    new = state.turns[stored:]
    if len(new) == 1:  # a turn's one entry, most often
        entry = winter.turn_to_json(new[0])
        _turn_insert(game=game, number=stored + 1, entry=entry, played_at=now)
        return
    WinterTurn.objects.bulk_create(
        WinterTurn(game=game, number=number, entry=winter.turn_to_json(turn), played_at=now)
        for number, turn in enumerate(new, stored + 1)
    )


def _next_turn(game: WinterGame, seats: list[WinterSeat], state: winter.Game) -> None:
    """After the position changed: finish the game, or set the clock of the player to move
    and tell them (a person) or queue their turn (a computer)."""
    if state.is_over():
        _finish(game, seats, state)
        return
    seat = seats[state.to_move]
    length = turn_length(game)
    game.turn_started_at = timezone.now()
    game.deadline = game.turn_started_at + length if length is not None else None
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
    _touch(game, state, "status", "deadline", "turn_started_at", "finished_at", "waiting_for")
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
    _touch(game, state, "deadline", "turn_started_at", "waiting_for")
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
    if seat.is_bot and state.drawn is not None:
        # A computer's turn that should long have been played: its task was lost (a
        # worker killed mid-turn, say). Queued again (safe to run twice), with a new clock.
        length = turn_length(game) or CORRESPONDENCE_TURN
        game.deadline = now + length
        _touch(game, state, "deadline")
        game_id, number = game.pk, len(state.turns)
        transaction.on_commit(lambda: computer.bots_play_enqueue(game_id, number))
        return False
    if seat.is_bot or seat.user is None or state.drawn is None:
        return False
    if game.pace == WinterGame.Pace.CORRESPONDENCE:
        deadline = _vacation_deadline(game, seat.user, now)
        if deadline > now:
            game.deadline = deadline
            _touch(game, state, "deadline")
            return False
    placement = winter.bot.choose(RESIGNED_LEVEL, winter.bot.View.from_game(state))
    _play(game, seats, seat, placement, len(state.turns))
    return True


def _vacation_deadline(game: WinterGame, user: User, now: datetime.datetime) -> datetime.datetime:
    # The turn's deadline with every moment of the player's vacations since the turn began
    # added: counted from its start, the same moment of a vacation is never added twice,
    # however often the clock is looked at. (A game from before ``turn_started_at``: the
    # last turn stored, or one turn's length before the deadline.)
    assert game.deadline is not None
    length = turn_length(game) or CORRESPONDENCE_TURN
    began = game.turn_started_at
    if began is None:
        last = game.turns.order_by("-number").values_list("played_at", flat=True).first()
        began = last if last is not None else game.deadline - length
    return max(game.deadline, began + length + vacation_paused(user.pk, began, now))


def expire_deadlines(*, now: datetime.datetime) -> int:
    """Enforce every passed clock of a running game (run by the scheduled job,
    ``floor.clocks``), each game in a transaction of its own under its row lock. Returns how
    many games had a late turn played."""
    due = WinterGame.objects.filter(status=WinterGame.Status.RUNNING, deadline__lte=now)
    game_ids = list(due.order_by("deadline", "pk").values_list("pk", flat=True))
    return clocks.each_due(game_ids, lambda game_id: deadlines_enforce(game_id=game_id, now=now))
