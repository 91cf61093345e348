"""Reads: games as the rules package sees them, and lists for pages."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import Count, F, Max, Prefetch, Q, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from accounts.models import User
from games.models import DailyPar, Game, Move, Ruleset, Seat, SoloResult


def deck() -> rules.Deck:
    """The deck in use: ``settings.LIMES_DECK`` or the standard one."""
    return rules.load_deck(settings.LIMES_DECK)


def move_to_turn(move: Move) -> rules.Turn:
    """A stored round as a rules ``Turn``."""
    worker: rules.WorkerAction = None
    if move.worker == Move.Worker.PLACE:
        worker = rules.PlaceWorker(_zone(move.worker_to))
    elif move.worker == Move.Worker.MOVE:
        worker = rules.MoveWorker(_zone(move.worker_from), _zone(move.worker_to))
    return rules.Turn(rules.Placement((move.card_row, move.card_col), move.rotation), worker)


def _zone(stored: list[int] | None) -> rules.Point:
    # A JSON [row, col]; the worker kind says which of the two columns are set.
    assert stored is not None
    row, col = stored
    return (row, col)


def player_key(seat: Seat) -> str:
    """The seat's name inside the rules game and in records."""
    return seat.player_key


def game_moves(game: Game, *, before_round: int | None = None) -> list[Move]:
    """The game's stored rounds (those before ``before_round`` if given), in replay order."""
    moves = Move.objects.filter(seat__game=game)
    if before_round is not None:
        moves = moves.filter(round__lt=before_round)
    # Within a round, in the order they were committed: a player who left mid-round must
    # leave the rebuilt game at the same point as they left the real one.
    return list(moves.order_by("round", "id"))


def unseen_cards(state: rules.Game) -> list[rules.Card]:
    """The deck's cards not yet revealed in ``state``: what a fair player may know of them."""
    revealed = set(state.revealed)
    return [card for card in state.deck if card.number not in revealed]


def rules_game(
    game: Game,
    seats: list[Seat] | None = None,
    moves: list[Move] | None = None,
    *,
    before_round: int | None = None,
) -> rules.Game:
    """The game as the rules package sees it; ``seats`` and ``moves`` save their queries.

    Without ``moves``, it is rebuilt from the seats' stored turns (``Seat.turns``), with
    no query and no rule checked; a seat whose copy is missing or out of step with its
    rounds makes it read and replay the moves instead. Given ``moves`` (some rounds
    only, say), it replays those. ``before_round``: the game as it stood once the rounds
    before that one were played (as replaying ``game_moves(game, before_round=…)``).
    """
    if seats is None:
        seats = list(game.seats.select_related("user"))
    if moves is None:
        state = _from_stored_turns(game, seats, before_round)
        if state is not None:
            return state
        moves = game_moves(game, before_round=before_round)
    elif before_round is not None:
        moves = [move for move in moves if move.round < before_round]
    by_seat = {seat.pk: player_key(seat) for seat in seats}
    state = rules.Game(
        [by_seat[s.pk] for s in seats],
        game.cards,
        variants=_variants(game),
        deck=deck(),
    )
    # A player who left (resigned, timed out) leaves the rebuilt game right after their
    # last round, so the rounds after it no longer wait for them.
    left = {s.pk: s.rounds_played for s in seats if s.status != Seat.Status.PLAYING}
    for seat_pk, rounds in left.items():
        if rounds == 0:
            state.retire(by_seat[seat_pk])
    for move in moves:
        state.play(by_seat[move.seat_id], move_to_turn(move))
        if left.get(move.seat_id) == move.round:
            state.retire(by_seat[move.seat_id])
    return state


def _variants(game: Game) -> rules.Variants:
    return rules.Variants(diagonal=game.diagonal, ferryman=game.ferryman)


def stored_turns(seat: Seat) -> list[rules.Turn] | None:
    """The seat's rounds from its stored copy, or ``None`` if the copy cannot be trusted."""
    stored = seat.turns
    if not isinstance(stored, list) or len(stored) != seat.rounds_played:
        return None
    return [rules.turn_from_json(turn) for turn in stored]


def _from_stored_turns(
    game: Game, seats: list[Seat], before_round: int | None
) -> rules.Game | None:
    rounds = rules.ROUNDS if before_round is None else max(0, before_round - 1)
    turns = {}
    for seat in seats:
        own = stored_turns(seat)
        if own is None:
            return None
        turns[player_key(seat)] = own[:rounds]
    # A player who left did so after their last round: in the game as it stood after
    # ``rounds``, only if that last round is among them.
    left = [s for s in seats if s.status != Seat.Status.PLAYING and s.rounds_played <= rounds]
    return rules.Game.from_turns(
        [player_key(seat) for seat in seats],
        game.cards,
        turns,
        retired=[player_key(seat) for seat in left],
        variants=_variants(game),
        deck=deck(),
    )


def revealed_cards(game: Game) -> list[int]:
    """The card numbers of the game that have been revealed to its players so far.

    All those of the rounds reached while it runs (the round in play included), those
    of the rounds played once it is over, none before it starts or if it was cancelled.
    """
    if game.status == Game.Status.ACTIVE:
        return list(game.cards[: game.round])
    if game.status == Game.Status.FINISHED:
        played = Move.objects.filter(seat__game=game).aggregate(last=Max("round"))["last"]
        return list(game.cards[: played or 0])
    return []


def games_with_seats() -> QuerySet[Game]:
    """Games with their seats and the seats' players loaded (one query each)."""
    return Game.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def game_with_seats(pk: int) -> Game | None:
    """The game ``pk`` as ``games_with_seats`` loads it, in one query instead of two.

    Its seats are read with the game and their players joined on; a game without seats
    (none has any, but the page must not fail on one) is read on its own.
    """
    seats = _seats_with_game_and_players(pk)
    if not seats:
        return games_with_seats().filter(pk=pk).first()
    game = seats[0].game
    for seat in seats:
        # One game object for all, as a prefetch leaves it.
        seat.game = game
    return with_seats(game, seats)


def _seat_rows() -> QuerySet[Seat]:
    return Seat.objects.select_related("game", "user").order_by("position")


def _seats_with_game_and_players(game_id: int) -> list[Seat]:
    """What ``list(_seat_rows().filter(game_id=game_id))`` gives, from SQL compiled once."""
    plan = _seat_rows_plan()
    with connection.cursor() as cursor:
        cursor.execute(plan.sql, id_filled(plan.params, game_id))
        rows = cursor.fetchall()
    if plan.converters:
        rows = list(plan.compiler.apply_converters(rows, plan.converters))
    seats = []
    for row in rows:
        # As the ORM's ModelIterable builds each row's objects.
        seat = Seat.from_db(plan.db, plan.init_list, row[plan.start : plan.end])
        for populator in plan.populators:
            populator.populate(row, seat)
        seats.append(seat)
    return seats


@dataclass(frozen=True)
class _RowsPlan:
    sql: str
    params: list[Any]
    db: str
    compiler: SQLCompiler
    converters: dict[int, Any]
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]


#: A stand-in id for SQL compiled once (``id_slotted``); no row has a negative id.
STAND_IN_ID = -271828
_ID_SLOT = object()  # where the id goes among the parameters of SQL compiled once


def id_slotted(sql_params: tuple[str, Sequence[Any]]) -> tuple[str, list[Any]]:
    """SQL compiled once for ``STAND_IN_ID``, its parameters with a slot for the id that
    ``id_filled`` fills at each use. The stand-in must be the only number among them."""
    sql, params = sql_params
    assert [p for p in params if not isinstance(p, str)] == [STAND_IN_ID], params
    return sql, [_ID_SLOT if p == STAND_IN_ID else p for p in params]


def id_filled(params: Sequence[Any], pk: int) -> list[Any]:
    """The parameters of SQL from ``id_slotted`` with ``pk`` in the id's slot."""
    return [pk if p is _ID_SLOT else p for p in params]


@cache
def _seat_rows_plan() -> _RowsPlan:
    # Every look at a game reads its seats, game and players (some sixty columns over
    # three tables): the ORM took longer to compile that query than the database to run
    # it. Compiled once per process for a stand-in id, the way Django's ModelIterable
    # then reads the rows.
    queryset = _seat_rows().filter(game_id=STAND_IN_ID)
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = id_slotted(compiler.as_sql())
    klass_info = compiler.klass_info
    assert klass_info is not None
    select = compiler.select
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    return _RowsPlan(
        sql=sql,
        params=params,
        db=queryset.db,
        compiler=compiler,
        converters=compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
        init_list=[s[0].target.attname for s in select[start:end]],
        start=start,
        end=end,
        # Django 5.2's signature; the stubs already have 6.0's (with fetch_mode).
        populators=get_related_populators(klass_info, select, queryset.db),  # type: ignore[call-arg]
    )


def with_seats(game: Game, seats: list[Seat]) -> Game:
    """``game`` with ``seats`` (users loaded) as its seats, as ``games_with_seats`` loads it.

    For a game a service has just read under its lock: ``game.seats.all()`` then costs
    no query.
    """
    # Filled as prefetch_related fills it: Django has no public way to hand it rows.
    loaded = game.seats.all()
    loaded._result_cache = list(seats)
    loaded._prefetch_done = True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {"seats": loaded}  # type: ignore[attr-defined]
    return game


def game_by_invite_code(code: str) -> Game | None:
    """The game an invitation code opens, in any letter case."""
    return Game.objects.filter(invite_code=code.upper()).first()


def seat_of(seats: Iterable[Seat], user: User | AnonymousUser) -> Seat | None:
    """The user's seat among ``seats``, if any."""
    if not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def seat_for(game: Game, user: User | AnonymousUser) -> Seat | None:
    """The user's seat in the game, if any (from the prefetched seats when there are)."""
    return seat_of(game.seats.all(), user)


def games_of(user: User) -> QuerySet[Game]:
    """The user's games, newest first, with seats and players loaded."""
    return (
        Game.objects.filter(seats__user=user)
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )


def can_watch(game: Game, user: User | AnonymousUser, seat: Seat | None) -> bool:
    """Whether ``user`` may see the game's page (players always may).

    A game in play or waiting for players is public only if it is listed in the lobby,
    and then only to signed-in players; a finished one is public unless a moderator hid
    it, except that a daily challenge of a day still running is shown only to those who
    have finished their own attempt of that day, and that nobody sees another game of a
    day while their own attempt of it is unfinished, whatever the day.
    """
    if seat is not None:
        return True
    if game.status in (Game.Status.OPEN, Game.Status.ACTIVE):
        return game.listed and user.is_authenticated
    if game.status == Game.Status.CANCELLED:
        return False
    if game.hidden and not user.is_staff:
        return False
    if game.daily is not None:
        own = daily_attempt_status(user, game.daily)
        # An attempt started before midnight may be played after it, when that day's
        # other games turn public: until it ends, its player sees none of them.
        if own is not None and own != Game.Status.FINISHED:
            return False
        if game.daily >= timezone.now().date():
            return own == Game.Status.FINISHED
    return True


def daily_attempt_status(user: User | AnonymousUser, day: datetime.date) -> str | None:
    """The status of ``user``'s attempt at ``day``'s challenge, or None if they made none."""
    if not user.is_authenticated:
        return None
    return Game.objects.filter(daily=day, created_by=user).values_list("status", flat=True).first()


# Open games a lobby page lists; a page's poll redraws only its own.
LOBBY_PAGE_SIZE = 30


def lobby_games() -> QuerySet[Game]:
    """Games waiting for players that anyone may join, oldest first, with their seats."""
    return (
        Game.objects.filter(status=Game.Status.OPEN, listed=True)
        .select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("created_at")
    )


def games_to_watch(limit: int = 20) -> QuerySet[Game]:
    """Lobby games in play, most recently active first, for spectators."""
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, listed=True, mode=Game.Mode.MULTI)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-updated_at")[:limit]
    )


def lobby_signature() -> str:
    """Changes whenever a game enters or leaves the lobby, or someone joins or leaves one."""
    values = Game.objects.filter(status=Game.Status.OPEN, listed=True).aggregate(
        count=Count("id"), latest=Max("updated_at")
    )
    latest = values["latest"].timestamp() if values["latest"] else 0
    return f"{values['count']}-{latest:.6f}"


@dataclass(frozen=True)
class MyGame:
    """A running game of the player, and whether it waits for their move."""

    game: Game
    seat: Seat
    your_move: bool


def _waits_for_move() -> Q:
    # One definition for the menu's badge and the "your move" marks of My games: a
    # multiplayer round the player has not played yet (a solo game waits for nobody).
    return Q(
        status=Seat.Status.PLAYING,
        game__status=Game.Status.ACTIVE,
        game__mode=Game.Mode.MULTI,
        rounds_played__lt=F("game__round"),
    )


def my_games(user: User) -> list[MyGame]:
    """The user's games in play or waiting for players; those waiting for them first."""
    seats = (
        Seat.objects.filter(
            user=user,
            status=Seat.Status.PLAYING,
            game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
        )
        .annotate(waiting=Count("id", filter=_waits_for_move()))
        .select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
    )
    result = [MyGame(s.game, s, bool(s.waiting)) for s in seats]
    return sorted(result, key=lambda g: (not g.your_move, -g.game.updated_at.timestamp()))


def my_finished_games(user: User) -> QuerySet[Seat]:
    """The user's seats in finished games, the latest first, with the game and players."""
    return (
        Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)
        .select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
        .order_by("-game__finished_at", "-game_id")
    )


def seats_waiting(user: User) -> QuerySet[Seat]:
    """The user's seats in multiplayer games that wait for their move (the menu's badge)."""
    return Seat.objects.filter(_waits_for_move(), user=user)


@dataclass(frozen=True)
class SoloStandingView:
    """A finished solo result against the player's other results and everyone's bests."""

    score: int
    best: int
    is_new_best: bool
    rank: int | None  # the place this score takes on the all-time board; None if hidden


def solo_standing(game: Game, user: User) -> SoloStandingView | None:
    """The player's best in the game's rules and the board rank of this game's score.

    The rank counts the players whose best shown result beats this score, as the
    all-time board orders them: hidden results and hidden players do not count.
    """
    if Game.solo_result.is_cached(game):
        # The game's own copy: the commit that finished the game has just written it.
        result = getattr(game, "solo_result", None)
        if result is not None and result.user_id != user.pk:
            result = None
    else:
        result = SoloResult.objects.filter(game=game, user=user).first()
    if result is None:
        return None
    shown = SoloResult.objects.filter(ruleset=result.ruleset, hidden=False, game__hidden=False)
    # One query for both figures: the player's other results and the better ones of others.
    mine = Q(user=user)
    others_better = Q(score__gt=result.score, user__deleted_at__isnull=True) & ~(
        mine | Q(user__banned_until__gt=timezone.now())
    )
    found = shown.filter(mine | others_better).aggregate(
        previous=Max("score", filter=mine & ~Q(pk=result.pk)),
        better=Count("user", distinct=True, filter=others_better),
    )
    previous = found["previous"]
    counts = not result.hidden and not game.hidden
    best = max(result.score, previous or 0) if counts else (previous or 0)
    rank = found["better"] + 1 if counts else None
    is_new_best = counts and (previous is None or result.score > previous)
    return SoloStandingView(result.score, best, is_new_best, rank)


def showcase_game() -> Game | None:
    """A finished solo game anyone may watch, to show a newcomer what Limes looks like.

    The best full game (not abandoned, not a daily challenge, nothing hidden), so the
    landscape on the front page is a good one; the earliest of equal scores, so it does
    not change at every visit.
    """
    result = (
        SoloResult.objects.filter(
            hidden=False,
            abandoned=False,
            daily__isnull=True,
            game__hidden=False,
            user__deleted_at__isnull=True,
        )
        .exclude(user__banned_until__gt=timezone.now())
        .select_related("game")
        .order_by("-score", "finished_at", "pk")
        .first()
    )
    return result.game if result is not None else None


def hint_refusal(game: Game, seats: list[Seat], seat: Seat | None) -> tuple[str, int] | None:
    """Why the player of ``seat`` may not take a hint now (message, HTTP status), or ``None``.

    Hints are for solo games and games against computer players only, never the daily
    challenge, and for the round the player still has to play.
    """
    if seat is None:
        return _("You do not play in this game."), 403
    if not game.is_active:
        if game.is_open:
            return _("This game has not started yet."), 409
        if game.status == Game.Status.CANCELLED:
            return _("This game was cancelled."), 409
        return _("This game is over."), 409
    if game.daily is not None:
        return _("The daily challenge is played without hints."), 409
    if any(not s.is_bot and s.pk != seat.pk for s in seats):
        # Against people, a hint would be the computer playing for one of them.
        return _("Hints are only for games without other people."), 409
    if seat.status != Seat.Status.PLAYING:
        return _("You have left this game."), 409
    if seat.rounds_played >= game.round:
        return _("You have already played this round."), 409
    return None


def daily_par_of(day: datetime.date, ruleset: str = Ruleset.STANDARD) -> DailyPar | None:
    """The stored par of a day's challenge (pending or done), if anyone asked for it."""
    return DailyPar.objects.filter(day=day, ruleset=ruleset).first()
