"""Writes of the games app: games, seats, rounds, live tables, the daily par's row, exports.

The transaction kernel: every change of a game goes through ``_locked`` (the game's row
lock) and ``_touch`` (its version, its poll state, its push), a round through ``_submit``
(``move_submit`` for a person, ``bot_move_submit`` for a computer player). The computer's
own work (its players' turns, hints, analyses, the par) is ``games.computer``'s: it thinks
outside any transaction and writes through this module.

Most functions are one transaction (``@transaction.atomic``). The exceptions say so in
their docstrings: a round whose deadline has passed commits the time-out on its own before
the move is refused (``move_submit``); ``user_resign_everywhere`` and ``expire_deadlines``
take one transaction per game. ``daily_cards`` writes nothing.
"""

from __future__ import annotations

import contextvars
import datetime
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django_tasks import task

import rules
from accounts.models import User
from accounts.notifications import Event
from accounts.selectors import vacation_paused
from accounts.services import ensure_not_banned
from core.errors import ActionRefused
from core.ids import is_row_id
from floor import clocks, limits, mail, push
from floor.internals import ColumnsSaver, Inserter, RowsById, columns_saver
from floor.notify import notify
from floor.taskqueue import COMPUTERS
from games import computer, export
from games.daily import daily_seed, today
from games.models import (
    BotLevel,
    DailyPar,
    DataExport,
    Game,
    GameAnalysis,
    Lockstep,
    Move,
    Ruleset,
    Seat,
    SoloResult,
)
from games.policy import hint_refusal, seat_of
from games.pollstate import poll_state_publish, poll_state_set
from games.rebuild import (
    deck,
    move_to_turn,
    player_key,
    rules_game,
    stored_turns,
)
from games.selectors import lockstep_counts
from games.signals import game_finished, lockstep_finished


class MoveRejected(ActionRefused):
    """A round's move refused: a rule it breaks, a round not in play, a seat that left."""


# Deadlines a creator may choose, in seconds, per pace.
ROUND_SECONDS = {
    Game.Pace.LIVE: (60, 180, 300, 600),
    Game.Pace.CORRESPONDENCE: (86400, 2 * 86400, 3 * 86400),
}
DEFAULT_ROUND_SECONDS = {Game.Pace.LIVE: 180, Game.Pace.CORRESPONDENCE: 86400}
MAX_SEATS = 8
# Readable invitation codes: no 0/O, 1/I/L.
INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 8
# Solo games one player may have in play (the daily challenge aside): enough for anyone,
# and no flood of the tables. Games waiting for players and games with computer players
# are capped as Winter's are (floor.limits).
MAX_SOLO_IN_PLAY = 10


@transaction.atomic
def game_create_solo(
    *,
    user: User,
    diagonal: bool = False,
    ferryman: bool = False,
    seed: int | None = None,
    daily: datetime.date | None = None,
    sealed_until: datetime.datetime | None = None,
) -> Game:
    """Start a solo game for ``user`` with a freshly dealt, server-side card sequence.

    ``sealed_until``: a competition's game (``Game.sealed_until``). Raises ``ActionRefused``
    when the player already has ``MAX_SOLO_IN_PLAY`` solo games in play (a daily challenge
    or a competition's game is not counted, nor refused).
    """
    if daily is None and sealed_until is None:
        limits.lock_person(user)
        in_play = Game.objects.filter(
            mode=Game.Mode.SOLO, status=Game.Status.ACTIVE, created_by=user, daily__isnull=True
        ).count()
        if in_play >= MAX_SOLO_IN_PLAY:
            raise ActionRefused(
                _("You have %d solo games in play: finish or resign one first.") % in_play,
                status=409,
            )
    game = _new_game(
        user,
        _deal(seed),
        diagonal=diagonal,
        ferryman=ferryman,
        daily=daily,
        sealed_until=sealed_until,
        started_at=timezone.now(),
    )
    game.full_clean()
    game.save()
    Seat.objects.create(game=game, user=user, position=1)
    return game


def _new_game(
    user: User,
    dealt: tuple[int, rules.Deck, list[int]],
    *,
    diagonal: bool,
    ferryman: bool,
    **fields: object,
) -> Game:
    """An unsaved game created by ``user`` with the cards ``dealt`` (``_deal``) and
    ``fields`` (a solo game unless they say otherwise)."""
    seed, the_deck, cards = dealt
    fields.setdefault("mode", Game.Mode.SOLO)
    return Game(
        diagonal=diagonal,
        ferryman=ferryman,
        ruleset=Ruleset.of(diagonal=diagonal, ferryman=ferryman),
        seed=seed,
        deck_name=the_deck.name,
        cards=cards,
        created_by=user,
        **fields,
    )


def _deal(seed: int | None) -> tuple[int, rules.Deck, list[int]]:
    if seed is None:
        seed = secrets.randbits(62)
    the_deck = deck()
    return seed, the_deck, list(the_deck.deal(random.Random(seed)))


def game_create_daily(*, user: User) -> Game:
    """Start ``user``'s one attempt at today's challenge, or return the one they started.

    Standard rules, the day's cards for everyone. A second request, even at the same
    moment (a double click, a second tab), gets the same game: the database allows one
    daily game per player and day.
    """
    ensure_not_banned(user)
    day = today()
    existing = _daily_game(user=user, day=day)
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            game = game_create_solo(user=user, seed=daily_seed(day), daily=day)
            # The day's first attempt sets the par computing, well before anyone finishes.
            daily_par_request(day=day)
            return game
    except (IntegrityError, ValidationError):
        # A rival request got in between: full_clean reports its game as a ValidationError
        # once committed, the insert as an IntegrityError while it is in flight. Either
        # way the rival's game is the attempt.
        existing = _daily_game(user=user, day=day)
        if existing is None:
            raise
        return existing


def _daily_game(*, user: User, day: datetime.date) -> Game | None:
    return Game.objects.filter(daily=day, created_by=user).first()


@transaction.atomic
def game_create_multi(
    *,
    user: User,
    seats_max: int,
    pace: str,
    round_seconds: int | None = None,
    listed: bool = True,
    diagonal: bool = False,
    ferryman: bool = False,
    seed: int | None = None,
    bots: Sequence[str] = (),
    challenge: bool = False,
) -> Game:
    """Open a game for 2 to 8 players; the creator takes the first seat.

    ``bots``: the level of each computer player to seat at once (up to ``seats_max - 1``).
    It waits for players (in the lobby if ``listed``, else only by its invitation code)
    until the creator starts it or the last seat is taken. Raises ``ActionRefused`` when
    the player already has ``floor.limits.MAX_OPEN_GAMES`` games waiting for players,
    unless it is a ``challenge``'s game (a friend's challenge accepted: the challenged
    takes the other seat in the same transaction, so it never waits).
    """
    ensure_not_banned(user)
    if not 2 <= seats_max <= MAX_SEATS:
        raise ActionRefused(_("A game has 2 to %d seats.") % MAX_SEATS)
    if len(bots) > seats_max - 1:
        raise ActionRefused(_("Computer players can take every seat but yours, no more."))
    for level in bots:
        _check_bot_level(level)
    if pace not in ROUND_SECONDS:
        raise ActionRefused(_("Choose a pace: live or correspondence."))
    round_seconds = round_seconds or DEFAULT_ROUND_SECONDS[Game.Pace(pace)]
    if round_seconds not in ROUND_SECONDS[Game.Pace(pace)]:
        raise ActionRefused(_("That time per round is not offered for this pace."))
    limits.lock_person(user)
    if not challenge:
        waiting = Game.objects.filter(status=Game.Status.OPEN, created_by=user).count()
        limits.ensure_open_games_room(waiting)
    if bots:
        _ensure_bot_games_room(user)
    game = _new_game(
        user,
        _deal(seed),
        diagonal=diagonal,
        ferryman=ferryman,
        mode=Game.Mode.MULTI,
        status=Game.Status.OPEN,
        pace=pace,
        round_seconds=round_seconds,
        seats_max=seats_max,
        listed=listed,
        invite_code=_new_invite_code(),
    )
    game.full_clean()
    game.save()
    seats = [Seat.objects.create(game=game, user=user, position=1)]
    for position, level in enumerate(bots, start=2):
        seats.append(Seat.objects.create(game=game, bot_level=level, position=position))
    if len(seats) == seats_max:
        _start(game, seats)
    elif listed:
        push.lobby_changed()
    return game


def _check_bot_level(level: str) -> None:
    if level not in BotLevel.values:
        raise ActionRefused(_("Choose a level for the computer player: easy, reference or strong."))


@transaction.atomic
def seat_add_bot(*, game: Game, user: User, level: str) -> Seat:
    """Seat a computer player of ``level`` in a game that has not started; the creator's call.

    Taking the last seat starts the game, as a person joining would.
    """
    _check_bot_level(level)
    game, seats = _locked(game.pk)
    _ensure_creator(game, user, _("Only the player who created this game can add computers."))
    _ensure_open(game)
    if not any(seat.is_bot for seat in seats):
        limits.lock_person(user)
        _ensure_bot_games_room(user)
    if len(seats) >= game.seats_max:
        raise ActionRefused(_("This game is full."), status=409)
    taken = {seat.position for seat in seats}
    position = next(p for p in range(1, game.seats_max + 1) if p not in taken)
    seat = Seat.objects.create(game=game, bot_level=level, position=position)
    seats.append(seat)
    if len(seats) == game.seats_max:
        _start(game, sorted(seats, key=lambda s: s.position))
    else:
        _touch(game)
    return seat


@transaction.atomic
def seat_remove_bot(*, game: Game, user: User, seat_id: int) -> Game:
    """Take a computer player out of a game that has not started; the creator's call."""
    game, seats = _locked(game.pk)
    _ensure_creator(game, user, _("Only the player who created this game can remove computers."))
    seat = next((s for s in seats if s.pk == seat_id and s.is_bot), None)
    if seat is None:
        raise ActionRefused(_("No such computer player in this game."), status=404)
    _ensure_open(game)
    seat.delete()
    _touch(game)
    return game


def _new_invite_code() -> str:
    while True:
        code = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))
        if not Game.objects.filter(invite_code=code).exists():
            return code


def _ensure_bot_games_room(user: User) -> None:
    # Under the player's row lock (limits.lock_person).
    with_bots = Game.objects.filter(
        created_by=user,
        status__in=(Game.Status.OPEN, Game.Status.ACTIVE),
        seats__bot_level__gt="",
    ).distinct()
    limits.ensure_computer_games_room(with_bots.count())


def _locked(game_id: int) -> tuple[Game, list[Seat]]:
    # The row lock on the game serialises every change to it: joins, commits, deadlines.
    found = _game_locked(game_id) if is_row_id(game_id) else []
    if not found:
        raise Game.DoesNotExist("Game matching query does not exist.")
    game = found[0]
    seats = _seats_of_game(game_id)
    for seat in seats:
        seat.game = game  # as reading them through game.seats leaves them
    return game, seats


# Every commit takes these two reads: their SQL is compiled once a process, not at each
# commit (the ORM took longer to build it than the database to answer).
_game_locked = RowsById(lambda pk: Game.objects.select_for_update().filter(pk=pk))
_seats_of_game = RowsById(
    lambda pk: Seat.objects.select_related("user").filter(game_id=pk).order_by("position")
)


def _closed_message(game: Game) -> str:
    if game.status == Game.Status.CANCELLED:
        return _("This game was cancelled.")
    if game.status == Game.Status.FINISHED:
        return _("This game is over.")
    return _("This game has already started.")


def _ensure_open(game: Game) -> None:
    if not game.is_open:
        raise ActionRefused(_closed_message(game), status=409)


def _ensure_creator(game: Game, user: User, refusal: str) -> None:
    if game.created_by_id != user.pk:
        raise PermissionDenied(refusal)


def _own_seat(seats: list[Seat], user: User) -> Seat:
    seat = seat_of(seats, user)
    if seat is None:
        raise PermissionDenied(_("You do not play in this game."))
    return seat


@transaction.atomic
def game_join(*, game: Game, user: User, code: str | None = None) -> Game:
    """Take a free seat in a game that has not started; the last seat starts it.

    A game not listed in the lobby needs its invitation ``code``. Joining a game one
    already sits in changes nothing.
    """
    ensure_not_banned(user)
    game, seats = _locked(game.pk)
    if seat_of(seats, user) is not None:
        return game
    if not game.listed and code != game.invite_code:
        raise PermissionDenied(_("This game is by invitation only."))
    _ensure_open(game)
    if len(seats) >= game.seats_max:
        raise ActionRefused(_("This game is full."), status=409)
    taken = {seat.position for seat in seats}
    position = next(p for p in range(1, game.seats_max + 1) if p not in taken)
    seats.append(Seat.objects.create(game=game, user=user, position=position))
    if len(seats) == game.seats_max:
        _start(game, seats)
    else:
        _touch(game)
    return game


@transaction.atomic
def game_rematch(*, game: Game, user: User) -> Game:
    """Play a finished multiplayer game again: the first to ask opens the rematch.

    The rematch has the same rules, pace, time per round, seats and computer players;
    every person who sat in ``game`` is invited, and asking again (anyone of them) takes a
    seat in it without the invitation code. Returns the rematch. Refused to anyone who did
    not play ``game`` (``PermissionDenied``), and once the rematch has started, was
    cancelled or is full (``ActionRefused``, 409).
    """
    ensure_not_banned(user)
    # Under the finished game's lock, two players asking at once open one rematch.
    game, seats = _locked(game.pk)
    if game.mode != Game.Mode.MULTI or not game.is_finished:
        raise ActionRefused(_("Only a finished game with several players has a rematch."))
    _own_seat(seats, user)
    rematch = Game.objects.filter(rematch_of=game).first()
    if rematch is not None:
        if not rematch.is_open and not rematch.seats.filter(user=user).exists():
            raise ActionRefused(_closed_message(rematch), status=409)
        return game_join(game=rematch, user=user, code=rematch.invite_code)
    rematch = game_create_multi(
        user=user,
        seats_max=game.seats_max,
        pace=game.pace,
        round_seconds=game.round_seconds,
        listed=game.listed,
        diagonal=game.diagonal,
        ferryman=game.ferryman,
        bots=[seat.bot_level for seat in seats if seat.is_bot],
    )
    rematch.rematch_of = game
    rematch.save(update_fields=["rematch_of"])
    # The others' final pages redraw with the offer.
    _touch(game)
    return rematch


@transaction.atomic
def game_leave(*, game: Game, user: User) -> Game:
    """Give up one's seat in a game that has not started (its creator cancels instead)."""
    game, seats = _locked(game.pk)
    seat = _own_seat(seats, user)
    _ensure_open(game)
    if game.created_by_id == user.pk:
        raise ActionRefused(_("You created this game: cancel it instead."), status=409)
    seat.delete()
    _touch(game)
    return game


@transaction.atomic
def game_cancel(*, game: Game, user: User) -> Game:
    """Call off a game that has not started; only its creator may."""
    game, _seats = _locked(game.pk)
    _ensure_creator(game, user, _("Only the player who created this game can cancel it."))
    _ensure_open(game)
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    _touch(game, "status", "finished_at")
    return game


@transaction.atomic
def game_start(*, game: Game, user: User) -> Game:
    """Start the game before every seat is taken; needs at least two players."""
    game, seats = _locked(game.pk)
    _ensure_creator(game, user, _("Only the player who created this game can start it."))
    _ensure_open(game)
    if len(seats) < 2:
        raise ActionRefused(_("Wait for at least one other player to join."), status=409)
    _start(game, seats)
    return game


def _start(game: Game, seats: list[Seat]) -> None:
    now = timezone.now()
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.seats_max = len(seats)
    game.deadline = _next_deadline(game, now, players=len(seats))
    _touch(game, "status", "started_at", "seats_max", "deadline")
    _notify_round(game, seats)
    _bots_enqueue(game, seats)


def _bots_enqueue(game: Game, seats: list[Seat]) -> None:
    """Once this round's card is revealed (committed), let the computer players play it."""
    if not any(seat.is_bot and seat.status == Seat.Status.PLAYING for seat in seats):
        return
    game_id, round_number = game.pk, game.round
    # After the commit: the worker must see the round, and a rolled-back round has no card.
    transaction.on_commit(lambda: computer.bots_play_enqueue(game_id, round_number))


def _touch(game: Game, *fields: str) -> None:
    # Every change a waiting page must show moves the version its polls compare.
    game.version += 1
    columns_saver(Game, ("version", "updated_at", *fields))(game)
    poll_state_publish(game)
    push.game_changed(game.pk, version=game.version, deadline=game.deadline)
    if game.listed and (game.status == Game.Status.OPEN or "status" in fields):
        # A game entered, filled or left the lobby's list.
        push.lobby_changed()


def _touch_all(games: QuerySet[Game], now: datetime.datetime, **values: object) -> None:
    """``_touch`` for every game of ``games`` at once: ``values`` written, each one's version
    moved on and its pages told, in one statement whatever the number of games."""
    games.update(**values, version=F("version") + 1, updated_at=now)
    lobby = False
    rows = games.values_list("pk", "version", "deadline", "listed", "status")
    for game_id, version, deadline, listed, status in rows:
        poll_state_set(game_id, version, deadline)
        push.game_changed(game_id, version=version, deadline=deadline)
        lobby |= listed and (status == Game.Status.OPEN or "status" in values)
    if lobby:
        push.lobby_changed()


def _next_deadline(game: Game, now: datetime.datetime, *, players: int) -> datetime.datetime | None:
    # Alone in the game, nobody waits for the player: they may take their time.
    if game.round_seconds is None or players < 2:
        return None
    return now + datetime.timedelta(seconds=game.round_seconds)


def _notify_round(game: Game, seats: list[Seat]) -> None:
    """Tell the players that a round waits for them: in a correspondence game by mail
    (batched, by the task worker: ``floor.mail``) and push, in a live one of several
    players by push (shown only while the game's tab is hidden: ``sw.js``)."""
    users = [seat.user for seat in seats if seat.status == Seat.Status.PLAYING and seat.user]
    if game.pace == Game.Pace.CORRESPONDENCE:
        mail.turn_mail_notify(users)
        event = Event.TURN
    elif len(users) >= 2:
        event = Event.LIVE_TURN
    else:
        return
    url = reverse("games:detail", kwargs={"pk": game.pk})
    for user in users:
        # The mail is the batched one above.
        notify(user=user, event=event, text=_turn_text(game), url=url, mail_too=False)


def _turn_text(game: Game) -> Callable[[], str]:
    return lambda: (
        _("Round %(round)d of game #%(game)d waits for your move.")
        % {
            "round": game.round,
            "game": game.pk,
        }
    )


@dataclass(frozen=True)
class Commit:
    """A round committed (or found committed already), with what the commit worked out.

    ``game`` and ``seats`` as written under the lock, ``state`` the rules game after the
    round, ``seat`` the committing seat, and ``before`` its board before the round
    (``None`` if the game was not in play: a repeat after the end). A page drawn from
    these needs neither the rows again nor a replay of the moves.
    """

    game: Game
    seats: list[Seat]
    seat: Seat
    state: rules.Game
    before: rules.Board | None


def move_submit(*, game_id: int, user: User, round_number: int, turn: rules.Turn) -> Commit:
    """Commit ``user``'s round ``round_number``: all of it, exactly once, or nothing.

    Answers with the whole ``Commit``, so the page that follows needs neither the rows
    again nor a replay (``.game`` is the game as written). Raises ``Game.DoesNotExist``
    for no such game, ``PermissionDenied`` for a game the user does not sit in and
    ``MoveRejected`` for a game not in play, a round that is not current, a player who has
    left or ran out of time (that time-out is committed on its own first), or a move that
    breaks a rule. A repeat of a round already committed with the same move (double click,
    second tab) is accepted and changes nothing.
    """
    commit = _submit(
        game_id=game_id,
        pick_seat=lambda seats: seat_of(seats, user),
        round_number=round_number,
        turn=turn,
        enforce_deadline=True,
    )
    if commit.game.lockstep_id is not None:
        # Its table may have dealt the next card since (``lockstep_advance`` runs once the
        # commit is in): the page that follows shows the game as it is now.
        dealt = commit.game.round
        commit.game.refresh_from_db(fields=["round", "deadline", "version"])
        if commit.game.round != dealt:
            # The rules game knew the cards dealt before (``policy.dealt_cards``): now
            # the next one too, from the seats as written (no query).
            commit = replace(commit, state=rules_game(commit.game, commit.seats))
    return commit


def bot_move_submit(*, game: Game, seat: Seat, round_number: int, turn: rules.Turn) -> Game:
    """Commit a computer player's round: the same path, lock and checks as a person's."""
    if not seat.is_bot:
        raise PermissionDenied(_("Only a computer player's seat plays by itself."))
    return _submit(
        game_id=game.pk,
        pick_seat=lambda seats: next((s for s in seats if s.pk == seat.pk), None),
        round_number=round_number,
        turn=turn,
        # A second task for the round is no double click: it is told the round is played.
        repeat_ok=False,
    ).game


def _submit(
    *,
    game_id: int,
    pick_seat: Callable[[list[Seat]], Seat | None],
    round_number: int,
    turn: rules.Turn,
    repeat_ok: bool = True,
    enforce_deadline: bool = False,
) -> Commit:
    try:
        if enforce_deadline:
            with transaction.atomic():
                game, seats = _locked(game_id)
                # A deadline that has passed is enforced first, and committed alone, so
                # that the time-out stands even though the move is then refused.
                if not _time_out(game, seats, timezone.now()):
                    return _move_submit(game, seats, pick_seat, round_number, turn, repeat_ok)
        with transaction.atomic():
            game, seats = _locked(game_id)
            return _move_submit(game, seats, pick_seat, round_number, turn, repeat_ok)
    except IntegrityError:
        # The row lock already serialises commits; the unique constraint is the last word
        # should two requests for one round ever get past it.
        raise MoveRejected(_("This round has already been played."), status=409) from None


def _played_turn(seat: Seat, round_number: int) -> rules.Turn:
    stored = stored_turns(seat)
    if stored is not None:
        return stored[round_number - 1]
    return move_to_turn(Move.objects.get(seat=seat, round=round_number))


def _move_submit(
    game: Game,
    seats: list[Seat],
    pick_seat: Callable[[list[Seat]], Seat | None],
    round_number: int,
    turn: rules.Turn,
    repeat_ok: bool,
) -> Commit:
    # The game and its seats as read under the game's lock.
    seat = pick_seat(seats)
    if seat is None:
        raise PermissionDenied(_("You do not play in this game."))
    if 1 <= round_number <= seat.rounds_played:
        if repeat_ok and _played_turn(seat, round_number) == turn:
            state = rules_game(game, seats)
            before = state.boards[player_key(seat)] if game.is_active else None
            return Commit(game, seats, seat, state, before)
        raise MoveRejected(_("You have already played round %d.") % round_number, status=409)
    if not game.is_active:
        raise MoveRejected(
            _("This game has not started yet.") if game.is_open else _closed_message(game),
            status=409,
        )
    if seat.status == Seat.Status.TIMED_OUT:
        raise MoveRejected(_("You ran out of time and have left this game."), status=409)
    if seat.status == Seat.Status.RESIGNED:
        raise MoveRejected(_("You have resigned from this game."), status=409)
    if round_number != game.round:
        raise MoveRejected(
            _("Round %(sent)d is not the round in play (round %(current)d).")
            % {"sent": round_number, "current": game.round},
            status=409,
        )
    now = timezone.now()
    if (
        game.deadline is not None
        and game.deadline <= now
        and _seat_deadline(game, seat, now) <= now
    ):
        raise MoveRejected(_("The time for this round has run out."), status=409)
    state = rules_game(game, seats)
    card = state.current_card
    key = player_key(seat)
    before = state.boards[key]
    try:
        state.play(key, turn)
    except rules.RulesError as error:
        raise MoveRejected(str(error)) from None
    assert card is not None
    _move_insert(
        seat=seat,
        round=round_number,
        card=card.number,
        card_row=turn.placement.card_at[0],
        card_col=turn.placement.card_at[1],
        rotation=turn.placement.rotation,
        **_worker_fields(turn.worker),
    )
    seat.rounds_played += 1
    # Written from the rules game, which holds every round of the seat: a copy that was
    # missing or out of step is whole again from here on.
    seat.turns = [rules.turn_to_json(played[key]) for played in state.turns if key in played]
    if state.is_over:
        # The last round: the seats are written once, with their results (``_finish``).
        _settle(game, state, seats, now, seat_fields=("rounds_played", "turns"))
    else:
        _seat_turns_save(seat)
        _settle(game, state, seats, now)
    return Commit(game, seats, seat, state, before)


# A commit's three writes, the move and the changed columns of its seat and game: their SQL
# is made once a process, not at each commit (``floor.internals``).
_move_insert = Inserter(Move)
_seat_turns_save = ColumnsSaver(Seat, ("rounds_played", "turns"))


def _settle(
    game: Game,
    state: rules.Game,
    seats: list[Seat],
    now: datetime.datetime,
    *,
    seat_fields: Sequence[str] = (),
) -> None:
    """Write what a change to the rules game means: a new round, or the end.

    ``seat_fields``: columns of the seats changed but not yet saved, for a change that
    ends the game: they are written with the results, in one statement.
    """
    fields = ["round"]
    # A live table's game waits at its round for the table's clock (``lockstep_advance``).
    held = game.lockstep_id is not None and not state.is_over
    advanced = state.round != game.round and not held
    if not held:
        game.round = min(state.round, rules.ROUNDS + 1)
    if state.is_over:
        _finish(game, state, seats, seat_fields)
        game.deadline = None
        fields += ["status", "finished_at", "deadline"]
    elif not held:
        players = len(state.active_players)
        if advanced:
            game.deadline = _next_deadline(game, now, players=players)
        elif players < 2:
            game.deadline = None
        fields.append("deadline")
    # Only the columns a commit owns: an admin save elsewhere must not be overwritten.
    _touch(game, *fields)
    if game.lockstep_id is not None and _advancing.get() != game.lockstep_id:
        # Perhaps the table's last player of the round: see once this commits.
        lockstep_id = game.lockstep_id
        transaction.on_commit(lambda: lockstep_advance(lockstep_id=lockstep_id), robust=True)
    if advanced and not state.is_over:
        _notify_round(game, seats)
        _bots_enqueue(game, seats)


@transaction.atomic
def seat_resign(*, game: Game, user: User, status: str = Seat.Status.RESIGNED) -> Game:
    """Leave a game in play for good: the player ranks last and the others go on.

    A solo game (the daily challenge too) ends at once, scored as the landscape stands.
    Resigning twice changes nothing.
    """
    game, seats = _locked(game.pk)
    seat = _own_seat(seats, user)
    if seat.status != Seat.Status.PLAYING:
        return game
    if not game.is_active:
        raise ActionRefused(
            _("This game has not started: leave it instead.")
            if game.is_open
            else _closed_message(game),
            status=409,
        )
    _retire(game, seats, [seat], status, timezone.now())
    return game


def _retire(
    game: Game, seats: list[Seat], leaving: list[Seat], status: str, now: datetime.datetime
) -> None:
    state = rules_game(game, seats)
    leaving = [*leaving, *_bots_left_alone(seats, leaving)]
    for seat in leaving:
        if state.is_over:
            # The last person left in round 16 after the computers had played it: the
            # game is over with the computers' 16 rounds, and they did not leave it.
            break
        state.retire(player_key(seat))
        seat.status = Seat.Status.RESIGNED if seat.is_bot else status
        seat.left_at = now
    if state.is_over:
        _settle(game, state, seats, now, seat_fields=("status", "left_at"))
    else:
        Seat.objects.bulk_update(leaving, ["status", "left_at"])
        _settle(game, state, seats, now)


def _bots_left_alone(seats: list[Seat], leaving: list[Seat]) -> list[Seat]:
    # Computers do not play on for nobody: when the last person leaves, they stop too.
    staying = [s for s in seats if s.status == Seat.Status.PLAYING and s not in leaving]
    if any(not seat.is_bot for seat in staying):
        return []
    return staying


def user_resign_everywhere(*, user: User, status: str = Seat.Status.RESIGNED) -> int:
    """Take the user out of every game in play or waiting for players; returns how many.

    Each game is its own transaction, so one game's failure cannot undo the others.
    """
    count = 0
    seats = Seat.objects.filter(user=user, status=Seat.Status.PLAYING).select_related("game")
    for seat in list(seats.filter(game__status__in=[Game.Status.ACTIVE, Game.Status.OPEN])):
        game = seat.game
        try:
            if game.is_active:
                seat_resign(game=game, user=user, status=status)
            elif game.created_by_id == user.pk:
                game_cancel(game=game, user=user)
            else:
                game_leave(game=game, user=user)
        except ActionRefused:
            continue  # the game moved on meanwhile (started, ended): nothing to leave
        count += 1
    return count


def user_leave_games_on_delete(*, user: User, **kwargs: object) -> None:
    """Receiver of ``accounts.signals.user_deleting``: a deleted account plays no more.

    Runs inside the deletion's transaction: its solo games end, its games in play go on
    without it, the games it opened are cancelled and it leaves those it joined. Its data
    exports go: they hold its e-mail address.
    """
    user_resign_everywhere(user=user)
    DataExport.objects.filter(user=user).delete()


def games_touch_on_vacation(*, user: User, **kwargs: object) -> None:
    """Receiver of ``accounts.signals.vacation_changed``: the player's correspondence games
    in play move their version on, so that open pages redraw their vacation notice and
    clock without a reload (the deadlines themselves are read with the vacations)."""
    games = Game.objects.filter(
        status=Game.Status.ACTIVE,
        pace=Game.Pace.CORRESPONDENCE,
        lockstep__isnull=True,
        seats__user=user,
        seats__status=Seat.Status.PLAYING,
    )
    _touch_all(Game.objects.filter(pk__in=games.values("pk")), timezone.now())


def deadlines_enforce(*, game: Game, now: datetime.datetime | None = None) -> bool:
    """Time out the players the game still waits for if its round's deadline has passed.

    Returns whether anyone was timed out. Safe to call at any time and concurrently
    with commits: it re-reads the deadline under the game's lock.
    """
    now = now or timezone.now()
    if game.deadline is None or game.deadline > now or not game.is_active:
        return False
    if game.lockstep_id is not None:
        # A live table's clock is the table's: everyone late leaves at once.
        return lockstep_advance(lockstep_id=game.lockstep_id, now=now)
    with transaction.atomic():
        game, seats = _locked(game.pk)
        return _time_out(game, seats, now)


def _time_out(game: Game, seats: list[Seat], now: datetime.datetime) -> bool:
    # Under the game's lock: the players a passed deadline leaves late leave the game.
    if not game.is_active or game.deadline is None or game.deadline > now:
        return False
    state = rules_game(game, seats)
    waiting = set(state.waiting_for())
    # (A live table's player who has played the round is in no one's way: the rules game
    # already waits for their next card, which the table has not dealt.)
    late = [
        s
        for s in seats
        if s.status == Seat.Status.PLAYING
        and player_key(s) in waiting
        and s.rounds_played < game.round
        and _seat_deadline(game, s, now) <= now
    ]
    if not late:
        return False
    _retire(game, seats, late, Seat.Status.TIMED_OUT, now)
    return True


def _seat_deadline(game: Game, seat: Seat, now: datetime.datetime) -> datetime.datetime:
    """When the round in play ends for this seat: the game's deadline, plus, in a
    correspondence game, the time its player's vacations stopped their clock this round.

    The round began ``round_seconds`` before the game's deadline; every moment of a vacation
    since then (up to ``now``) is added. A player on vacation now is never late; one whose
    vacation began after their time ran out still is. Live tables and tournament deals never
    wait.
    """
    assert game.deadline is not None
    if (
        seat.user_id is None
        or game.pace != Game.Pace.CORRESPONDENCE
        or game.round_seconds is None
        or game.lockstep_id is not None
        or game.sealed_until is not None
    ):
        return game.deadline
    began = game.deadline - datetime.timedelta(seconds=game.round_seconds)
    return game.deadline + vacation_paused(seat.user_id, began, now)


def expire_deadlines(*, now: datetime.datetime | None = None) -> int:
    """Enforce every passed deadline; returns how many games timed someone out."""
    now = now or timezone.now()
    due = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now)
    # A live table's games share one clock: the table moves on once, not once per game.
    tables = sorted(set(due.exclude(lockstep=None).values_list("lockstep_id", flat=True)))
    moved = clocks.each_due(
        tables, lambda table_id: lockstep_advance(lockstep_id=table_id, now=now)
    )
    alone = due.filter(lockstep=None)
    return moved + clocks.each_due(alone, lambda game: deadlines_enforce(game=game, now=now))


def _worker_fields(worker: rules.WorkerAction) -> dict[str, object]:
    if isinstance(worker, rules.PlaceWorker):
        return {"worker": Move.Worker.PLACE, "worker_to": list(worker.zone)}
    if isinstance(worker, rules.MoveWorker):
        return {
            "worker": Move.Worker.MOVE,
            "worker_from": list(worker.source),
            "worker_to": list(worker.target),
        }
    return {"worker": Move.Worker.NONE}


def _finish(
    game: Game, state: rules.Game, seats: list[Seat], seat_fields: Sequence[str] = ()
) -> None:
    now = timezone.now()
    game.status = Game.Status.FINISHED
    game.finished_at = now
    standings = {s.player: s for s in state.outcome().standings}
    for seat in seats:
        standing = standings[player_key(seat)]
        seat.score = standing.score.total
        seat.tiebreak = list(standing.score.tiebreak)
        seat.place = standing.place
        seat.shared_place = standing.shared
    Seat.objects.bulk_update(seats, ["score", "tiebreak", "place", "shared_place", *seat_fields])
    if game.mode == Game.Mode.SOLO:
        seat = seats[0]
        assert seat.score is not None and seat.user is not None
        SoloResult.objects.create(
            game=game,
            user=seat.user,
            ruleset=game.ruleset,
            score=seat.score,
            rating=rules.solo_rating(seat.score).value,
            finished_at=now,
            daily=game.daily,
            abandoned=seat.status != Seat.Status.PLAYING,
        )
    game_finished.send(sender=Game, game=game, seats=seats, state=state)
    _analysis_enqueue(game)


def _analysis_enqueue(game: Game) -> None:
    # The row exists from the finish on, so the final page can say the analysis is coming.
    # A game finishes once (under its row lock), so there is no row yet to find.
    GameAnalysis.objects.create(game=game)
    game_id = game.pk
    transaction.on_commit(lambda: computer.game_analyse_enqueue(game_id))


# -- live tables: solo games dealt together --------------------------------------------------

# The live table whose late players ``lockstep_advance`` is timing out, in this context.
_advancing: contextvars.ContextVar[int | None] = contextvars.ContextVar("advancing", default=None)


@transaction.atomic
def lockstep_create(
    *,
    users: Sequence[User],
    seed: int,
    diagonal: bool,
    ferryman: bool,
    round_seconds: int,
    first_round_grace: int = 0,
    sealed_until: datetime.datetime | None = None,
    back_url: str = "",
) -> tuple[Lockstep, list[Game]]:
    """A live table of one deal: a game for each of ``users``, the first card dealt.

    The first round's clock runs ``first_round_grace`` seconds longer, for the players to
    come to the table. Written in a few statements whatever the number of players.
    """
    now = timezone.now()
    dealt = _deal(seed)
    deadline = now + datetime.timedelta(seconds=first_round_grace + round_seconds)
    table = Lockstep.objects.create(
        round=1, round_seconds=round_seconds, deadline=deadline, back_url=back_url
    )
    games = Game.objects.bulk_create(
        _new_game(
            user,
            dealt,
            diagonal=diagonal,
            ferryman=ferryman,
            pace=Game.Pace.LIVE,
            round_seconds=round_seconds,
            deadline=deadline,
            sealed_until=sealed_until,
            started_at=now,
            lockstep=table,
        )
        for user in users
    )
    Seat.objects.bulk_create(
        Seat(game=game, user=user, position=1) for game, user in zip(games, users, strict=True)
    )
    for game in games:
        poll_state_publish(game)
    _lockstep_tick_at(table)
    return table, games


@transaction.atomic
def lockstep_advance(*, lockstep_id: int, now: datetime.datetime | None = None) -> bool:
    """Move a live table on if it can: its late players out, then the next card dealt.

    Once the round's clock has run out, whoever is still to play leaves their game, timed
    out (it ends, scored as it stands). When nobody is still to play, the next round is
    dealt to every game in play, with a fresh clock; when no game is in play any more,
    the table is finished and ``games.signals.lockstep_finished`` sent. Called after every
    commit at the table, by the clock's task and by the pages; safe to call at any time.
    Returns whether anything changed.
    """
    now = now or timezone.now()
    # The table's lock serialises its dealing; a commit never waits for it (it calls this
    # once it has committed), so no lock is ever taken in the other order.
    table = Lockstep.objects.select_for_update().filter(pk=lockstep_id).first()
    if table is None or table.finished_at is not None:
        return False
    changed = False
    if table.deadline is not None and table.deadline <= now:
        late = Game.objects.filter(
            lockstep=table,
            status=Game.Status.ACTIVE,
            seats__status=Seat.Status.PLAYING,
            seats__rounds_played__lt=table.round,
        )
        # (Each time-out would ask for this again after the commit: this call sees to it.)
        token = _advancing.set(table.pk)
        try:
            for game_id in sorted(late.values_list("pk", flat=True)):
                game, seats = _locked(game_id)
                changed |= _time_out(game, seats, now)
        finally:
            _advancing.reset(token)
    # Run after every commit at the table: a count, and nothing read per game.
    waiting, players = lockstep_counts(table)
    if players == 0:
        table.finished_at = now
        table.deadline = None
        table.save(update_fields=["finished_at", "deadline"])
        lockstep_finished.send(sender=Lockstep, lockstep=table)
        return True
    if waiting == 0 and table.round < rules.ROUNDS:
        _lockstep_deal(table, now)
        changed = True
        waiting = players
    push.table_waiting(table.pk, waiting)
    return changed


def _lockstep_deal(table: Lockstep, now: datetime.datetime) -> None:
    table.round += 1
    table.deadline = now + datetime.timedelta(seconds=table.round_seconds)
    table.save(update_fields=["round", "deadline"])
    # Every game in play: the round, its clock, in one statement whatever the number.
    in_play = Game.objects.filter(lockstep=table, status=Game.Status.ACTIVE)
    _touch_all(in_play, now, round=table.round, deadline=table.deadline)
    _lockstep_tick_at(table)


def _lockstep_tick_at(table: Lockstep) -> None:
    # The clock: a task when the round runs out, where the task backend can wait (the
    # database's); elsewhere the pages' own requests and ``expire_deadlines`` move it on.
    if table.deadline is None or not lockstep_tick.get_backend().supports_defer:
        return
    lockstep_id, when = table.pk, table.deadline
    transaction.on_commit(
        lambda: lockstep_tick.using(run_after=when, priority=computer.BOTS_PRIORITY).enqueue(
            lockstep_id
        )
    )


# -- changes other apps make to games (moderation, tournaments) -----------------------------


@transaction.atomic
def game_hidden_set(*, game_id: int, hidden: bool, reason: str = "") -> Game:
    """Take a game (and its solo result) off the boards, or put it back; nothing is deleted.

    ``reason`` is kept while it is hidden. Raises ``ActionRefused`` (409) if the game is
    already as asked. Returns the game as written.
    """
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.hidden == hidden:
        message = _("This game is already hidden.") if hidden else _("This game is not hidden.")
        raise ActionRefused(message, code="unchanged", status=409)
    game.hidden, game.hidden_reason = hidden, reason if hidden else ""
    _touch(game, "hidden", "hidden_reason")
    SoloResult.objects.filter(game=game).update(hidden=hidden, hidden_reason=game.hidden_reason)
    return game


@transaction.atomic
def games_hide(*, game_ids: Sequence[int], reason: str) -> None:
    """Take these games (and their solo results) off the boards, with ``reason``."""
    _touch_all(
        Game.objects.filter(pk__in=game_ids), timezone.now(), hidden=True, hidden_reason=reason
    )
    SoloResult.objects.filter(game_id__in=game_ids).update(hidden=True, hidden_reason=reason)


@transaction.atomic
def games_unseal(*, game_ids: Iterable[int], at: datetime.datetime) -> None:
    """End the seal on these games' results at ``at`` (a competition over early).

    ``game_ids`` may be a query (``values_list("game_id", flat=True)``): one statement.
    """
    _touch_all(Game.objects.filter(pk__in=game_ids), timezone.now(), sealed_until=at)


# -- hints ---------------------------------------------------------------------------------


def ensure_hint_allowed(*, game: Game, seats: list[Seat], user: User) -> None:
    """Raise ``PermissionDenied`` or ``ActionRefused`` if ``user`` may not take a hint in
    ``game`` now (``policy.hint_refusal``)."""
    refusal = hint_refusal(game, seats, seat_of(seats, user))
    if refusal is None:
        return
    message, status = refusal
    if status == 403:
        raise PermissionDenied(message)
    raise ActionRefused(message, status=status)


@transaction.atomic
def game_mark_assisted(*, game_id: int, user: User, round_number: int) -> None:
    """Mark the game assisted for good: ``user`` took a hint for round ``round_number``
    (``games.computer.hint_take``), which keeps the game off every board.

    Raises ``PermissionDenied`` or ``ActionRefused`` (nothing changed) if a hint may no
    longer be given, or if the round moved on meanwhile (409).
    """
    game, seats = _locked(game_id)
    ensure_hint_allowed(game=game, seats=seats, user=user)
    if game.round != round_number:
        raise ActionRefused(_("The round moved on meanwhile: ask again."), status=409)
    if not game.assisted:
        game.assisted = True
        _touch(game, "assisted")


# -- the daily challenge: its cards, its par's row (``games.computer`` works the par out) ----


def daily_cards(day: datetime.date) -> list[rules.Card]:
    """The day's 16 cards, dealt as every attempt of the day deals them (server-side only)."""
    _seed, the_deck, numbers = _deal(daily_seed(day))
    return [the_deck.card(number) for number in numbers]


def daily_par_request(*, day: datetime.date, ruleset: str = Ruleset.STANDARD) -> DailyPar:
    """The day's par row; the request that creates it queues its computation, once."""
    par, created = DailyPar.objects.get_or_create(day=day, ruleset=ruleset)
    if created:
        iso = day.isoformat()
        transaction.on_commit(lambda: computer.daily_par_task.enqueue(iso, ruleset))
    return par


# Data exports ("Download my data")

#: Below the computers' turns and the analyses: a download can wait a little.
DATA_EXPORT_PRIORITY = -20


@transaction.atomic
def data_export_request(*, user: User) -> DataExport:
    """Ask the task worker for ``user``'s zip; its page shows it being prepared, then ready.

    Raises ``ActionRefused``: 409 while one is being prepared, 429 within
    ``export.INTERVAL`` of the last one ready. A new one replaces the older ones.
    """
    # The player's row lock: two asks at once make one export, the other is refused.
    User.objects.select_for_update().filter(pk=user.pk).first()
    now = timezone.now()
    theirs = DataExport.objects.filter(user=user)
    theirs.filter(status=DataExport.Status.PENDING, requested_at__lte=now - export.STALE).update(
        status=DataExport.Status.FAILED, finished_at=now
    )
    if theirs.filter(status=DataExport.Status.PENDING).exists():
        raise ActionRefused(_("Your data is already being prepared."), status=409)
    last = theirs.filter(status=DataExport.Status.READY).order_by("-requested_at").first()
    if last is not None and last.requested_at > now - export.INTERVAL:
        again = formats.date_format(last.requested_at + export.INTERVAL, "H:i")
        raise ActionRefused(
            _("You can ask for your data once an hour: again from %(time)s UTC.") % {"time": again},
            status=429,
        )
    theirs.delete()
    made = DataExport(
        user=user,
        requested_at=now,
        games_total=Game.objects.filter(seats__user=user).count(),
    )
    made.full_clean(exclude=["user"], validate_constraints=False)
    made.save()
    export_id = made.pk
    transaction.on_commit(
        lambda: data_export_task.using(priority=DATA_EXPORT_PRIORITY).enqueue(export_id)
    )
    return made


def data_export_build(*, export_id: int) -> str:
    """Write the zip of an export asked for (the task); safe to run twice. Also forgets the
    zips past ``export.KEEP``, everyone's."""
    made = DataExport.objects.select_related("user").filter(pk=export_id).first()
    if made is None or made.status != DataExport.Status.PENDING:
        return "nothing to do"
    pending = DataExport.objects.filter(pk=export_id, status=DataExport.Status.PENDING)

    def progress(done: int) -> None:
        pending.update(games_done=done)

    data = export.build_archive(made.user, progress=progress)
    now = timezone.now()
    pending.update(
        status=DataExport.Status.READY,
        archive=data,
        finished_at=now,
        games_done=F("games_total"),
    )
    DataExport.objects.filter(finished_at__lte=now - export.KEEP).delete()
    return "ready"


# -- tasks: the work above that the task worker runs (``floor.taskqueue``) ------------------


@task(queue_name=COMPUTERS)
def lockstep_tick(lockstep_id: int) -> bool:
    """A live table's round clock ran out: move it on (``lockstep_advance``)."""
    return lockstep_advance(lockstep_id=lockstep_id)


@task()
def data_export_task(export_id: int) -> str:
    """A player's "Download my data" zip (``data_export_build``)."""
    return data_export_build(export_id=export_id)
