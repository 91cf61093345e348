"""Reads for pages: a game with its seats, the lobby, a player's games, solo standings.

A game as the rules package sees it is rebuilt in ``games.rebuild``; who may see or do
what is decided in ``games.policy``."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, F, Max, Prefetch, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from core.ids import is_row_id
from floor.internals import RowsById, prefetch_filled
from games import export
from games.models import DailyPar, DataExport, Game, Lockstep, Ruleset, Seat, SoloResult
from games.policy import sealed


def games_with_seats() -> QuerySet[Game]:
    """Games with their seats and the seats' players loaded (one query each)."""
    return Game.objects.prefetch_related(_seats_prefetch())


def game_with_seats(pk: int) -> Game | None:
    """The game ``pk`` as ``games_with_seats`` loads it, in one query instead of two.

    Its seats are read with the game and their players joined on; a game without seats
    (none has any, but the page must not fail on one) is read on its own.
    """
    if not is_row_id(pk):
        return None  # no such row, and SQLite would overflow on the number
    seats = _seats_with_game_and_players(pk)
    if not seats:
        return games_with_seats().filter(pk=pk).first()
    game = seats[0].game
    for seat in seats:
        # One game object for all, as a prefetch leaves it.
        seat.game = game
    return with_seats(game, seats)


def _seat_rows(game_id: int) -> QuerySet[Seat]:
    return Seat.objects.select_related("game", "user").filter(game_id=game_id).order_by("position")


# Every look at a game reads its seats, game and players (some sixty columns over three
# tables): the ORM took longer to compile that query than the database to run it.
_seats_with_game_and_players = RowsById(_seat_rows)


def _seats_prefetch() -> Prefetch[str, QuerySet[Seat], str]:
    return Prefetch("seats", queryset=Seat.objects.select_related("user"))


def with_seats(game: Game, seats: list[Seat]) -> Game:
    """``game`` with ``seats`` (users loaded) as its seats, as ``games_with_seats`` loads it.

    For a game a service has just read under its lock: ``game.seats.all()`` then costs
    no query.
    """
    prefetch_filled(game, _seats_prefetch(), seats)
    return game


def game_by_invite_code(code: str) -> Game | None:
    """The game an invitation code opens, in any letter case."""
    return Game.objects.filter(invite_code=code.upper()).first()


def games_of(user: User) -> QuerySet[Game]:
    """The user's games, newest first, with seats and players loaded."""
    return (
        Game.objects.filter(seats__user=user)
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )


# Open games a lobby page lists; a page's poll redraws only its own.
LOBBY_PAGE_SIZE = 30


def lobby_games() -> QuerySet[Game]:
    """Games waiting for players that anyone may join, oldest first, with their seats."""
    return (
        Game.objects.filter(status=Game.Status.OPEN, listed=True)
        .select_related("created_by")
        .prefetch_related(_seats_prefetch())
        .order_by("created_at")
    )


def games_to_watch(limit: int = 20) -> QuerySet[Game]:
    """Lobby games in play, most recently active first, for spectators."""
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, listed=True, mode=Game.Mode.MULTI)
        .prefetch_related(_seats_prefetch())
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


@dataclass(frozen=True)
class GameFilter:
    """Which of a player's games My games lists: each field narrows, empty means any."""

    mode: str = ""
    ruleset: str = ""
    opponent: str = ""
    #: True: a tournament's deals only; False: none of them; None: either.
    tournament: bool | None = None

    def __bool__(self) -> bool:
        return bool(self.mode or self.ruleset or self.opponent or self.tournament is not None)

    def seats(self, user: User) -> Q:
        """The condition on the player's own seats."""
        condition = Q()
        if self.mode:
            condition &= Q(game__mode=self.mode)
        if self.ruleset:
            condition &= Q(game__ruleset=self.ruleset)
        if self.opponent:
            # Another seat of the same game: a subquery, so no seat is listed twice.
            others = Seat.objects.filter(user__username__iexact=self.opponent).exclude(user=user)
            condition &= Q(game__in=others.values("game"))
        if self.tournament is not None:
            # A tournament's deal is a competition's game: sealed until its window ends
            # (``games.policy.sealed``); the moment stays on the game after it lifts.
            condition &= Q(game__sealed_until__isnull=not self.tournament)
        return condition


NO_FILTER = GameFilter()


def my_games(user: User, filters: GameFilter = NO_FILTER) -> list[MyGame]:
    """The user's games in play or waiting for players; those waiting for them first."""
    seats = (
        Seat.objects.filter(
            filters.seats(user),
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


def my_finished_games(user: User, filters: GameFilter = NO_FILTER) -> QuerySet[Seat]:
    """The user's seats in finished games, the latest first, with the game and players."""
    return (
        Seat.objects.filter(filters.seats(user), user=user, game__status=Game.Status.FINISHED)
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
    # The place the player's best takes on the all-time board (one row per player, their
    # best): this score's place when it is that best. None when they have no shown best.
    rank: int | None
    # This game's score is the player's best on the board (new or equal to the old one).
    is_best: bool = False


def solo_standing(game: Game, user: User) -> SoloStandingView | None:
    """The player's best in the game's rules and where that best stands on the board.

    The rank counts the players whose best shown result beats the player's best, as the
    all-time board orders them (ties to the earlier achievement): hidden results and
    hidden players do not count.
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
    shown = SoloResult.objects.filter(
        ruleset=result.ruleset, hidden=False, game__hidden=False, game__assisted=False
    )
    # The player's best before this game, the earliest of equal scores (as the board has it).
    previous = (
        shown.filter(user=user)
        .exclude(pk=result.pk)
        .order_by("-score", "finished_at", "pk")
        .values_list("score", "finished_at")
        .first()
    )
    # A game played with a hint claims no rank and no best: it counts on no board.
    counts = not result.hidden and not game.hidden and not game.assisted
    is_new_best = counts and (previous is None or result.score > previous[0])
    is_best = is_new_best or (counts and previous is not None and result.score == previous[0])
    best = (result.score, result.finished_at) if is_new_best else previous
    if best is None:
        return SoloStandingView(result.score, 0, False, None)
    if is_best and previous is not None and result.finished_at < previous[1]:
        best = (result.score, result.finished_at)
    score, at = best
    better = Q(score__gt=score) | Q(score=score, finished_at__lt=at)
    # Another's sealed result (a tournament's deal still running) is nobody's to count yet.
    others = (
        shown.filter(better, user__deleted_at__isnull=True)
        .exclude(user=user)
        .exclude(user__banned_until__gt=timezone.now())
        .exclude(sealed(game="game__"))
        .aggregate(n=Count("user", distinct=True))["n"]
    )
    return SoloStandingView(result.score, score, is_new_best, others + 1, is_best)


def showcase_game() -> Game | None:
    """A finished solo game anyone may watch, to show a newcomer what Limes looks like.

    The best full game (not abandoned, not a daily challenge, no hint, nothing hidden or
    sealed), so the landscape on the front page is a good one; the earliest of equal
    scores, so it does not change at every visit.
    """
    result = (
        SoloResult.objects.filter(
            hidden=False,
            abandoned=False,
            daily__isnull=True,
            game__hidden=False,
            game__assisted=False,
            user__deleted_at__isnull=True,
        )
        .exclude(user__banned_until__gt=timezone.now())
        # A tournament's deal stays secret until its seal lifts.
        .exclude(sealed(game="game__"))
        .select_related("game")
        .order_by("-score", "finished_at", "pk")
        .first()
    )
    return result.game if result is not None else None


def daily_par(*, day: datetime.date, ruleset: str = Ruleset.STANDARD) -> DailyPar | None:
    """The stored par of a day's challenge (pending or done), if anyone asked for it."""
    return DailyPar.objects.filter(day=day, ruleset=ruleset).first()


def rematch_offer(game: Game) -> Game | None:
    """The rematch opened from finished ``game`` (``services.game_rematch``), if any."""
    return (
        Game.objects.filter(rematch_of=game)
        .select_related("created_by")
        .prefetch_related("seats")
        .first()
    )


def lockstep_counts(table: Lockstep) -> tuple[int, int]:
    """A live table's players still to play the round dealt, and its games in play."""
    counts = lockstep_tally(table)
    return counts.waiting, counts.players


@dataclass(frozen=True)
class LockstepTally:
    """A live table's seats: still to play the card dealt, in play, and out on the clock."""

    waiting: int
    players: int
    missed: int


def lockstep_tally(table: Lockstep) -> LockstepTally:
    """``lockstep_counts`` and how many players missed a card and left the deal (one query)."""
    active = Q(game__status=Game.Status.ACTIVE)
    counts = Seat.objects.filter(game__lockstep=table).aggregate(
        players=Count("pk", filter=active),
        waiting=Count(
            "pk",
            filter=active & Q(status=Seat.Status.PLAYING, rounds_played__lt=table.round),
        ),
        missed=Count("pk", filter=Q(status=Seat.Status.TIMED_OUT)),
    )
    return LockstepTally(counts["waiting"], counts["players"], counts["missed"])


def data_export_of(user: User) -> DataExport | None:
    """The player's latest data export, without its zip; None once it has expired. One in
    the making for longer than ``export.STALE`` is shown failed: its task is lost."""
    found = DataExport.objects.filter(user=user).defer("archive").order_by("-requested_at").first()
    now = timezone.now()
    if found is None:
        return None
    if found.finished_at is not None and found.finished_at <= now - export.KEEP:
        return None
    if found.status == DataExport.Status.PENDING and found.requested_at <= now - export.STALE:
        found.status = DataExport.Status.FAILED
    return found
