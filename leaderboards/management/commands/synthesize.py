"""Fill a scratch PostgreSQL database with synthetic players and finished games, fast.

For measuring the boards at size (benchmarks/leaderboard_speed.py), never for a real
site: it refuses a database that already holds games. Rows go in with COPY; the boards'
own tables are then derived in SQL (solo standings, weekly bests) and, for ratings, by
replaying the multiplayer games in order with the rating code the site uses.
"""

from __future__ import annotations

import datetime
import json
import random
import time
from collections.abc import Iterable, Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, models, transaction
from django.utils import timezone

import rules
from accounts.models import User
from games.models import Game, Ruleset, Seat, SoloResult
from games.selectors import deck
from leaderboards.models import RECENT_GAMES, PlayerRating, PlayerResult, band_field
from leaderboards.rating import INITIAL, Skill, rate

BATCH = 50_000
RULESET_WEIGHTS = {
    Ruleset.STANDARD: 0.55,
    Ruleset.DIAGONAL: 0.15,
    Ruleset.FERRYMAN: 0.15,
    Ruleset.BOTH: 0.15,
}
FLAGS = {
    Ruleset.STANDARD: (False, False),
    Ruleset.DIAGONAL: (True, False),
    Ruleset.FERRYMAN: (False, True),
    Ruleset.BOTH: (True, True),
}
PROFESSIONS = [p.value for p in rules.Profession]


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
        for field in self.fields:
            if field.attname in columns:
                self.plan.append((columns.index(field.attname), None))
                continue
            if field.has_default():
                default = field.get_default()
            elif getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
                default = now
            elif field.null:
                default = None
            elif isinstance(field, models.CharField | models.TextField):
                default = ""
            else:
                raise CommandError(f"{self.table}.{field.column} needs a value")
            if isinstance(field, models.JSONField):
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


class Command(BaseCommand):
    help = "Fill an empty PostgreSQL database with synthetic players and games for benchmarks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=50_000)
        parser.add_argument("--solo", type=int, default=1_000_000)
        parser.add_argument("--multi", type=int, default=100_000)
        parser.add_argument("--days", type=int, default=365, help="spread games over this many")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("synthesize needs PostgreSQL (it loads rows with COPY).")
        if Game.objects.exists():
            raise CommandError(
                "This database already has games: synthesize fills only an empty one."
            )
        self.rng = random.Random(options["seed"])
        self.now = timezone.now()
        self.days = options["days"]
        the_deck = deck()
        self.cards = json.dumps(list(the_deck.deal(random.Random(1))))
        self.deck_name = the_deck.name
        started = time.monotonic()
        with transaction.atomic():
            users = self._users(options["players"])
            self._step("players", started)
            self._solo(users, options["solo"])
            self._step("solo games", started)
            self._multi(users, options["multi"])
            self._step("multiplayer games and ratings", started)
            self._derive()
            self._step("solo standings, weekly bests, totals", started)
            self._reset_sequences()
        with connection.cursor() as cursor:
            # As autovacuum would in time: statistics for the planner, and the visibility
            # map that lets a COUNT read an index alone.
            cursor.execute("VACUUM ANALYZE")
        self._step("VACUUM ANALYZE", started)

    def _step(self, what: str, started: float) -> None:
        self.stdout.write(f"{time.monotonic() - started:7.1f} s  {what}")

    def _moment(self) -> datetime.datetime:
        return self.now - datetime.timedelta(seconds=self.rng.uniform(60, self.days * 86400))

    def _users(self, count: int) -> list[int]:
        rng = self.rng
        first = (User.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
        ids = list(range(first, first + count))
        self.skill = {uid: rng.gauss(0, 4) for uid in ids}
        joined = self.now - datetime.timedelta(days=self.days + 1)
        rows = []
        for uid in ids:
            roll = rng.random()
            banned = self.now + datetime.timedelta(days=30) if roll < 0.005 else None
            deleted = self.now if 0.005 <= roll < 0.007 else None
            rows.append(
                (
                    uid,
                    "!",
                    f"synthetic{uid}",
                    f"synthetic{uid}@example.invalid",
                    joined,
                    banned,
                    deleted,
                )
            )
        _Copier(
            User,
            ["id", "password", "username", "email", "date_joined", "banned_until", "deleted_at"],
        ).copy(rows)
        return ids

    def _score(self, uid: int) -> int:
        return max(5, min(70, round(self.rng.gauss(38 + self.skill[uid], 6))))

    def _solo(self, users: list[int], count: int) -> None:
        rng = self.rng
        players = _weighted_players(rng, users, count)
        rulesets = rng.choices(
            list(RULESET_WEIGHTS), weights=list(RULESET_WEIGHTS.values()), k=count
        )
        first_game = self._next_id(Game)
        first_seat = self._next_id(Seat)
        games = _Copier(
            Game,
            [
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
        mine = _Copier(
            PlayerResult,
            [
                "seat_id",
                "game_id",
                "user_id",
                "mode",
                "ruleset",
                "score",
                "place",
                "finished_at",
                "hidden",
                *PROFESSIONS,
            ],
        )
        dailies: set[tuple[int, datetime.date]] = set()
        recent_days = self.now.date() - datetime.timedelta(days=60)
        for start in range(0, count, BATCH):
            batch: list[tuple[Any, ...]] = []
            for i in range(start, min(count, start + BATCH)):
                uid, ruleset = players[i], rulesets[i]
                at = self._moment()
                day = at.date()
                daily = None
                if (
                    ruleset == Ruleset.STANDARD
                    and day >= recent_days
                    and (uid, day) not in dailies
                    and rng.random() < 0.3
                ):
                    dailies.add((uid, day))
                    daily = day
                hidden = rng.random() < 0.001
                batch.append(
                    (
                        first_game + i,
                        first_seat + i,
                        uid,
                        ruleset,
                        at,
                        daily,
                        hidden,
                        self._score(uid),
                    )
                )
            games.copy(
                (
                    gid,
                    "solo",
                    "finished",
                    *FLAGS[r],
                    r,
                    gid,
                    self.deck_name,
                    self.cards,
                    17,
                    daily,
                    uid,
                    at,
                    at,
                    at,
                    hidden,
                )
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

    def _multi(self, users: list[int], count: int) -> None:
        rng = self.rng
        moments = sorted(self._moment() for _ in range(count))
        pool = _weighted_players(rng, users, count * 4)
        first_game = self._next_id(Game)
        next_seat = self._next_id(Seat)
        games = _Copier(
            Game,
            [
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
                "seats_max",
                "pace",
                "created_by_id",
                "created_at",
                "started_at",
                "finished_at",
            ],
        )
        seats = _Copier(
            Seat,
            [
                "id",
                "game_id",
                "user_id",
                "position",
                "status",
                "rounds_played",
                "rating_before",
                "rating_after",
                "score",
                "tiebreak",
                "place",
                "shared_place",
            ],
        )
        mine = _Copier(
            PlayerResult,
            [
                "seat_id",
                "game_id",
                "user_id",
                "mode",
                "ruleset",
                "score",
                "place",
                "finished_at",
                "hidden",
                "rating_after",
                *PROFESSIONS,
            ],
        )
        tallies: dict[tuple[int, str], list[Any]] = {}
        game_rows: list[tuple[Any, ...]] = []
        seat_rows: list[tuple[Any, ...]] = []
        result_rows: list[tuple[Any, ...]] = []
        for n, at in enumerate(moments):
            gid = first_game + n
            ruleset = rng.choices(list(RULESET_WEIGHTS), weights=list(RULESET_WEIGHTS.values()))[0]
            size = rng.choice((2, 2, 3, 3, 4))
            players = list(dict.fromkeys(pool[n * 4 : n * 4 + size]))
            if len(players) < 2:
                players.append(rng.choice(users))
                players = list(dict.fromkeys(players))
                if len(players) < 2:
                    continue
            resigned = {uid for uid in players if rng.random() < 0.03}
            scores = {uid: self._score(uid) // (3 if uid in resigned else 1) for uid in players}
            order = sorted(players, key=lambda uid: (uid in resigned, -scores[uid]))
            places: dict[int, int] = {}
            for position, uid in enumerate(order, start=1):
                prev = order[position - 2] if position > 1 else None
                same = (
                    prev is not None
                    and (prev in resigned) == (uid in resigned)
                    and scores[prev] == scores[uid]
                )
                places[uid] = places[prev] if same and prev is not None else position
            shared = {uid: list(places.values()).count(places[uid]) > 1 for uid in players}
            keys = [(uid, ruleset) for uid in players]
            before = [tallies.get(key, [INITIAL, 0, None])[0] for key in keys]
            after = rate(before, [places[uid] for uid in players])
            for key, skill in zip(keys, after, strict=True):
                tally = tallies.setdefault(key, [INITIAL, 0, None])
                tally[0], tally[1], tally[2] = skill, tally[1] + 1, at
            game_rows.append(
                (
                    gid,
                    "multi",
                    "finished",
                    *FLAGS[ruleset],
                    ruleset,
                    gid,
                    self.deck_name,
                    self.cards,
                    17,
                    len(players),
                    "live",
                    players[0],
                    at,
                    at,
                    at,
                )
            )
            for position, (uid, old, new) in enumerate(
                zip(players, before, after, strict=True), start=1
            ):
                status = "resigned" if uid in resigned else "playing"
                seat_rows.append(
                    (
                        next_seat,
                        gid,
                        uid,
                        position,
                        status,
                        16,
                        _ordinal(old),
                        _ordinal(new),
                        scores[uid],
                        "[]",
                        places[uid],
                        shared[uid],
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
                        places[uid],
                        at,
                        False,
                        _ordinal(new),
                        *_professions(rng, scores[uid]),
                    )
                )
                next_seat += 1
            if len(game_rows) >= BATCH:
                games.copy(game_rows)
                seats.copy(seat_rows)
                mine.copy(result_rows)
                game_rows, seat_rows, result_rows = [], [], []
        games.copy(game_rows)
        seats.copy(seat_rows)
        mine.copy(result_rows)
        _Copier(
            PlayerRating, ["user_id", "ruleset", "mu", "sigma", "ordinal", "games", "last_game_at"]
        ).copy(
            (uid, ruleset, skill.mu, skill.sigma, skill.ordinal, games_count, last)
            for (uid, ruleset), (skill, games_count, last) in tallies.items()
        )

    def _derive(self) -> None:
        results = PlayerResult._meta.db_table
        with connection.cursor() as cursor:
            # Fresh statistics, or the planner takes the new table for empty.
            cursor.execute(f"ANALYZE {results}")
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
                    FROM {results} WHERE mode = 'solo' AND NOT hidden
                    ORDER BY user_id, ruleset, score DESC, finished_at, id
                ) b
                JOIN (
                    SELECT user_id, ruleset, count(*) AS games FROM {results}
                    WHERE mode = 'solo' AND NOT hidden GROUP BY user_id, ruleset
                ) c USING (user_id, ruleset)
                LEFT JOIN (
                    SELECT user_id, ruleset, avg(score) AS average, max(finished_at) AS at
                    FROM (
                        SELECT user_id, ruleset, score, finished_at, row_number() OVER (
                            PARTITION BY user_id, ruleset ORDER BY finished_at DESC, id DESC
                        ) AS n
                        FROM {results} WHERE mode = 'solo' AND NOT hidden
                    ) latest
                    WHERE n <= %s GROUP BY user_id, ruleset HAVING count(*) = %s
                ) r USING (user_id, ruleset)
                """,
                [RECENT_GAMES, RECENT_GAMES],
            )
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
                FROM {results} WHERE NOT hidden
                GROUP BY user_id, mode, ruleset
                """
            )
            cursor.execute(
                f"""
                INSERT INTO leaderboards_weeklybest
                    (user_id, ruleset, week, score, game_id, achieved_at)
                SELECT DISTINCT ON (user_id, ruleset, week)
                    user_id, ruleset, week, score, game_id, finished_at
                FROM (
                    SELECT *, date_trunc('week', finished_at AT TIME ZONE 'UTC')::date AS week
                    FROM {results} WHERE mode = 'solo' AND NOT hidden
                ) solo
                ORDER BY user_id, ruleset, week, score DESC, finished_at, id
                """
            )

    def _next_id(self, model: type[models.Model]) -> int:
        return (
            model._default_manager.order_by("-pk").values_list("pk", flat=True).first() or 0
        ) + 1

    def _reset_sequences(self) -> None:
        with connection.cursor() as cursor:
            for model in (User, Game, Seat):
                table = model._meta.db_table
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )


def _ordinal(skill: Skill) -> float:
    return skill.ordinal
