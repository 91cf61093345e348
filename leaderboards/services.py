"""Writes of ratings and leaderboard tables, in the transaction of the result they follow.

``game_finished`` receives ``games.signals.game_finished``, sent inside the transaction
that finishes a game, so a result and its place on every board commit together or not at
all (``leaderboards/apps.py`` connects it).
Moderation calls ``player_stats_rebuild`` after hiding or unhiding a result, and
``ratings_recompute`` (``manage.py recompute_ratings``) after hiding a multiplayer game;
hiding or showing a Winter game recomputes the Winter ratings (``winter_ratings_recompute``).
Each deal's table of scores (``DealScore``) follows every change of a counted result by
the difference it makes; ``duplicate_rebuild`` recomputes them all and must agree.
A sealed game's result (a tournament's deal, ``Game.sealed_until``) is recorded hidden
and counted nowhere until its seal lifts: ``results_unseal`` then counts it, as if it had
just finished (the tournaments call it when they end), and ``player_stats_rebuild``
agrees with both.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils import timezone

import rules
from accounts.models import User
from floor import internals
from games.models import Game, Ruleset, Seat
from games.policy import is_sealed, sealed
from games.rebuild import player_key, rules_game
from leaderboards.daily import week_start
from leaderboards.models import (
    RECENT_GAMES,
    Deal,
    DealScore,
    PlayerRating,
    PlayerResult,
    PlayerTotals,
    SoloStanding,
    WeeklyBest,
    WinterRating,
    WinterRatingChange,
    band_field,
)
from leaderboards.rating import INITIAL, Skill, rate
from wintergames.models import WinterGame, WinterSeat


# No savepoint of its own: it runs inside the transaction that finishes the game, and a
# failure here must undo that whole transaction anyway.
@transaction.atomic(savepoint=False)
def game_finished(
    *, game: Game, seats: list[Seat], state: rules.Game | None = None, **_signal: object
) -> None:
    """Record a finished game on the boards and ratings (called inside its transaction).

    ``seats`` carry their final score and place and their users loaded; ``state``, the
    finished rules game if the caller has it, saves replaying the moves again.
    """
    # Against computer players a game is not rated: a bot's strength is not a rating.
    with_bots = any(seat.is_bot for seat in seats)
    if game.mode == Game.Mode.MULTI and not game.hidden and not with_bots:
        _game_rate(game, seats)
    if state is None:
        state = rules_game(game, seats)
    deal_id = _deal_of(game)
    # A result just written cannot have been hidden yet: only the game's flags count. A
    # game played with a hint counts in no board or total, a sealed one not before its
    # seal lifts (``results_unseal``). Bots have no results at all.
    hidden = game.hidden or game.assisted or is_sealed(game)
    results = PlayerResult.objects.bulk_create(
        _result_for(game, seat, state, hidden=hidden, deal_id=deal_id)
        for seat in seats
        if seat.score is not None and not seat.is_bot
    )
    deleted = {seat.user_id for seat in seats if seat.user is not None and seat.user.is_deleted}
    _deal_scores_change(
        Counter(
            (deal_id, result.score)
            for result in results
            if deal_id is not None and not result.hidden and result.user_id not in deleted
        )
    )
    for result in results:
        if not result.hidden:
            _totals_add(result)
    if game.mode == Game.Mode.SOLO and results and not results[0].hidden:
        _solo_standing_add(results[0])
        _weekly_best_offer(results[0])


@transaction.atomic
def results_unseal(*, game_ids: Iterable[int] | None = None) -> int:
    """Count the results whose seal has lifted (of ``game_ids``, else all) as if they had
    just finished: on the deals' tables, the totals, the solo boards and the weekly bests.

    A sealed game's result is recorded hidden (``game_finished``); this counts those of
    games no longer sealed that nothing else hides (moderation, a hint). Safe to call at
    any time and more than once: a result is counted once. Returns how many it counted.
    """
    due = (
        PlayerResult.objects.filter(hidden=True, game__sealed_until__isnull=False)
        .exclude(sealed(game="game__"))
        .filter(game__hidden=False, game__assisted=False)
        .exclude(game__solo_result__hidden=True)
    )
    if game_ids is not None:
        due = due.filter(game_id__in=list(game_ids))
    # Locked, so that two calls at once count each result once (the second one, having
    # waited, finds them counted). Results of one player in the order they finished.
    results = list(
        due.select_for_update(of=("self",))
        .select_related("user")
        .order_by("user_id", "finished_at", "id")
    )
    if not results:
        return 0
    _deal_scores_change(
        Counter(
            (result.deal_id, result.score)
            for result in results
            if result.deal_id is not None and not result.user.is_deleted
        )
    )
    PlayerResult.objects.filter(pk__in=[result.pk for result in results]).update(hidden=False)
    for result in results:
        result.hidden = False
        _totals_add(result)
    # Finished before others already counted, a result may take a best from a later equal
    # one: the rows it changes are recounted as ``player_stats_rebuild`` counts them.
    solo = [result for result in results if result.mode == Game.Mode.SOLO]
    for user_id, ruleset in sorted({(result.user_id, result.ruleset) for result in solo}):
        _solo_standing_refresh(user_id=user_id, ruleset=ruleset)
    weeks = {(result.user_id, result.ruleset, week_start(result.finished_at)) for result in solo}
    for user_id, ruleset, week in sorted(weeks):
        _weekly_best_refresh(user_id=user_id, ruleset=ruleset, week=week)
    return len(results)


def _weekly_best_refresh(*, user_id: int, ruleset: str, week: datetime.date) -> None:
    # The week's best as ``_weekly_bests_rebuild`` finds it: the earliest of the best scores.
    starts = datetime.datetime.combine(week, datetime.time(), tzinfo=datetime.UTC)
    best = (
        _visible_solo(user_id=user_id, ruleset=ruleset)
        .filter(finished_at__gte=starts, finished_at__lt=starts + datetime.timedelta(days=7))
        .order_by("-score", "finished_at", "id")
        .first()
    )
    if best is None:
        return
    WeeklyBest.objects.update_or_create(
        user_id=user_id,
        ruleset=ruleset,
        week=week,
        defaults={"score": best.score, "game_id": best.game_id, "achieved_at": best.finished_at},
    )


def deal_register(*, seed: int, ruleset: str) -> Deal:
    """The deal of ``seed`` under ``ruleset``, made if it is new.

    Tournaments register their deals in advance: their games (sealed, ``Game.sealed_until``)
    are compared with the others on them (``game_finished``).
    """
    # Two first finishes of one deal at once: the loser of the insert reads the winner's.
    Deal.objects.bulk_create([Deal(seed=seed, ruleset=ruleset)], ignore_conflicts=True)
    return Deal.objects.get(seed=seed, ruleset=ruleset)


def _deal_of(game: Game) -> int | None:
    # A solo game on a fresh random seed has nobody to be compared with: no deal for it,
    # and no query. A competition's game (sealed) is dealt from a deal registered before.
    if game.mode == Game.Mode.MULTI or game.daily is not None:
        return deal_register(seed=game.seed, ruleset=game.ruleset).pk
    if game.sealed_until is None:
        return None
    return (
        Deal.objects.filter(seed=game.seed, ruleset=game.ruleset)
        .values_list("pk", flat=True)
        .first()
    )


def _counted(results: QuerySet[PlayerResult]) -> Counter[tuple[int, int]]:
    # What a deal's table counts: visible results of existing accounts.
    return Counter(
        results.filter(deal__isnull=False, hidden=False, user__deleted_at__isnull=True).values_list(
            "deal_id", "score"
        )
    )


def _deal_scores_change(
    added: Counter[tuple[int, int]], removed: Counter[tuple[int, int]] | None = None
) -> None:
    """Move the deals' tables by ``added`` minus ``removed`` (each (deal, score) a count)."""
    change = Counter(added)
    change.subtract(removed or Counter())
    table = DealScore._meta.db_table
    # In one order everywhere: two finishes on one deal cannot deadlock on its rows.
    with connection.cursor() as cursor:
        for (deal_id, score), by in sorted(change.items()):
            if by > 0:
                cursor.execute(
                    f"INSERT INTO {table} (deal_id, score, count) VALUES (%s, %s, %s) "
                    f"ON CONFLICT (deal_id, score) DO UPDATE SET count = {table}.count + "
                    "excluded.count",
                    [deal_id, score, by],
                )
            elif by < 0:
                cursor.execute(
                    f"UPDATE {table} SET count = count - %s WHERE deal_id = %s AND score = %s",
                    [-by, deal_id, score],
                )
                cursor.execute(
                    f"DELETE FROM {table} WHERE deal_id = %s AND score = %s AND count = 0",
                    [deal_id, score],
                )


def duplicate_forget_on_delete(*, user: User, **_signal: object) -> None:
    """Take a deleted account's results out of their deals (``accounts.signals.user_deleting``)."""
    _deal_scores_change(Counter(), _counted(PlayerResult.objects.filter(user=user)))


@transaction.atomic
def duplicate_rebuild() -> int:
    """Give every shareable result its deal and recount every deal's table from the results.

    What the finishes and moderation keep by differences, recomputed: the two must agree.
    Returns the number of (deal, score) rows.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {DealScore._meta.db_table} IN SHARE ROW EXCLUSIVE MODE")
    unlinked = PlayerResult.objects.filter(deal__isnull=True)
    shared = unlinked.filter(Q(mode=Game.Mode.MULTI) | Q(game__daily__isnull=False))
    for seed, ruleset in set(shared.values_list("game__seed", "ruleset")):
        deal_register(seed=seed, ruleset=ruleset)
    for deal_id, seed, ruleset in Deal.objects.values_list("pk", "seed", "ruleset"):
        unlinked.filter(game__seed=seed, ruleset=ruleset).update(deal_id=deal_id)
    DealScore.objects.all().delete()
    rows = DealScore.objects.bulk_create(
        (
            DealScore(deal_id=deal_id, score=score, count=count)
            for (deal_id, score), count in _counted(PlayerResult.objects.all()).items()
        ),
        batch_size=5000,
    )
    return len(rows)


def _result_for(
    game: Game, seat: Seat, state: rules.Game, *, hidden: bool, deal_id: int | None
) -> PlayerResult:
    # Computer players' seats never get here: they have no user and no results.
    assert seat.score is not None and game.finished_at is not None and seat.user_id is not None
    points = dict.fromkeys(rules.Profession, 0)
    for worker in state.boards[player_key(seat)].landscape.score().workers:
        if worker.counted:
            points[worker.profession] += worker.points
    return PlayerResult(
        seat=seat,
        game=game,
        user_id=seat.user_id,
        mode=game.mode,
        ruleset=game.ruleset,
        score=seat.score,
        place=seat.place,
        finished_at=game.finished_at,
        hidden=hidden,
        deal_id=deal_id,
        rating_after=seat.rating_after,
        **{profession.value: points[profession] for profession in rules.Profession},
    )


def _totals_add(result: PlayerResult) -> None:
    # One statement: the player's first game of this kind inserts the row, a later one adds
    # to it. The upsert's row lock orders concurrent finishes of one player.
    added = {
        "games": 1,
        "score_sum": result.score,
        **{p.value: getattr(result, p.value) for p in rules.Profession},
        **dict.fromkeys((band_field(band) for band in rules.SoloRating), 0),
    }
    if result.mode == Game.Mode.SOLO:
        added[band_field(rules.solo_rating(result.score))] = 1
    table = PlayerTotals._meta.db_table
    values: dict[str, Any] = {
        "user_id": result.user_id,
        "mode": result.mode,
        "ruleset": result.ruleset,
        "best": result.score,
        **added,
    }
    sums = ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in added)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(values)}) "
            f"VALUES ({', '.join(f'%({name})s' for name in values)}) "
            f"ON CONFLICT (user_id, mode, ruleset) DO UPDATE SET {sums}, best = CASE "
            f"WHEN {table}.best IS NULL OR {table}.best < excluded.best THEN excluded.best "
            f"ELSE {table}.best END",
            values,
        )


def _totals_rebuild(user: User) -> None:
    PlayerTotals.objects.filter(user=user).delete()
    bands = {
        band_field(band): Count(
            "id",
            filter=Q(mode=Game.Mode.SOLO, score__gte=band.lowest)
            & (Q() if band.highest is None else Q(score__lte=band.highest)),
        )
        for band in rules.SoloRating
    }
    sums = (
        PlayerResult.objects.filter(user=user, hidden=False)
        .values("mode", "ruleset")
        .annotate(
            games=Count("id"),
            score_sum=Sum("score"),
            best=Max("score"),
            **{p.value: Sum(p.value) for p in rules.Profession},
            **bands,
        )
        .order_by()
    )
    PlayerTotals.objects.bulk_create(PlayerTotals(user=user, **row) for row in sums)


def _locked_standing(*, user_id: int, ruleset: str) -> tuple[SoloStanding, bool]:
    """The standing row, locked, and whether it was just created.

    Two games of one player finishing at once queue on this lock, so the second one
    reads the first one's committed result.
    """
    rows = SoloStanding.objects.select_for_update().filter(user_id=user_id, ruleset=ruleset)
    standing = rows.first()
    if standing is not None:
        return standing, False
    SoloStanding.objects.bulk_create(
        [SoloStanding(user_id=user_id, ruleset=ruleset)], ignore_conflicts=True
    )
    return rows.get(), True


def _recent_average(
    visible: QuerySet[PlayerResult],
) -> tuple[float | None, datetime.datetime | None]:
    recent = list(
        visible.order_by("-finished_at", "-id").values_list("score", "finished_at")[:RECENT_GAMES]
    )
    if len(recent) < RECENT_GAMES:
        return None, None
    return sum(score for score, _at in recent) / RECENT_GAMES, recent[0][1]


def _visible_solo(*, user_id: int, ruleset: str) -> QuerySet[PlayerResult]:
    return PlayerResult.objects.filter(
        user_id=user_id, mode=Game.Mode.SOLO, ruleset=ruleset, hidden=False
    )


def _solo_standing_add(result: PlayerResult) -> None:
    if not internals.in_use():
        # The plain ORM's way to the same row: everything counted afresh under its lock.
        _solo_standing_refresh(user_id=result.user_id, ruleset=result.ruleset)
        return
    table = SoloStanding._meta.db_table
    row: dict[str, Any] = {"user_id": result.user_id, "ruleset": result.ruleset}
    # First the row, inserted empty if missing, and its lock: two games of one player
    # finishing at once queue here, and the next statement reads the first one's result.
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (user_id, ruleset, games) VALUES (%(user_id)s, %(ruleset)s, 0) "
            f"ON CONFLICT (user_id, ruleset) DO UPDATE SET games = {table}.games",
            row,
        )
    visible = _visible_solo(user_id=result.user_id, ruleset=result.ruleset)
    recent, recent_params = internals.sql_named(
        visible.order_by("-finished_at", "-id").values("score", "finished_at")[:RECENT_GAMES],
        "recent",
    )
    ranked = visible.order_by("-score", "finished_at", "id")
    best, best_params = internals.sql_named(
        ranked.values("score", "game_id", "finished_at")[:1], "best"
    )
    count, count_params = internals.sql_named(visible.order_by().values("id"), "visible")

    def first_best(column: str) -> str:
        return f"(SELECT {column} FROM ({best}) AS best)"

    # Then one UPDATE. The common case, one more visible result, adjusts the row; a row
    # just inserted (no games yet, yet maybe earlier results, finished before the boards)
    # counts them all. Strictly better only: an equal score later keeps the earlier
    # achievement. The recent average is read afresh under the lock either way.
    better = f"{table}.best_score IS NULL OR {table}.best_score < %(score)s"
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET "
            f"games = CASE WHEN {table}.games = 0 THEN (SELECT COUNT(*) FROM ({count}) AS n) "
            f"ELSE {table}.games + 1 END, "
            f"best_score = CASE WHEN {table}.games = 0 THEN {first_best('score')} "
            f"WHEN {better} THEN %(score)s ELSE {table}.best_score END, "
            f"best_game_id = CASE WHEN {table}.games = 0 THEN {first_best('game_id')} "
            f"WHEN {better} THEN %(game_id)s ELSE {table}.best_game_id END, "
            f"best_at = CASE WHEN {table}.games = 0 THEN {first_best('finished_at')} "
            f"WHEN {better} THEN %(finished_at)s ELSE {table}.best_at END, "
            f"recent_average = (SELECT CASE WHEN COUNT(*) = {RECENT_GAMES} "
            f"THEN SUM(score) * 1.0 / {RECENT_GAMES} END FROM ({recent}) AS recent), "
            f"recent_at = (SELECT CASE WHEN COUNT(*) = {RECENT_GAMES} "
            f"THEN MAX(finished_at) END FROM ({recent}) AS recent) "
            f"WHERE user_id = %(user_id)s AND ruleset = %(ruleset)s",
            {
                **count_params,
                **best_params,
                **recent_params,
                **row,
                "score": result.score,
                "game_id": result.game_id,
                "finished_at": connection.ops.adapt_datetimefield_value(result.finished_at),
            },
        )


def _solo_standing_refresh(
    *, user_id: int, ruleset: str, locked: SoloStanding | None = None
) -> None:
    standing = locked or _locked_standing(user_id=user_id, ruleset=ruleset)[0]
    visible = _visible_solo(user_id=user_id, ruleset=ruleset)
    best = (
        visible.order_by("-score", "finished_at", "id")
        .values("score", "game_id", "finished_at")
        .first()
    )
    if best is None:
        standing.delete()
        return
    standing.games = visible.count()
    standing.best_score = best["score"]
    standing.best_game_id = best["game_id"]
    standing.best_at = best["finished_at"]
    standing.recent_average, standing.recent_at = _recent_average(visible)
    standing.save()


def _weekly_best_offer(result: PlayerResult) -> None:
    # One statement: the week's first result, or a strictly better one (a tie keeps the
    # earlier achievement). Runs under the standing's row lock (same player and ruleset).
    table = WeeklyBest._meta.db_table
    ops = connection.ops
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (user_id, ruleset, week, score, game_id, achieved_at) "
            "VALUES (%s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (user_id, ruleset, week) DO UPDATE SET score = excluded.score, "
            "game_id = excluded.game_id, achieved_at = excluded.achieved_at "
            f"WHERE {table}.score < excluded.score",
            [
                result.user_id,
                result.ruleset,
                ops.adapt_datefield_value(week_start(result.finished_at)),
                result.score,
                result.game_id,
                ops.adapt_datetimefield_value(result.finished_at),
            ],
        )


def _locked_ratings(*, user_ids: list[int], ruleset: str) -> dict[int, PlayerRating]:
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                user_id=user_id,
                ruleset=ruleset,
                mu=INITIAL.mu,
                sigma=INITIAL.sigma,
                ordinal=INITIAL.ordinal,
            )
            for user_id in user_ids
        ],
        ignore_conflicts=True,
    )
    # Locked in one order everywhere, so two games sharing players cannot deadlock.
    locked = (
        PlayerRating.objects.select_for_update()
        .filter(user_id__in=user_ids, ruleset=ruleset)
        .order_by("user_id")
    )
    return {rating.user_id: rating for rating in locked}


def _game_rate(game: Game, seats: list[Seat]) -> None:
    placed = [seat for seat in seats if seat.place is not None]
    if len(placed) < 2 or not _anyone_played([seat.rounds_played for seat in seats]):
        return
    # Only games of people are rated (see game_finished).
    user_ids = [seat.user_id for seat in placed if seat.user_id is not None]
    assert len(user_ids) == len(placed)
    ratings = _locked_ratings(user_ids=user_ids, ruleset=game.ruleset)
    # Stamped again under the ratings' locks: games sharing a player are rated in the
    # order they hold these locks, and ``ratings_recompute`` replays them by this time,
    # so the two orders must be one. Stamped before the locks, a game that waited for
    # them would be replayed before the game it waited for.
    game.finished_at = timezone.now()
    before = [ratings[user_id] for user_id in user_ids]
    after = rate(
        [Skill(r.mu, r.sigma) for r in before],
        [seat.place for seat in placed if seat.place is not None],
    )
    for seat, rating, skill in zip(placed, before, after, strict=True):
        seat.rating_before = rating.ordinal
        seat.rating_after = skill.ordinal
        rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
        rating.games += 1
        rating.last_game_at = game.finished_at
    PlayerRating.objects.bulk_update(before, ["mu", "sigma", "ordinal", "games", "last_game_at"])
    Seat.objects.bulk_update(placed, ["rating_before", "rating_after"])


@transaction.atomic
def player_stats_rebuild(*, user: User) -> None:
    """Recompute ``user``'s results, solo standings and weekly bests from their games.

    Honours the moderation flags (``Game.hidden``, ``SoloResult.hidden``) and the seals
    (``Game.sealed_until``): call it for each player of a game after hiding or unhiding
    it. Multiplayer ratings depend on every player's games; ``ratings_recompute``
    rebuilds those.
    """
    counted_before = _counted(PlayerResult.objects.filter(user=user))
    missing = (
        Seat.objects.filter(
            user=user, game__status=Game.Status.FINISHED, score__isnull=False, result__isnull=True
        )
        .select_related("game")
        .order_by("game__finished_at")
    )
    created = []
    for seat in missing:
        seats = list(seat.game.seats.select_related("user"))
        state = rules_game(seat.game, seats)
        mine = next(s for s in seats if s.pk == seat.pk)
        created.append(
            _result_for(seat.game, mine, state, hidden=False, deal_id=_deal_of(seat.game))
        )
    PlayerResult.objects.bulk_create(created)
    mine_all = PlayerResult.objects.filter(user=user)
    mine_all.update(hidden=False)
    mine_all.filter(game__hidden=True).update(hidden=True)
    mine_all.filter(game__assisted=True).update(hidden=True)
    mine_all.filter(game__solo_result__hidden=True).update(hidden=True)
    mine_all.filter(sealed(game="game__")).update(hidden=True)
    _deal_scores_change(_counted(mine_all), counted_before)
    for ruleset in Ruleset.values:
        _solo_standing_refresh(user_id=user.pk, ruleset=ruleset)
    _weekly_bests_rebuild(user)
    _totals_rebuild(user)


def _weekly_bests_rebuild(user: User) -> None:
    WeeklyBest.objects.filter(user=user).delete()
    best: dict[tuple[str, datetime.date], PlayerResult] = {}
    visible = PlayerResult.objects.filter(user=user, mode=Game.Mode.SOLO, hidden=False)
    # Oldest first and strictly better only: a tie keeps the earlier achievement.
    for result in visible.order_by("finished_at", "id"):
        key = (result.ruleset, week_start(result.finished_at))
        if key not in best or result.score > best[key].score:
            best[key] = result
    WeeklyBest.objects.bulk_create(
        WeeklyBest(
            user=user,
            ruleset=ruleset,
            week=week,
            score=result.score,
            game_id=result.game_id,
            achieved_at=result.finished_at,
        )
        for (ruleset, week), result in best.items()
    )


@dataclass
class _Tally:
    skill: Skill = INITIAL
    games: int = 0
    last_game_at: datetime.datetime | None = None


def _anyone_played(rounds_played: Iterable[int]) -> bool:
    # A game nobody played a card of (accepted, then left to the clock) is not rated:
    # otherwise ratings could be farmed by accepting games and abandoning them.
    return any(rounds_played)


@transaction.atomic
def ratings_recompute() -> int:
    """Replay every finished, visible multiplayer game in finishing order; rewrite ratings.

    Rewrites ``PlayerRating`` and each multiplayer seat's ``rating_before``/``rating_after``
    (cleared on hidden games). Returns the number of games rated.
    """
    if connection.vendor == "postgresql":
        # Games finishing meanwhile wait for the replay instead of rating from stale rows.
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {PlayerRating._meta.db_table} IN SHARE ROW EXCLUSIVE MODE")
    tallies: dict[tuple[int, str], _Tally] = defaultdict(_Tally)
    changed: list[tuple[float | None, float | None, int]] = []
    rated = 0
    rows = (
        Seat.objects.filter(game__mode=Game.Mode.MULTI, game__status=Game.Status.FINISHED)
        # Games with computer players are never rated.
        .exclude(game__seats__user__isnull=True)
        .order_by("game__finished_at", "game_id", "position")
        .values_list(
            "id",
            "game_id",
            "user_id",
            "place",
            "game__ruleset",
            "game__finished_at",
            "game__hidden",
            "rating_before",
            "rating_after",
            "rounds_played",
        )
    )
    game_rows: list[tuple[Any, ...]] = []
    for row in [*rows.iterator(chunk_size=5000), None]:
        if game_rows and (row is None or row[1] != game_rows[0][1]):
            rated += _replay_game(game_rows, tallies, changed)
            game_rows = []
        if row is not None:
            game_rows.append(row)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {Seat._meta.db_table} SET rating_before = %s, rating_after = %s WHERE id = %s",
            changed,
        )
        cursor.executemany(
            f"UPDATE {PlayerResult._meta.db_table} SET rating_after = %s WHERE seat_id = %s",
            [(after, seat_id) for _before, after, seat_id in changed],
        )
    PlayerRating.objects.all().delete()
    PlayerRating.objects.bulk_create(
        (
            PlayerRating(
                user_id=user_id,
                ruleset=ruleset,
                mu=tally.skill.mu,
                sigma=tally.skill.sigma,
                ordinal=tally.skill.ordinal,
                games=tally.games,
                last_game_at=tally.last_game_at,
            )
            for (user_id, ruleset), tally in tallies.items()
        ),
        batch_size=5000,
    )
    return rated


def _replay_game(
    game_rows: list[tuple[Any, ...]],
    tallies: dict[tuple[int, str], _Tally],
    changed: list[tuple[float | None, float | None, int]],
) -> int:
    placed = [row for row in game_rows if row[3] is not None]
    hidden = game_rows[0][6]
    new: dict[int, tuple[float | None, float | None]] = {}
    if not hidden and len(placed) >= 2 and _anyone_played(row[9] for row in game_rows):
        keys = [(row[2], row[4]) for row in placed]
        after = rate([tallies[key].skill for key in keys], [row[3] for row in placed])
        for row, key, skill in zip(placed, keys, after, strict=True):
            tally = tallies[key]
            new[row[0]] = (tally.skill.ordinal, skill.ordinal)
            tally.skill = skill
            tally.games += 1
            tally.last_game_at = row[5]
    for row in game_rows:
        before, after_ordinal = new.get(row[0], (None, None))
        if (before, after_ordinal) != (row[7], row[8]):
            changed.append((before, after_ordinal, row[0]))
    return 1 if new else 0


# -- Carcassonne: Winter Edition -----------------------------------------------------------


def winter_rated_seats(seats: Iterable[WinterSeat]) -> list[WinterSeat]:
    """The seats of a finished Winter game whose people it rates: every person's, when two
    or more people sat at it and at least one of them played it to its end; else none.

    Computers are left out (a bot's strength is not a rating): the people are rated by
    their places among themselves. A game every person resigned from was played out by
    computers alone and rates nobody.
    """
    people = [seat for seat in seats if seat.user_id is not None and seat.place is not None]
    if len(people) < 2 or all(seat.resigned for seat in people):
        return []
    return people


# No savepoint of its own: it runs inside the transaction that finishes the game.
@transaction.atomic(savepoint=False)
def winter_game_finished(*, game: WinterGame, seats: list[WinterSeat], **_signal: object) -> None:
    """Update the Winter ratings of a finished game's people (called inside its
    transaction, by ``wintergames.signals.winter_game_finished``).

    A game a moderator hid while it ran rates nobody, as ``winter_ratings_recompute``
    replays it.
    """
    rated = [] if game.hidden else winter_rated_seats(seats)
    if not rated:
        return
    user_ids = [seat.user_id for seat in rated if seat.user_id is not None]
    WinterRating.objects.bulk_create(
        [_winter_rating_new(user_id) for user_id in user_ids], ignore_conflicts=True
    )
    # Locked in one order everywhere, so two games sharing players cannot deadlock.
    locked = (
        WinterRating.objects.select_for_update().filter(user_id__in=user_ids).order_by("user_id")
    )
    ratings = {rating.user_id: rating for rating in locked}
    # Stamped again under the ratings' locks, as a Limes game is (``_game_rate``): the
    # replay (``winter_ratings_recompute``) goes by this time, so it must be the order in
    # which games sharing a player took these locks. (The game is saved after its signal.)
    game.finished_at = finished_at = timezone.now()
    before = [ratings[user_id] for user_id in user_ids]
    moved = _winter_rate(before, rated, finished_at)
    WinterRating.objects.bulk_update(before, ["mu", "sigma", "ordinal", "games", "last_game_at"])
    changes = _winter_changes(game.pk, rated, moved, finished_at)
    winter_rating_changes_write(changes=changes, game_ids=[game.pk])


def _winter_rating_new(user_id: int) -> WinterRating:
    return WinterRating(
        user_id=user_id, mu=INITIAL.mu, sigma=INITIAL.sigma, ordinal=INITIAL.ordinal, games=0
    )


def _winter_rate(
    ratings: list[WinterRating], rated: list[WinterSeat], at: datetime.datetime
) -> list[tuple[float, float]]:
    # The one step of the Winter ratings, for the live update and the replay alike:
    # ``ratings`` are the people of ``rated`` (``winter_rated_seats``), in that order.
    # Returns each one's ordinal before and after the game.
    after = rate(
        [Skill(r.mu, r.sigma) for r in ratings],
        [seat.place for seat in rated if seat.place is not None],
    )
    moved = []
    for rating, skill in zip(ratings, after, strict=True):
        moved.append((rating.ordinal, skill.ordinal))
        rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
        rating.games += 1
        rating.last_game_at = at
    return moved


@transaction.atomic
def winter_ratings_recompute() -> int:
    """Replay every finished Winter game no moderator hid, in finishing order, through
    the live update's step (``winter_rated_seats``, then ``_winter_rate``), and rewrite
    every ``WinterRating`` from it. Returns the number of games rated.

    Moderation calls it when a Winter game is hidden or shown again
    (``manage.py recompute_winter_ratings`` runs it by hand).
    """
    if connection.vendor == "postgresql":
        # Games finishing meanwhile wait for the replay instead of rating from stale rows.
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {WinterRating._meta.db_table} IN SHARE ROW EXCLUSIVE MODE")
    seats = (
        WinterSeat.objects.filter(game__status=WinterGame.Status.FINISHED, game__hidden=False)
        .select_related("game")
        .only("id", "game_id", "user_id", "place", "resigned", "game__finished_at")
        .order_by("game__finished_at", "game_id", "position")
    )
    tallies: dict[int, WinterRating] = {}
    changes: list[WinterRatingChange] = []
    rated_games = 0
    for _game_id, game_seats in groupby(seats.iterator(chunk_size=5000), key=lambda s: s.game_id):
        played = list(game_seats)
        rated = winter_rated_seats(played)
        if not rated:
            continue
        ratings = [
            tallies.setdefault(seat.user_id, _winter_rating_new(seat.user_id))
            for seat in rated
            if seat.user_id is not None
        ]
        at = played[0].game.finished_at or timezone.now()
        moved = _winter_rate(ratings, rated, at)
        changes.extend(_winter_changes(played[0].game_id, rated, moved, at))
        rated_games += 1
    WinterRating.objects.all().delete()
    WinterRating.objects.bulk_create(tallies.values(), batch_size=5000)
    winter_rating_changes_write(changes=changes, game_ids=None)
    return rated_games


def _winter_changes(
    game_id: int, rated: list[WinterSeat], moved: list[tuple[float, float]], at: datetime.datetime
) -> list[WinterRatingChange]:
    """What one rated game did to its people's ratings (``moved``: ``_winter_rate``'s).

    ``rated`` are people only (``winter_rated_seats``).
    """
    changes = []
    for seat, (old, new) in zip(rated, moved, strict=True):
        assert seat.user_id is not None
        changes.append(
            WinterRatingChange(
                seat_id=seat.pk,
                game_id=game_id,
                user_id=seat.user_id,
                rating_before=old,
                rating_after=new,
                finished_at=at,
            )
        )
    return changes


def winter_rating_changes_write(
    *, changes: Iterable[WinterRatingChange], game_ids: Iterable[int] | None
) -> int:
    """Record what rated Winter games did to their people's ratings: ``changes`` (unsaved
    rows, one per rated seat, ordinals before and after) replace whatever was recorded of
    the games ``game_ids``, or of every game when it is None (a replay of them all).

    The one writer of ``WinterRatingChange``: the finish of a game (``winter_game_finished``)
    and a replay of the ratings call it alike, so the game page and the profile read the
    same figures either way. A game of ``game_ids`` without a change (no longer rated:
    hidden, say) keeps no record. Runs in the caller's transaction; returns the rows written.
    """
    with transaction.atomic(savepoint=False):
        old = WinterRatingChange.objects.all()
        if game_ids is not None:
            old = old.filter(game_id__in=list(game_ids))
        old.delete()
        return len(WinterRatingChange.objects.bulk_create(changes, batch_size=5000))
