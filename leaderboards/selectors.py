"""Reads: the boards, a page at a time, and a player's statistics.

Every board hides moderated results and players whose ban is in force (checked at query
time, since bans end by themselves) and deleted accounts. Ties go to the earlier
achievement, then to the older row. Each board costs the same few queries whatever its size:
one for the page, and for a signed-in player one for their row and one COUNT for its rank.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Count, Model, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import rules
from accounts.models import User
from games.daily import FIRST_DAY, daily_seed, today
from games.models import SOLO_RATING_LABELS, Game, Ruleset, Seat, SoloResult
from games.policy import cards_secret, daily_attempt_status, sealed
from leaderboards.daily import week_start
from leaderboards.duplicate import Duplicate, duplicate_of
from leaderboards.models import (
    PROVISIONAL_GAMES,
    RECENT_GAMES,
    Deal,
    DealScore,
    PlayerRating,
    PlayerResult,
    PlayerTotals,
    SoloStanding,
    WeeklyBest,
    WinterRating,
    band_field,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

PAGE_SIZE = 50
# The last page number a board answers (5 million rows); past it, a page is not found.
MAX_PAGE = 100_000
BAND_LABELS = SOLO_RATING_LABELS
# A rating drops off the board after this long without a rated game (it is kept).
INACTIVE_AFTER = datetime.timedelta(days=90)


@dataclass(frozen=True)
class BoardKind:
    """One kind of board: where its rows come from and what they are ordered by."""

    slug: str
    title: StrOrPromise
    value_label: StrOrPromise
    rows: Callable[[str], QuerySet[Model]]
    value: str
    at: str
    game: str | None


def _best_rows(ruleset: str) -> QuerySet[Model]:
    return SoloStanding.objects.filter(ruleset=ruleset, best_score__isnull=False)


def _week_rows(ruleset: str) -> QuerySet[Model]:
    return WeeklyBest.objects.filter(ruleset=ruleset, week=week_start(today()))


def _average_rows(ruleset: str) -> QuerySet[Model]:
    return SoloStanding.objects.filter(ruleset=ruleset, recent_average__isnull=False)


def _rating_rows(ruleset: str) -> QuerySet[Model]:
    return PlayerRating.objects.filter(
        ruleset=ruleset,
        games__gte=PROVISIONAL_GAMES,
        last_game_at__gte=timezone.now() - INACTIVE_AFTER,
    )


BOARDS: dict[str, BoardKind] = {
    kind.slug: kind
    for kind in [
        BoardKind(
            "best", _("Best score"), _("Score"), _best_rows, "best_score", "best_at", "best_game_id"
        ),
        BoardKind(
            "week", _("This week"), _("Score"), _week_rows, "score", "achieved_at", "game_id"
        ),
        BoardKind(
            "average",
            _("Best average"),
            _("Average of the last 10"),
            _average_rows,
            "recent_average",
            "recent_at",
            None,
        ),
        BoardKind(
            "rating",
            _("Multiplayer rating"),
            _("Rating"),
            _rating_rows,
            "ordinal",
            "last_game_at",
            None,
        ),
    ]
}


@dataclass(frozen=True)
class BoardRow:
    rank: int
    user_id: int
    username: str
    value: float
    at: datetime.datetime
    game_id: int | None

    @property
    def band_label(self) -> str:
        return str(BAND_LABELS[rules.solo_rating(int(self.value))])


@dataclass(frozen=True)
class Board:
    """One page of a board, and the viewer's own row wherever it ranks."""

    rows: list[BoardRow]
    page: int
    has_next: bool
    own: BoardRow | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def own_on_page(self) -> bool:
        return self.own is not None and any(row.user_id == self.own.user_id for row in self.rows)


def hidden_players() -> QuerySet[User, Any]:
    """Players no board shows: a ban in force (the opposite of ``not_banned``), or deleted.

    Few, and found through a partial index (migration 0002), so boards exclude them with
    a small hashed list instead of joining every row to its player.
    """
    return User.objects.filter(
        Q(deleted_at__isnull=False) | Q(banned_until__gt=timezone.now())
    ).values("pk")


def _page(
    rows: QuerySet[Model],
    *,
    name: str,
    value: str,
    at: str,
    game: str | None,
    page: int,
    viewer: User | None,
) -> Board:
    rows = rows.exclude(user__in=hidden_players())
    fields = ["id", "user_id", value, at] + ([game] if game else [])
    order = [f"-{value}", at, "id"]
    offset = (page - 1) * PAGE_SIZE
    found = list(rows.order_by(*order).values_list(*fields)[offset : offset + PAGE_SIZE + 1])
    mine = None
    if viewer is not None and viewer.is_authenticated and not viewer.is_deleted:
        mine = rows.filter(user=viewer).order_by(*order).values_list(*fields).first()
    shown = {values[1] for values in found[:PAGE_SIZE]} | ({mine[1]} if mine else set())
    names = dict(User.objects.filter(pk__in=shown).values_list("pk", "username"))

    def row_of(values: tuple[Any, ...], rank: int) -> BoardRow:
        game_id = values[4] if game else None
        return BoardRow(rank, values[1], names.get(values[1], ""), values[2], values[3], game_id)

    own = None
    if mine is not None:
        own = row_of(mine, _rank(rows, name=name, value=value, at=at, row=mine))
    return Board(
        rows=[row_of(values, offset + i + 1) for i, values in enumerate(found[:PAGE_SIZE])],
        page=page,
        has_next=len(found) > PAGE_SIZE,
        own=own,
    )


# How long a player's own rank may be reused. The COUNT behind it grows with the board
# (a range of its index, up to all of it); rows around the player move slowly, and the
# page itself is always fresh.
RANK_SECONDS = 60


def _rank(rows: QuerySet[Model], *, name: str, value: str, at: str, row: tuple[Any, ...]) -> int:
    pk, v, a = row[0], row[2], row[3]
    # The row's own values are in the key: a new best or a new rating is counted afresh.
    key = f"leaderboards:rank:{name}:{pk}:{v}:{a.isoformat()}"
    rank = cache.get(key)
    if rank is None:
        # One range of the board's index (value >= mine), counted without the table.
        better = rows.filter(**{f"{value}__gte": v}).aggregate(
            n=Count(
                "id",
                filter=Q(**{f"{value}__gt": v})
                | Q(**{value: v, f"{at}__lt": a})
                | Q(**{value: v, at: a, "id__lt": pk}),
            )
        )["n"]
        rank = better + 1
        cache.set(key, rank, RANK_SECONDS)
    return int(rank)


def board(*, kind: BoardKind, ruleset: str, page: int = 1, viewer: User | None = None) -> Board:
    """One page (``PAGE_SIZE`` rows) of a ruleset's board, with the viewer's rank."""
    return _page(
        kind.rows(ruleset),
        name=f"{kind.slug}:{ruleset}:{week_start(today()) if kind.slug == 'week' else ''}",
        value=kind.value,
        at=kind.at,
        game=kind.game,
        page=page,
        viewer=viewer,
    )


def winter_rating_board(*, page: int = 1, viewer: User | None = None) -> Board:
    """One page of the Winter ratings, as the Limes rating board: five rated games and
    one in the last 90 days to appear."""
    rows: QuerySet[Model] = WinterRating.objects.filter(
        games__gte=PROVISIONAL_GAMES, last_game_at__gte=timezone.now() - INACTIVE_AFTER
    )
    return _page(
        rows,
        name="winter-rating",
        value="ordinal",
        at="last_game_at",
        game=None,
        page=page,
        viewer=viewer,
    )


def winter_rating_of(user: User) -> WinterRating | None:
    """The player's Winter rating, if they have played a rated Winter game."""
    return WinterRating.objects.filter(user=user).first()


def daily_board(*, day: datetime.date, page: int = 1, viewer: User | None = None) -> Board:
    """One page of a day's challenge results, best first."""
    rows = SoloResult.objects.filter(daily=day, hidden=False, game__hidden=False)
    return _page(
        rows,
        name=f"daily:{day.isoformat()}",
        value="score",
        at="finished_at",
        game="game_id",
        page=page,
        viewer=viewer,
    )


@dataclass(frozen=True)
class DailyAttempt:
    """A player's attempt at one day's challenge, if any."""

    game: Game | None
    finished: bool


def daily_attempt(*, user: User, day: datetime.date) -> DailyAttempt:
    """The viewer's game of the day and whether it is over."""
    if not user.is_authenticated:
        return DailyAttempt(None, False)
    game = Game.objects.filter(daily=day, created_by=user).first()
    return DailyAttempt(game, game is not None and game.is_finished)


def daily_days(*, before: datetime.date, count: int = 14) -> list[datetime.date]:
    """The days before ``before`` to offer as links, back to the challenge's first day."""
    days = (before - FIRST_DAY).days
    return [before - datetime.timedelta(days=n) for n in range(1, min(count, days) + 1)]


# Statistics for the profile page


@dataclass(frozen=True)
class ModeCount:
    mode: str
    ruleset: str
    games: int
    best: int | None
    average: float | None

    @property
    def mode_label(self) -> str:
        return str(Game.Mode(self.mode).label)

    @property
    def ruleset_label(self) -> str:
        return str(Ruleset(self.ruleset).label)


@dataclass(frozen=True)
class HistoryEntry:
    game_id: int
    score: int
    band: rules.SoloRating
    ruleset: str
    finished_at: datetime.datetime
    daily: datetime.date | None
    abandoned: bool

    @property
    def band_label(self) -> str:
        return str(BAND_LABELS[self.band])

    @property
    def ruleset_label(self) -> str:
        return str(Ruleset(self.ruleset).label)


@dataclass(frozen=True)
class RatingPoint:
    ruleset: str
    rating: float
    at: datetime.datetime
    game_id: int


@dataclass(frozen=True)
class PlayerStatistics:
    """What a profile shows of a player's results. Hidden results never count."""

    games_played: int
    games_finished: int
    best_solo: int | None
    average_solo: float | None
    per_mode: list[ModeCount]
    standing: float | None
    standing_games: int
    bands: list[tuple[rules.SoloRating, int]]
    professions: list[tuple[str, float]]
    history: list[HistoryEntry]
    ratings: list[PlayerRating]
    rating_history: list[RatingPoint]

    @property
    def standing_band(self) -> str | None:
        if self.standing is None:
            return None
        return str(BAND_LABELS[rules.solo_rating(int(self.standing))])


# How many of the latest solo games the score chart and the history list show.
HISTORY_GAMES = 100
RATING_HISTORY_GAMES = 100


def player_statistics(user: User) -> PlayerStatistics:
    """A player's statistics in five small queries, whatever the number of games."""
    totals = list(PlayerTotals.objects.filter(user=user).order_by("mode", "ruleset"))
    per_mode = [
        ModeCount(t.mode, t.ruleset, t.games, t.best, t.score_sum / t.games if t.games else None)
        for t in totals
        if t.games
    ]
    solo = [t for t in totals if t.mode == Game.Mode.SOLO]
    games = sum(t.games for t in totals)
    history = [
        HistoryEntry(
            r.game_id,
            r.score,
            rules.SoloRating(r.rating),
            r.ruleset,
            r.finished_at,
            r.daily,
            r.abandoned,
        )
        # Games played with a hint are no part of a player's public record, nor a
        # tournament's deal before its seal lifts.
        for r in SoloResult.objects.filter(user=user, hidden=False, game__assisted=False)
        .exclude(sealed(game="game__"))
        .order_by("-finished_at", "-id")[:HISTORY_GAMES]
    ]
    recent = history[:RECENT_GAMES]
    ratings = list(PlayerRating.objects.filter(user=user).order_by("ruleset"))
    rating_history = [
        RatingPoint(ruleset, rating, at, game_id)
        for ruleset, rating, at, game_id in PlayerResult.objects.filter(
            user=user, rating_after__isnull=False, hidden=False
        )
        .order_by("-finished_at")
        .values_list("ruleset", "rating_after", "finished_at", "game_id")[:RATING_HISTORY_GAMES]
        if rating is not None  # always, by the filter: this tells the type checker
    ][::-1]
    solo_games = sum(t.games for t in solo)
    return PlayerStatistics(
        # Every seat, games in play included: an index-only count of the player's seats.
        games_played=Seat.objects.filter(user=user).count(),
        games_finished=games,
        best_solo=max((t.best for t in solo if t.best is not None), default=None),
        average_solo=sum(t.score_sum for t in solo) / solo_games if solo_games else None,
        per_mode=per_mode,
        standing=sum(entry.score for entry in recent) / len(recent) if recent else None,
        standing_games=len(recent),
        bands=[
            (band, sum(getattr(t, band_field(band)) for t in solo)) for band in rules.SoloRating
        ],
        professions=[
            (p.value, sum(getattr(t, p.value) for t in totals) / games)
            for p in rules.Profession
            if games
        ],
        history=history,
        ratings=ratings,
        rating_history=rating_history,
    )


@dataclass(frozen=True)
class RulesetSolo:
    """A player's solo games in one ruleset: a standard 38 and a diagonal 12 don't mix."""

    ruleset: str
    history: list[HistoryEntry]  # latest first
    standing: float | None  # the mean of the latest RECENT_GAMES
    standing_games: int

    @property
    def ruleset_label(self) -> str:
        return str(Ruleset(self.ruleset).label)

    @property
    def standing_band(self) -> str | None:
        if self.standing is None:
            return None
        return str(BAND_LABELS[rules.solo_rating(int(self.standing))])


def replays_closed(viewer: User | AnonymousUser, game_ids: Iterable[int]) -> set[int]:
    """The games among ``game_ids`` whose replay ``viewer`` may not open yet (a daily
    challenge of a day still secret to them, a sealed game): shown without a link."""
    ids = list(game_ids)
    if not ids:
        return set()
    closed = Game.objects.filter(pk__in=ids).filter(cards_secret(viewer))
    return set(closed.values_list("pk", flat=True))


def solo_by_ruleset(history: list[HistoryEntry]) -> list[RulesetSolo]:
    """Split a player's latest solo games by ruleset, in the rulesets' order."""
    result = []
    for ruleset in Ruleset:
        entries = [entry for entry in history if entry.ruleset == ruleset.value]
        if not entries:
            continue
        recent = entries[:RECENT_GAMES]
        result.append(
            RulesetSolo(
                ruleset.value, entries, sum(e.score for e in recent) / len(recent), len(recent)
            )
        )
    return result


def replays_withheld(game_ids: list[int], viewer: User | None) -> set[int]:
    """The games among ``game_ids`` a board must not link for ``viewer`` yet.

    Today's daily challenges: their replays show the day's cards, so, as the game page
    itself (``games.policy.can_watch``), only to those whose own attempt has ended.
    """
    day = today()
    running = set(Game.objects.filter(pk__in=game_ids, daily__gte=day).values_list("pk", flat=True))
    if not running or viewer is None:
        return running
    finished_own = daily_attempt_status(viewer, day) == Game.Status.FINISHED
    return set() if finished_own else running


# -- duplicate: results against everyone who played the same deal -------------------------

# The profile's chart of duplicate percentages shows this many of the latest results.
DUPLICATE_HISTORY = 30


def deal_tables(deal_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """Each deal's table of counted scores (``{score: results}``), in one query."""
    tables: dict[int, dict[int, int]] = {deal_id: {} for deal_id in deal_ids}
    for deal_id, score, count in DealScore.objects.filter(deal_id__in=list(tables)).values_list(
        "deal_id", "score", "count"
    ):
        tables[deal_id][score] = count
    return tables


def daily_percentages(day: datetime.date) -> dict[int, Duplicate]:
    """The day's challenge: each score counted on it, with its figures against the rest."""
    deal_id = (
        Deal.objects.filter(seed=daily_seed(day), ruleset=Ruleset.STANDARD)
        .values_list("pk", flat=True)
        .first()
    )
    if deal_id is None:
        return {}
    table = deal_tables([deal_id])[deal_id]
    figures = {score: duplicate_of(table, score) for score in table}
    return {score: shown for score, shown in figures.items() if shown is not None}


def game_duplicates(game: Game) -> dict[int, Duplicate]:
    """A finished game's counted results against everyone on its deal, by seat id."""
    results = list(
        PlayerResult.objects.filter(
            game=game, deal__isnull=False, hidden=False, user__deleted_at__isnull=True
        ).values_list("seat_id", "deal_id", "score")
    )
    if not results:
        return {}
    table = deal_tables([results[0][1]])[results[0][1]]
    figures = {seat_id: duplicate_of(table, score) for seat_id, _deal, score in results}
    return {seat_id: shown for seat_id, shown in figures.items() if shown is not None}


def table_duplicates(game: Game) -> dict[int, Duplicate]:
    """A finished live table's game against the others of its table, by seat id: they were
    dealt these cards together, so once the table's deal is over its players are compared
    at once, before the tournament's results count everywhere (``game_duplicates``)."""
    if game.lockstep_id is None or not game.is_finished:
        return {}
    table_seats = Seat.objects.filter(
        game__lockstep_id=game.lockstep_id,
        game__status=Game.Status.FINISHED,
        game__hidden=False,
        game__lockstep__finished_at__isnull=False,
        user__deleted_at__isnull=True,
        score__isnull=False,
    )
    # (score__isnull=False above: every score here is a number.)
    scores = [
        (seat_id, game_id, int(score or 0))
        for seat_id, game_id, score in table_seats.values_list("pk", "game_id", "score")
    ]
    table: dict[int, int] = {}
    for _seat_id, _game_id, score in scores:
        table[score] = table.get(score, 0) + 1
    figures = {
        seat_id: duplicate_of(table, score)
        for seat_id, game_id, score in scores
        if game_id == game.pk
    }
    return {seat_id: shown for seat_id, shown in figures.items() if shown is not None}


@dataclass(frozen=True)
class DuplicatePoint:
    """One result on the profile's duplicate chart."""

    game_id: int
    finished_at: datetime.datetime
    score: int
    figures: Duplicate


def duplicate_history(user: User, *, count: int = DUPLICATE_HISTORY) -> list[DuplicatePoint]:
    """The player's latest counted results on deals others played too, oldest first."""
    results = list(
        PlayerResult.objects.filter(user=user, deal__isnull=False, hidden=False)
        .order_by("-finished_at", "-id")
        .values_list("game_id", "finished_at", "score", "deal_id")[: count * 2]
    )
    tables = deal_tables({deal_id for *_rest, deal_id in results})
    points = []
    for game_id, finished_at, score, deal_id in results:
        figures = duplicate_of(tables[deal_id], score)
        # Alone on a deal so far: nothing to compare with yet.
        if figures is not None:
            points.append(DuplicatePoint(game_id, finished_at, score, figures))
    return points[:count][::-1]
