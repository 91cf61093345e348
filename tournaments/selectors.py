"""Reads of tournaments: lists, one tournament's standings, a player's record.

The standings are computed from the entrants' finished games in one query and cached
under the tournament's ``version``, which every change they show bumps: a finish costs
the standings one UPDATE (and a read of the version it pushes to the pages), and a page
reads them from the cache. The one change without a write, a ban running out, is kept as
the moment until which the cached standings hold. While a tournament runs, the change's
own request counts its new standings after commit, before its pages are told of it
(``services._touch``): the pages that ask at once all find them counted. A finish is
counted into the previous version's standings when those are cached
(``standings_after``): one deal's percentages recomputed and the lines re-sorted, no
result of the others read again.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TypeVar

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.framing import GameFrame
from games.models import Game
from games.selectors import lockstep_counts
from leaderboards.duplicate import percent_by_score
from tournaments.models import Entrant, Invitation, Play, Tournament

STANDINGS_PAGE = 50
# A past tournament's standings change only by moderation, which bumps the version.
STANDINGS_SECONDS = 24 * 3600


@dataclass(frozen=True)
class StandingRow:
    """An entrant's line: total of matchpoint percentages, then the tie-breaks' figures."""

    rank: int
    user_id: int
    username: str
    total: float
    score_sum: int
    last_at: datetime.datetime | None
    # Per deal, in order: the percentage, and the score (None: not finished in time).
    percents: tuple[float | None, ...]
    scores: tuple[int | None, ...]


@dataclass(frozen=True)
class Finish:
    """One result counted since the standings' previous version (``standings_after``)."""

    entrant_id: int
    deal_id: int
    # None: the game finished but does not count (out of the window, assisted).
    score: int | None
    finished_at: datetime.datetime | None


def standings(tournament: Tournament) -> list[StandingRow]:
    """Every entrant not disqualified, deleted or banned, best first.

    Order: the sum of the deals' matchpoint percentages (a deal not finished within the
    window scores 0); then the sum of the scores; then who finished their last deal
    earlier; then who entered earlier. Entrants equal on the first three share a rank.
    """
    return _counted(tournament).rows


def _counted(tournament: Tournament) -> Standings:
    now = timezone.now()
    key = _key(tournament, tournament.version)
    found = _cached(key, now)
    if found is None:
        found = _standings(tournament, now)
        _keep(key, found)
    return found


def standings_after(tournament: Tournament, finish: Finish) -> list[StandingRow]:
    """The standings of ``tournament``, whose latest version differs only by ``finish``.

    Counted from the previous version's standings when those are cached (the same rows
    as ``standings`` would count); otherwise, or when they may already count it, in full.
    """
    now = timezone.now()
    key = _key(tournament, tournament.version)
    if _cached(key, now) is None:
        before = _cached(_key(tournament, tournament.version - 1), now)
        after = before.counting(finish) if before is not None else None
        if after is not None:
            _keep(key, after)
    return standings(tournament)


@dataclass(frozen=True)
class Standings:
    """The standings as cached: the rows, until when they hold (a ban's end), and what
    counting one more finish needs: each deal's table of scores (in order), its place in
    that order (by deal id), the standing entrants' users (by entrant id) and their place
    in the order of entry (by user id)."""

    rows: list[StandingRow]
    until: datetime.datetime | None
    tables: tuple[dict[int, int], ...]
    deals: dict[int, int]
    users: dict[int, int]
    joined: dict[int, int]

    def holds(self, now: datetime.datetime) -> bool:
        return self.until is None or now < self.until

    def counting(self, finish: Finish) -> Standings | None:
        """These standings with ``finish`` counted; None if they may count it already."""
        user_id = self.users.get(finish.entrant_id)
        if user_id is None:
            # Disqualified, banned or deleted: the finish counts for nobody.
            return self
        index = self.deals[finish.deal_id]
        score = finish.score
        mine = next(row for row in self.rows if row.user_id == user_id)
        if mine.scores[index] is not None:
            # Counted by a read that ran after this finish committed: count in full.
            return None
        if score is None:
            return self
        table = dict(self.tables[index])
        table[score] = table.get(score, 0) + 1
        percents = percent_by_score(table)
        lines: list[_Line] = []
        for row in self.rows:
            total, score_sum, last_at = row.total, row.score_sum, row.last_at
            shown, scores = row.percents, row.scores
            if row is mine:
                scores = _replaced(scores, index, score)
                score_sum += score
                moments = [at for at in (last_at, finish.finished_at) if at is not None]
                last_at = max(moments, default=None)
            played = scores[index]
            # Everyone on this deal has a new percentage, hence a new total.
            if played is not None:
                shown = _replaced(shown, index, percents[played])
                total = _total(shown)
            order = self.joined[row.user_id]
            lines.append(
                (total, score_sum, last_at, order, row.user_id, row.username, shown, scores)
            )
        tables = (*self.tables[:index], table, *self.tables[index + 1 :])
        return Standings(_ranked(lines), self.until, tables, self.deals, self.users, self.joined)


# Standings kept in this process, by cache key (the version is in it, so a copy is never
# stale but for a ban running out): the latest few, oldest dropped first.
RECENT_STANDINGS = 16
_recent: dict[str, Standings] = {}


def _key(tournament: Tournament, version: int) -> str:
    # With the creation time: a test database may give a new tournament an old one's id.
    made = tournament.created_at.timestamp()
    # "standings2": what the cache kept before also counting a finish lacks what that needs.
    return f"tournaments:standings2:{tournament.pk}:{made}:{version}"


def _cached(key: str, now: datetime.datetime) -> Standings | None:
    # This process's copy first: a running tournament's page is asked for often, and
    # unpickling a thousand rows from the shared cache costs more than drawing the page.
    # A ban or its lifting bumps the version; a ban running out does not, so standings
    # counted without a banned entrant hold only until the first such ban ends.
    found = _recent.get(key)
    if found is None or not found.holds(now):
        found = cache.get(key)
        if not isinstance(found, Standings) or not found.holds(now):
            return None
        _remember(key, found)
    return found


def _keep(key: str, found: Standings) -> None:
    cache.set(key, found, STANDINGS_SECONDS)
    _remember(key, found)


def _remember(key: str, found: Standings) -> None:
    _recent[key] = found
    while len(_recent) > RECENT_STANDINGS:
        del _recent[next(iter(_recent))]


# A line before ranking: total, sum of scores, last finish, order of entry, user id,
# username, percentages, scores.
_Line = tuple[
    float,
    int,
    datetime.datetime | None,
    int,
    int,
    str,
    tuple[float | None, ...],
    tuple[int | None, ...],
]
_FAR = datetime.datetime.max.replace(tzinfo=datetime.UTC)


T = TypeVar("T")


def _replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _total(shown: tuple[float | None, ...]) -> float:
    return round(sum(p for p in shown if p is not None), 6)


def _ranked(lines: list[_Line]) -> list[StandingRow]:
    lines.sort(key=lambda line: (-line[0], -line[1], line[2] or _FAR, line[3]))
    rows: list[StandingRow] = []
    rank = 0
    previous = None
    for i, (total, score_sum, last_at, _order, user_id, username, shown, scores) in enumerate(
        lines, start=1
    ):
        tied = (total, score_sum, last_at)
        if tied != previous:
            rank, previous = i, tied
        rows.append(StandingRow(rank, user_id, username, total, score_sum, last_at, shown, scores))
    return rows


def _standings(tournament: Tournament, now: datetime.datetime) -> Standings:
    # A banned entrant counts for nobody while the ban is in force: these lines hold until
    # the first such ban ends.
    until: datetime.datetime | None = None
    entrants = []
    for entrant_id, user_id, username, banned_until in (
        Entrant.objects.filter(
            tournament=tournament, disqualified=False, user__deleted_at__isnull=True
        )
        .order_by("joined_at", "pk")
        .values_list("pk", "user_id", "user__username", "user__banned_until")
    ):
        if banned_until is not None and banned_until > now:
            until = banned_until if until is None else min(until, banned_until)
        else:
            entrants.append((entrant_id, user_id, username))
    deals = tournament.deal_count
    index_of = {pk: number - 1 for pk, number in tournament.deals.values_list("pk", "number")}
    counted = Play.objects.filter(tournament=tournament, score__isnull=False)
    # Only each entrant's latest finish as a moment: reading 8,000 of them would cost more
    # than the rest of the standings.
    latest = dict(
        counted.order_by()
        .values_list("entrant_id")
        .annotate(latest=Max("finished_at"))
        .values_list("entrant_id", "latest")
    )
    # Disqualified or banned entrants and deleted accounts count for nobody.
    results: dict[int, list[int | None]] = {entrant[0]: [None] * deals for entrant in entrants}
    tables: tuple[dict[int, int], ...] = tuple({} for _ in range(deals))
    for entrant_id, deal_id, score in counted.values_list("entrant_id", "deal_id", "score"):
        mine = results.get(entrant_id)
        if mine is not None and score is not None:
            index = index_of[deal_id]
            mine[index] = score
            table = tables[index]
            table[score] = table.get(score, 0) + 1
    percents = [percent_by_score(table) for table in tables]
    lines: list[_Line] = []
    users: dict[int, int] = {}
    joined: dict[int, int] = {}
    for order, (entrant_id, user_id, username) in enumerate(entrants):
        scores = tuple(results[entrant_id])
        shown = tuple([None if s is None else p[s] for p, s in zip(percents, scores, strict=True)])
        users[entrant_id] = user_id
        joined[user_id] = order
        score_sum = sum([s for s in scores if s is not None])
        last_at = latest.get(entrant_id)
        lines.append((_total(shown), score_sum, last_at, order, user_id, username, shown, scores))
    return Standings(_ranked(lines), until, tables, index_of, users, joined)


@dataclass(frozen=True)
class RunningRow:
    """An entrant's line while the tournament runs, as one viewer may see it."""

    rank: int
    user_id: int
    username: str
    # Deals finished in time: everyone may see how far each entrant has come.
    played: int
    total: float
    # Per deal: the percentage where the viewer may see it and it counts, else None.
    percents: tuple[float | None, ...]
    # Per deal: whether the entrant has finished it (in time), a result or not.
    finished: tuple[bool, ...]


@dataclass(frozen=True)
class RunningStandings:
    """Provisional standings for one viewer (``running_standings``).

    ``seen``: the deals (numbers) whose results the viewer may see; ``pending``: those of
    them nobody else has finished yet, which score no matchpoints so far.
    """

    rows: list[RunningRow]
    seen: frozenset[int]
    pending: frozenset[int]


def seen_deals(tournament: Tournament, user: User | None) -> frozenset[int]:
    """The deals (numbers) whose results ``user`` may see: all once the tournament is
    over, until then only those the user has finished (a deal is sealed until played)."""
    if tournament.is_over:
        return frozenset(range(1, tournament.deal_count + 1))
    if user is None or not user.is_authenticated:
        return frozenset()
    return frozenset(
        Play.objects.filter(
            tournament=tournament, entrant__user=user, game__status=Game.Status.FINISHED
        ).values_list("deal__number", flat=True)
    )


def running_standings(tournament: Tournament, seen: frozenset[int]) -> RunningStandings:
    """The standings as a viewer who may see the deals ``seen`` sees them while it runs.

    A deal counts only for a viewer who has finished it, compared among the entrants who
    have finished it too, and only once at least two have: neither a total nor a place
    may tell a sealed deal's result, nor the sum of scores (left out until the end).
    Order: the total so counted, then the deals played, then who entered earlier.
    """
    counted = _counted(tournament)
    finishers = [sum(table.values()) for table in counted.tables]
    scoring = frozenset(number for number in seen if finishers[number - 1] >= 2)
    lines = []
    for row in counted.rows:
        percents = tuple(
            percent if number in scoring else None
            for number, percent in enumerate(row.percents, start=1)
        )
        finished = tuple(score is not None for score in row.scores)
        played = sum(finished)
        line = (_total(percents), played, counted.joined[row.user_id], row, percents, finished)
        lines.append(line)
    lines.sort(key=lambda line: (-line[0], -line[1], line[2]))
    rows: list[RunningRow] = []
    rank = 0
    previous: tuple[float, int] | None = None
    for i, (total, played, _order, row, percents, finished) in enumerate(lines, start=1):
        if (total, played) != previous:
            rank, previous = i, (total, played)
        rows.append(RunningRow(rank, row.user_id, row.username, played, total, percents, finished))
    return RunningStandings(rows, frozenset(seen), frozenset(seen) - scoring)


@dataclass(frozen=True)
class DealLine:
    """One deal as an entrant sees it: what they may do, and their result."""

    number: int
    game_id: int | None
    finished: bool
    score: int | None
    playable: bool
    # A card of the game is played (else "Play", not "Continue").
    started: bool


def deal_lines(tournament: Tournament, user: User) -> list[DealLine]:
    """The deals of ``tournament`` for its entrant ``user``, in order."""
    games = {
        number: (game_id, status, score, round)
        for number, game_id, status, score, round in Play.objects.filter(
            entrant__tournament=tournament, entrant__user=user
        ).values_list(
            "deal__number", "game_id", "game__status", "game__seats__score", "game__round"
        )
    }
    lines = []
    previous_done = True
    for number in range(1, tournament.deal_count + 1):
        game_id, status, score, round = games.get(number, (None, None, None, 1))
        finished = status == Game.Status.FINISHED
        # A live deal is played once it is dealt (``live_status``), not when one chooses.
        ready = game_id is not None if tournament.is_live else previous_done
        lines.append(
            DealLine(
                number=number,
                game_id=game_id,
                finished=finished,
                score=score if finished else None,
                playable=tournament.is_running and ready and not finished,
                started=round is not None and round > 1,
            )
        )
        previous_done = finished
    return lines


def entrant_of(tournament: Tournament, user: User | None) -> Entrant | None:
    if user is None or not user.is_authenticated:
        return None
    return Entrant.objects.filter(tournament=tournament, user=user).first()


def is_invited(tournament: Tournament, user: User | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return tournament.invitations.filter(user=user).exists()


def with_entrant_counts(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    return tournaments.annotate(
        entrant_count=Count("entrants", filter=Q(entrants__disqualified=False))
    )


def current_tournaments() -> QuerySet[Tournament]:
    """Running and upcoming tournaments, soonest ending first."""
    return with_entrant_counts(
        Tournament.objects.filter(ends_at__gt=timezone.now()).order_by("ends_at", "pk")
    )


def past_tournaments(*, limit: int = 30) -> list[tuple[Tournament, StandingRow | None]]:
    """The latest finished tournaments with their winners (None: nobody scored)."""
    past = with_entrant_counts(
        Tournament.objects.filter(ends_at__lte=timezone.now()).order_by("-ends_at", "-pk")
    )[:limit]
    return [(tournament, _winner(tournament)) for tournament in past]


def _winner(tournament: Tournament) -> StandingRow | None:
    rows = standings(tournament)
    return rows[0] if rows and rows[0].total > 0 else None


@dataclass(frozen=True)
class RecordLine:
    tournament: Tournament
    rank: int | None
    entrants: int
    total: float | None
    disqualified: bool


def player_record(user: User, *, limit: int = 20) -> list[RecordLine]:
    """The player's latest tournaments, with their final place in each that is over."""
    lines = []
    for entrant in (
        Entrant.objects.filter(user=user).select_related("tournament").order_by("-joined_at")
    )[:limit]:
        rows = standings(entrant.tournament)
        # A running tournament's place and total would tell its sealed deals' results.
        over = entrant.tournament.is_over
        mine = next((row for row in rows if row.user_id == user.pk), None) if over else None
        lines.append(
            RecordLine(
                tournament=entrant.tournament,
                rank=mine.rank if mine else None,
                entrants=len(rows),
                total=mine.total if mine else None,
                disqualified=entrant.disqualified,
            )
        )
    return lines


@dataclass(frozen=True)
class LiveStatus:
    """Where a live tournament stands: the deal in play (if any) and its table's round."""

    deal_number: int | None
    round: int | None
    deadline: datetime.datetime | None
    waiting: int
    players: int
    # The viewer's game at the table, while it is in play.
    game_id: int | None

    @property
    def needs_dealing(self) -> bool:
        """No deal is in play: the next is due (or the end), ``services.live_advance``."""
        return self.deal_number is None


def live_status(tournament: Tournament, user: User | None) -> LiveStatus:
    """The live tournament's deal in play and its table, as ``user`` (if any) sees them."""
    current = (
        tournament.deals.filter(lockstep__isnull=False)
        .select_related("lockstep")
        .order_by("-number")
        .first()
    )
    table = current.lockstep if current is not None else None
    if current is None or table is None or table.finished_at is not None:
        return LiveStatus(None, None, None, 0, 0, None)
    waiting, players = lockstep_counts(table)
    game_id = None
    if user is not None and user.is_authenticated:
        game_id = (
            Play.objects.filter(deal=current, entrant__user=user, game__status=Game.Status.ACTIVE)
            .values_list("game_id", flat=True)
            .first()
        )
    return LiveStatus(current.number, table.round, table.deadline, waiting, players, game_id)


def game_frame(*, game: Game, **_signal: object) -> GameFrame | None:
    """A tournament deal's frame: "<tournament>, deal k of n", the way back, what is next.

    Receiver of ``games.framing.game_framing``. After an asynchronous deal: the next deal
    (or, after the last or once the window is over, the standings); after a live one the
    page follows the tournament (``views.live_next``), which deals the next one itself.
    """
    if game.sealed_until is None:
        return None  # no competition's game
    play = Play.objects.filter(game_id=game.pk).select_related("tournament", "deal").first()
    if play is None:
        return None
    tournament, number = play.tournament, play.deal.number
    back = reverse("tournaments:detail", kwargs={"pk": tournament.pk})
    title = _deal_title(tournament, number)
    back_label = _("Back to the tournament")
    standings_label = _("See the standings")
    if tournament.is_live:
        follow = ""
        if not tournament.is_over:
            url = reverse("tournaments:live_next", kwargs={"pk": tournament.pk})
            follow = f"{url}?after={game.pk}"
        return GameFrame(title, back, back_label, standings_label, back, follow_url=follow)
    if number < tournament.deal_count and tournament.is_running:
        url = reverse("tournaments:play", kwargs={"pk": tournament.pk, "number": number + 1})
        return GameFrame(title, back, back_label, _("Next deal"), url, next_post=True)
    return GameFrame(title, back, back_label, standings_label, back)


def game_titles(*, games: list[Game], **_signal: object) -> dict[int, str]:
    """The titles ``game_frame`` gives the tournaments' deals among ``games``, in one query.

    Receiver of ``games.framing.games_titling``, for lists of games.
    """
    ids = [game.pk for game in games if game.sealed_until is not None]
    if not ids:
        return {}
    plays = Play.objects.filter(game_id__in=ids).select_related("tournament", "deal")
    return {play.game_id: _deal_title(play.tournament, play.deal.number) for play in plays}


def _deal_title(tournament: Tournament, number: int) -> str:
    return _("%(tournament)s, deal %(number)d of %(deals)d") % {
        "tournament": tournament.title,
        "number": number,
        "deals": tournament.deal_count,
    }


@dataclass(frozen=True)
class TheirTournaments:
    """The tournaments a player entered, and those they are invited to and not yet in."""

    entered: frozenset[int]
    invited: frozenset[int]


def tournaments_of(user: User) -> TheirTournaments:
    """Which tournaments (ids) ``user`` entered or is invited to, for the list's marks."""
    entered = frozenset(Entrant.objects.filter(user=user).values_list("tournament_id", flat=True))
    invited = frozenset(
        Invitation.objects.filter(user=user).values_list("tournament_id", flat=True)
    )
    return TheirTournaments(entered, invited - entered)
