"""Fill a scratch PostgreSQL database with synthetic players and finished games, fast.

    export DATABASE_URL=postgresql://postgres@127.0.0.1:5432/limes_bench
    python benchmarks/synthesize.py --players 50000 --solo 1000000 --multi 100000 \
        [--days 365] [--seed 0]

For measuring the boards at size (benchmarks/leaderboard_speed.py), never for a real
site: it refuses a database that already holds games. Rows go in with COPY; the boards'
own tables are then derived in SQL (solo standings, weekly bests, totals) and, for
ratings, by replaying the multiplayer games in order with the rating code the site uses.
Places are decided by ``rules.rank``, as a finished game decides them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.test")

import django  # noqa: E402

django.setup()

from django.db import connection, models, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

import rules  # noqa: E402
from accounts.models import User  # noqa: E402
from games.models import Game, Ruleset, Seat, SoloResult  # noqa: E402
from games.rebuild import deck  # noqa: E402
from leaderboards.models import RECENT_GAMES, PlayerRating, PlayerResult, band_field  # noqa: E402
from leaderboards.rating import INITIAL, Skill, rate  # noqa: E402

BATCH = 50_000
RULESET_WEIGHTS = {
    Ruleset.STANDARD: 0.55,
    Ruleset.DIAGONAL: 0.15,
    Ruleset.FERRYMAN: 0.15,
    Ruleset.BOTH: 0.15,
}
PROFESSIONS = [p.value for p in rules.Profession]
GAME_COLUMNS = [
    "id",
    "mode",
    "status",
    "diagonal",
    "ferryman",
    "ruleset",
    "seed",
    "deck_name",
    "cards",
    "round",
]
RESULT_COLUMNS = [
    "seat_id",
    "game_id",
    "user_id",
    "mode",
    "ruleset",
    "score",
    "place",
    "finished_at",
    "hidden",
]


def _column(field: models.Field[Any, Any]) -> str:
    # Concrete fields, the only ones copied, always have a column.
    assert field.column is not None
    return field.column


class _Copier:
    """COPY rows of a model, giving only some columns; the others get their defaults."""

    def __init__(self, model: type[models.Model], columns: Sequence[str]) -> None:
        self.table = model._meta.db_table
        now = timezone.now()
        # An id not given is left to the table's sequence.
        self.fields = [
            f
            for f in model._meta.concrete_fields
            if not (f.primary_key and f.attname not in columns)
        ]
        self.plan: list[tuple[int | None, Any]] = []
        for model_field in self.fields:
            if model_field.attname in columns:
                self.plan.append((columns.index(model_field.attname), None))
                continue
            if model_field.has_default():
                default = model_field.get_default()
            elif getattr(model_field, "auto_now", False) or getattr(
                model_field, "auto_now_add", False
            ):
                default = now
            elif model_field.null:
                default = None
            elif isinstance(model_field, models.CharField | models.TextField):
                default = ""
            else:
                raise SystemExit(f"{self.table}.{model_field.column} needs a value")
            if isinstance(model_field, models.JSONField):
                default = json.dumps(default)
            self.plan.append((None, default))

    def copy(self, rows: Iterable[Sequence[Any]]) -> int:
        columns = ", ".join(connection.ops.quote_name(_column(f)) for f in self.fields)
        plan = self.plan
        count = 0
        with connection.cursor() as wrapper:
            raw = wrapper.cursor
            with raw.copy(f"COPY {self.table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row([row[i] if i is not None else d for i, d in plan])
                    count += 1
        return count


def _weighted_players(rng: random.Random, user_ids: list[int], count: int) -> list[int]:
    # A few players play a great deal, most a little: a Pareto weight per player.
    weights = [rng.paretovariate(1.3) for _ in user_ids]
    return rng.choices(user_ids, weights=weights, k=count)


def _professions(rng: random.Random, score: int) -> list[int]:
    cuts = sorted(rng.randint(0, score) for _ in range(3))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], score - cuts[2]]


def places_of(scores: dict[int, int], resigned: set[int]) -> dict[int, rules.Standing]:
    """Each player's standing as a finished game gives it: those still playing ranked by
    ``rules.rank``, then those who resigned (all after 16 rounds here, so sharing a place).

    Synthetic scores have no workers, hence no tie-break beyond the total.
    """
    as_score = {str(uid): rules.Score(scores[uid], (), ()) for uid in scores}
    staying = {key: score for key, score in as_score.items() if int(key) not in resigned}
    ranking = list(rules.rank(staying))
    left = tuple(str(uid) for uid in scores if uid in resigned)
    if left:
        ranking.append(left)
    outcome = rules.Outcome(as_score, tuple(ranking))
    return {int(standing.player): standing for standing in outcome.standings}


@dataclass
class _Tally:
    skill: Skill = INITIAL
    games: int = 0
    last_game_at: datetime.datetime | None = None


@dataclass
class Synthesizer:
    """One run: its random source, its clock, and the players' hidden skill."""

    rng: random.Random
    days: int
    now: datetime.datetime = field(default_factory=timezone.now)
    skill: dict[int, float] = field(default_factory=dict)
    tallies: dict[tuple[int, str], _Tally] = field(default_factory=dict)

    def __post_init__(self) -> None:
        the_deck = deck()
        # One dealt card list for every game: the boards never look at the cards.
        self.cards = json.dumps(list(the_deck.deal(random.Random(1))))
        self.deck_name = the_deck.name

    def moment(self) -> datetime.datetime:
        return self.now - datetime.timedelta(seconds=self.rng.uniform(60, self.days * 86400))

    def score(self, uid: int) -> int:
        return max(5, min(70, round(self.rng.gauss(38 + self.skill[uid], 6))))

    def ruleset(self) -> str:
        weights = list(RULESET_WEIGHTS.values())
        return self.rng.choices(list(RULESET_WEIGHTS), weights=weights)[0]

    def game_row(self, gid: int, mode: str, ruleset: str) -> tuple[Any, ...]:
        """The columns of GAME_COLUMNS of a finished game."""
        flags = Ruleset(ruleset).flags
        return (gid, mode, "finished", *flags, ruleset, gid, self.deck_name, self.cards, 17)

    # -- players ------------------------------------------------------------------------

    def users(self, count: int) -> list[int]:
        rng = self.rng
        first = _next_id(User)
        ids = list(range(first, first + count))
        self.skill = {uid: rng.gauss(0, 4) for uid in ids}
        joined = self.now - datetime.timedelta(days=self.days + 1)
        rows = []
        for uid in ids:
            roll = rng.random()
            banned = self.now + datetime.timedelta(days=30) if roll < 0.005 else None
            deleted = self.now if 0.005 <= roll < 0.007 else None
            email = f"synthetic{uid}@example.invalid"
            rows.append((uid, "!", f"synthetic{uid}", email, joined, banned, deleted))
        columns = ["id", "password", "username", "email", "date_joined", "banned_until"]
        _Copier(User, [*columns, "deleted_at"]).copy(rows)
        return ids

    # -- solo games ---------------------------------------------------------------------

    def solo(self, users: list[int], count: int) -> None:
        rng = self.rng
        players = _weighted_players(rng, users, count)
        weights = list(RULESET_WEIGHTS.values())
        rulesets = rng.choices(list(RULESET_WEIGHTS), weights=weights, k=count)
        first_game, first_seat = _next_id(Game), _next_id(Seat)
        games = _Copier(
            Game,
            [
                *GAME_COLUMNS,
                "daily",
                "created_by_id",
                "created_at",
                "started_at",
                "finished_at",
                "hidden",
            ],
        )
        seats = _Copier(
            Seat,
            ["id", "game_id", "user_id", "position", "rounds_played", "score", "tiebreak", "place"],
        )
        results = _Copier(
            SoloResult,
            [
                "game_id",
                "user_id",
                "ruleset",
                "score",
                "rating",
                "finished_at",
                "daily",
                "abandoned",
                "hidden",
            ],
        )
        mine = _Copier(PlayerResult, [*RESULT_COLUMNS, *PROFESSIONS])
        dailies: set[tuple[int, datetime.date]] = set()
        for start in range(0, count, BATCH):
            batch = [
                (first_game + i, first_seat + i, *self.solo_game(players[i], rulesets[i], dailies))
                for i in range(start, min(count, start + BATCH))
            ]
            games.copy(
                (*self.game_row(gid, "solo", r), daily, uid, at, at, at, hidden)
                for gid, _sid, uid, r, at, daily, hidden, _score in batch
            )
            seats.copy(
                (sid, gid, uid, 1, 16, score, "[]", 1)
                for gid, sid, uid, _r, _at, _d, _h, score in batch
            )
            results.copy(
                (gid, uid, r, score, rules.solo_rating(score).value, at, daily, False, hidden)
                for gid, _sid, uid, r, at, daily, hidden, score in batch
            )
            mine.copy(
                (sid, gid, uid, "solo", r, score, 1, at, hidden, *_professions(rng, score))
                for gid, sid, uid, r, at, _d, hidden, score in batch
            )

    def solo_game(
        self, uid: int, ruleset: str, dailies: set[tuple[int, datetime.date]]
    ) -> tuple[Any, ...]:
        """One solo game: player, ruleset, moment, daily day (or None), hidden, score."""
        at = self.moment()
        day = at.date()
        recent = day >= self.now.date() - datetime.timedelta(days=60)
        daily = None
        # About 30% of recent standard games are that day's challenge, one a player a day.
        if (
            ruleset == Ruleset.STANDARD
            and recent
            and (uid, day) not in dailies
            and self.rng.random() < 0.3
        ):
            dailies.add((uid, day))
            daily = day
        hidden = self.rng.random() < 0.001
        return (uid, ruleset, at, daily, hidden, self.score(uid))

    # -- multiplayer games --------------------------------------------------------------

    def multi(self, users: list[int], count: int) -> None:
        rng = self.rng
        moments = sorted(self.moment() for _ in range(count))
        pool = _weighted_players(rng, users, count * 4)
        first_game, next_seat = _next_id(Game), _next_id(Seat)
        games = _Copier(
            Game,
            [
                *GAME_COLUMNS,
                "seats_max",
                "pace",
                "created_by_id",
                "created_at",
                "started_at",
                "finished_at",
            ],
        )
        seat_columns = ["id", "game_id", "user_id", "position", "status", "rounds_played"]
        seats = _Copier(
            Seat,
            [
                *seat_columns,
                "rating_before",
                "rating_after",
                "score",
                "tiebreak",
                "place",
                "shared_place",
            ],
        )
        mine = _Copier(PlayerResult, [*RESULT_COLUMNS, "rating_after", *PROFESSIONS])
        rows: tuple[list[Any], list[Any], list[Any]] = ([], [], [])
        for n, at in enumerate(moments):
            players = self.table_of(users, pool[n * 4 : n * 4 + rng.choice((2, 2, 3, 3, 4))])
            if players is None:
                continue
            next_seat = self.multi_game(first_game + n, players, at, next_seat, rows)
            if len(rows[0]) >= BATCH:
                _copy_all((games, seats, mine), rows)
                rows = ([], [], [])
        _copy_all((games, seats, mine), rows)
        _Copier(
            PlayerRating, ["user_id", "ruleset", "mu", "sigma", "ordinal", "games", "last_game_at"]
        ).copy(
            (uid, ruleset, t.skill.mu, t.skill.sigma, t.skill.ordinal, t.games, t.last_game_at)
            for (uid, ruleset), t in self.tallies.items()
        )

    def table_of(self, users: list[int], drawn: list[int]) -> list[int] | None:
        """The distinct players of one game (at least two), or None."""
        players = list(dict.fromkeys(drawn))
        if len(players) < 2:
            players.append(self.rng.choice(users))
            players = list(dict.fromkeys(players))
        return players if len(players) >= 2 else None

    def multi_game(
        self,
        gid: int,
        players: list[int],
        at: datetime.datetime,
        next_seat: int,
        rows: tuple[list[Any], list[Any], list[Any]],
    ) -> int:
        """Add one rated game's rows (game, seats, results); returns the next seat id."""
        rng = self.rng
        game_rows, seat_rows, result_rows = rows
        ruleset = self.ruleset()
        resigned = {uid for uid in players if rng.random() < 0.03}
        scores = {uid: self.score(uid) // (3 if uid in resigned else 1) for uid in players}
        standings = places_of(scores, resigned)
        tallies = [self.tallies.setdefault((uid, ruleset), _Tally()) for uid in players]
        before = [tally.skill for tally in tallies]
        after = rate(before, [standings[uid].place for uid in players])
        for tally, skill in zip(tallies, after, strict=True):
            tally.skill, tally.games, tally.last_game_at = skill, tally.games + 1, at
        game_rows.append(
            (*self.game_row(gid, "multi", ruleset), len(players), "live", players[0], at, at, at)
        )
        for position, (uid, old, new) in enumerate(zip(players, before, after, strict=True), 1):
            place, shared = standings[uid].place, standings[uid].shared
            status = "resigned" if uid in resigned else "playing"
            seat_rows.append(
                (
                    next_seat,
                    gid,
                    uid,
                    position,
                    status,
                    16,
                    old.ordinal,
                    new.ordinal,
                    scores[uid],
                    "[]",
                    place,
                    shared,
                )
            )
            result_rows.append(
                (
                    next_seat,
                    gid,
                    uid,
                    "multi",
                    ruleset,
                    scores[uid],
                    place,
                    at,
                    False,
                    new.ordinal,
                    *_professions(rng, scores[uid]),
                )
            )
            next_seat += 1
        return next_seat


def _copy_all(copiers: Sequence[_Copier], rows: Sequence[list[Any]]) -> None:
    for copier, batch in zip(copiers, rows, strict=True):
        copier.copy(batch)


def _next_id(model: type[models.Model]) -> int:
    last = model._default_manager.order_by("-pk").values_list("pk", flat=True).first()
    return (last or 0) + 1


# -- the boards' own tables, derived in SQL ------------------------------------------------

RESULTS = PlayerResult._meta.db_table


def derive_solo_standings(cursor: Any) -> None:
    cursor.execute(
        f"""
        INSERT INTO leaderboards_solostanding
            (user_id, ruleset, games, best_score, best_game_id, best_at,
             recent_average, recent_at)
        SELECT b.user_id, b.ruleset, c.games, b.score, b.game_id, b.finished_at,
               r.average, r.at
        FROM (
            SELECT DISTINCT ON (user_id, ruleset)
                user_id, ruleset, score, game_id, finished_at
            FROM {RESULTS} WHERE mode = 'solo' AND NOT hidden
            ORDER BY user_id, ruleset, score DESC, finished_at, id
        ) b
        JOIN (
            SELECT user_id, ruleset, count(*) AS games FROM {RESULTS}
            WHERE mode = 'solo' AND NOT hidden GROUP BY user_id, ruleset
        ) c USING (user_id, ruleset)
        LEFT JOIN (
            SELECT user_id, ruleset, avg(score) AS average, max(finished_at) AS at
            FROM (
                SELECT user_id, ruleset, score, finished_at, row_number() OVER (
                    PARTITION BY user_id, ruleset ORDER BY finished_at DESC, id DESC
                ) AS n
                FROM {RESULTS} WHERE mode = 'solo' AND NOT hidden
            ) latest
            WHERE n <= %s GROUP BY user_id, ruleset HAVING count(*) = %s
        ) r USING (user_id, ruleset)
        """,
        [RECENT_GAMES, RECENT_GAMES],
    )


def derive_totals(cursor: Any) -> None:
    bands = ", ".join(
        f"count(*) FILTER (WHERE mode = 'solo' AND score >= {band.lowest}"
        + ("" if band.highest is None else f" AND score <= {band.highest}")
        + ")"
        for band in rules.SoloRating
    )
    professions = ", ".join(f"sum({p})" for p in PROFESSIONS)
    cursor.execute(
        f"""
        INSERT INTO leaderboards_playertotals
            (user_id, mode, ruleset, games, score_sum, best, {", ".join(PROFESSIONS)},
             {", ".join(band_field(band) for band in rules.SoloRating)})
        SELECT user_id, mode, ruleset, count(*), sum(score), max(score), {professions},
               {bands}
        FROM {RESULTS} WHERE NOT hidden
        GROUP BY user_id, mode, ruleset
        """
    )


def derive_weekly_bests(cursor: Any) -> None:
    cursor.execute(
        f"""
        INSERT INTO leaderboards_weeklybest
            (user_id, ruleset, week, score, game_id, achieved_at)
        SELECT DISTINCT ON (user_id, ruleset, week)
            user_id, ruleset, week, score, game_id, finished_at
        FROM (
            SELECT *, date_trunc('week', finished_at AT TIME ZONE 'UTC')::date AS week
            FROM {RESULTS} WHERE mode = 'solo' AND NOT hidden
        ) solo
        ORDER BY user_id, ruleset, week, score DESC, finished_at, id
        """
    )


def reset_sequences(cursor: Any) -> None:
    for model in (User, Game, Seat):
        table = model._meta.db_table
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--solo", type=int, default=1_000_000)
    parser.add_argument("--multi", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=365, help="spread games over this many")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("synthesize needs PostgreSQL (it loads rows with COPY): set DATABASE_URL.")
    if Game.objects.exists():
        sys.exit("This database already has games: synthesize fills only an empty one.")
    run = Synthesizer(random.Random(args.seed), args.days)
    started = time.monotonic()

    def step(what: str) -> None:
        print(f"{time.monotonic() - started:7.1f} s  {what}", flush=True)

    with transaction.atomic():
        users = run.users(args.players)
        step("players")
        run.solo(users, args.solo)
        step("solo games")
        run.multi(users, args.multi)
        step("multiplayer games and ratings")
        with connection.cursor() as cursor:
            # Fresh statistics, or the planner takes the new table for empty.
            cursor.execute(f"ANALYZE {RESULTS}")
            derive_solo_standings(cursor)
            derive_totals(cursor)
            derive_weekly_bests(cursor)
            step("solo standings, weekly bests, totals")
            reset_sequences(cursor)
    with connection.cursor() as cursor:
        # As autovacuum would in time: statistics for the planner, and the visibility
        # map that lets a COUNT read an index alone.
        cursor.execute("VACUUM ANALYZE")
    step("VACUUM ANALYZE")


if __name__ == "__main__":
    main()
