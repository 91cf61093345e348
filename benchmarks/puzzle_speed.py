"""The next puzzle at size, and how many puzzles a CPU-second makes (issue #27).

    createdb -h 127.0.0.1 -U postgres limes_puzzle_bench
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/limes_puzzle_bench \
        nice python benchmarks/puzzle_speed.py [--puzzles 100000] [--players 10000] \
        [--attempts-each 100] [--repeat 200] [--games 20]

Migrates the scratch database, then fills it once (SQL in bulk): ``--puzzles`` puzzles
(copies of real ones made from computer games, each its own key, ratings spread around
1500), ``--players`` players with a puzzle rating who each answered ``--attempts-each``
puzzles (1,000,000 attempts by default), and one heavy player who answered the 2,000
puzzles rated nearest 1500 (the worst case of the index walk: it steps over all of them).
Then, through Django's test client in this process (middleware, view, queries, template),
``/puzzles/`` ``--repeat`` times each for a visitor, a typical player and the heavy one:
queries, median and 95th percentile in milliseconds, and the 95th percentile of this
process's CPU time. Last, puzzles made per CPU-second: ``--games`` seeded computer games
played by the reference bot and searched for puzzles (``services.puzzle_make_from_computer``,
in a transaction rolled back).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import (  # noqa: E402
    django_on_postgres,
    machine_busy_seconds,
    percentile,
    timed_gets,
)

GOAL_MS = 50.0
PREFIX = "pbench"
HEAVY = f"{PREFIX}-heavy"
HEAVY_ATTEMPTS = 2000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--attempts-each", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    django_on_postgres("Set DATABASE_URL to a scratch PostgreSQL database.")

    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client

    from accounts.models import User
    from puzzles import services
    from puzzles.models import Attempt, Puzzle

    call_command("migrate", verbosity=0)
    if not User.objects.filter(username=HEAVY).exists():
        _fill(args.puzzles, args.players, args.attempts_each)
    print(f"{Puzzle.objects.count():,} puzzles, {Attempt.objects.count():,} attempts")
    visitor, typical, heavy = Client(), Client(), Client()
    typical.force_login(User.objects.get(username=f"{PREFIX}-{args.players // 2}"))
    heavy.force_login(User.objects.get(username=HEAVY))

    busy_before, own_before = machine_busy_seconds(), time.process_time()
    print(f"{'/puzzles/ (the next puzzle)':<40} queries  median / p95 ms  p95 CPU ms")
    for label, client in (
        ("visitor", visitor),
        (f"player with {args.attempts_each} attempts", typical),
        (f"player with {HEAVY_ATTEMPTS:,} attempts near 1500", heavy),
    ):
        for _ in range(2):
            assert client.get("/puzzles/").status_code == 200
        times, cpu, queries, response = timed_gets(client, "/puzzles/", args.repeat)
        assert response.status_code == 200 and b"data-puzzle=" in response.content
        p95 = percentile(times, 0.95)
        verdict = "ok" if p95 <= GOAL_MS else "OVER"
        print(
            f"{label:<40} {queries:>7}  {statistics.median(times):6.2f} / {p95:6.2f}"
            f"  {percentile(cpu, 0.95):8.2f}  {verdict} (goal p95 <= {GOAL_MS:.0f})"
        )
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN (ANALYZE, BUFFERS) SELECT id FROM puzzles_puzzle p WHERE rating >= 1500 "
            "AND NOT EXISTS (SELECT 1 FROM puzzles_attempt a WHERE a.puzzle_id = p.id AND "
            "a.user_id = %s) "
            "ORDER BY rating, id LIMIT 3",
            [User.objects.get(username=HEAVY).pk],
        )
        plan = [row[0] for row in cursor.fetchall()]
    print("the heavy player's walk up:", *(f"    {line}" for line in plan), sep="\n")

    with transaction.atomic():
        start_cpu = time.process_time()
        made = services.puzzle_make_from_computer(games=args.games, seed=99)
        spent = time.process_time() - start_cpu
        transaction.set_rollback(True)
    positions = args.games * 15
    print(
        f"made {made} puzzles from {args.games} computer games ({positions} positions) in "
        f"{spent:.2f} CPU s: {made / spent:.1f} puzzles and {positions / spent:.0f} positions "
        "per CPU-second (the games' own play included)"
    )
    busy = machine_busy_seconds() - busy_before
    own = time.process_time() - own_before
    print(f"CPU: this run {own:.1f} s, the whole machine {busy:.1f} s meanwhile")


def _fill(puzzles: int, players: int, attempts_each: int) -> None:
    from django.db import connection, transaction

    from accounts.models import User
    from puzzles import services
    from puzzles.models import Puzzle

    start = time.perf_counter()
    if not Puzzle.objects.filter(origin=Puzzle.Origin.COMPUTER).exists():
        services.puzzle_make_from_computer(games=12, seed=2026)
    templates = list(Puzzle.objects.filter(origin=Puzzle.Origin.COMPUTER).order_by("pk"))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT setseed(0.27)")
        share = -(-puzzles // len(templates))
        made = 0
        for number, template in enumerate(templates):
            count = min(share, puzzles - made)
            if count <= 0:
                break
            # Ratings roughly normal around 1500 (a sum of three uniforms), 600 to 2400.
            cursor.execute(
                "INSERT INTO puzzles_puzzle (key, origin, seat_id, round, diagonal, ferryman, "
                "cards, turns, best_turn, best_value, runner_up, rating, rd, volatility, "
                "attempts, solves, created_at) "
                "SELECT %s || '-' || g, 'computer', NULL, %s, false, false, %s::jsonb, "
                "%s::jsonb, %s::jsonb, %s, %s, "
                "LEAST(2400, GREATEST(600, 1500 + 300 * (random() + random() + random() - 1.5) "
                "* 2)), 80, 0.06, 0, 0, now() - interval '2 days' "
                "FROM generate_series(1, %s) g",
                [
                    f"{PREFIX}-{number}",
                    template.round,
                    _json(template.cards),
                    _json(template.turns),
                    _json(template.best_turn),
                    template.best_value,
                    template.runner_up,
                    count,
                ],
            )
            made += count
        users = [User(username=f"{PREFIX}-{n}", password="!") for n in range(players)]
        users.append(User(username=HEAVY, password="!"))
        User.objects.bulk_create(users, batch_size=5000)
        cursor.execute(
            "INSERT INTO puzzles_puzzleplayer (user_id, rating, rd, volatility, attempts, "
            "streak, best_streak) SELECT id, 1300 + random() * 400, 90, 0.06, %s, 0, 0 "
            "FROM accounts_user WHERE username LIKE %s",
            [attempts_each, f"{PREFIX}-%"],
        )
        cursor.execute(
            "SELECT min(id), count(*) FROM puzzles_puzzle WHERE key LIKE %s", [f"{PREFIX}-%"]
        )
        first, count = cursor.fetchone()
        # Each player's puzzles: distinct for distinct k (104729 is prime, k < count).
        cursor.execute(
            "INSERT INTO puzzles_attempt (puzzle_id, user_id, turn, value, result, "
            "rating_before, rating_after, rated, created_at) "
            "SELECT %s + ((u.n * 7919 + k * 104729) %% %s), u.id, '{}'::jsonb, 40, "
            "(ARRAY['solved','near','missed'])[1 + (u.n + k) %% 3], 1500, 1500, true, now() "
            "FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM accounts_user "
            "WHERE username LIKE %s AND username <> %s) u "
            "CROSS JOIN generate_series(0, %s - 1) k",
            [first, count, f"{PREFIX}-%", HEAVY, attempts_each],
        )
        cursor.execute(
            "INSERT INTO puzzles_attempt (puzzle_id, user_id, turn, value, result, "
            "rating_before, rating_after, rated, created_at) "
            "SELECT p.id, u.id, '{}'::jsonb, 40, 'solved', 1500, 1500, true, now() "
            "FROM accounts_user u, (SELECT id FROM puzzles_puzzle "
            "ORDER BY abs(rating - 1500) LIMIT %s) p WHERE u.username = %s",
            [HEAVY_ATTEMPTS, HEAVY],
        )
        cursor.execute(
            "UPDATE puzzles_puzzleplayer SET rating = 1500 WHERE user_id = "
            "(SELECT id FROM accounts_user WHERE username = %s)",
            [HEAVY],
        )
    with connection.cursor() as cursor:
        # As autovacuum leaves a settled table: index-only scans skip the heap.
        cursor.execute("VACUUM ANALYZE puzzles_puzzle")
        cursor.execute("VACUUM ANALYZE puzzles_attempt")
    print(f"filled in {time.perf_counter() - start:.0f} s")


def _json(value: object) -> str:
    import json

    return json.dumps(value)


if __name__ == "__main__":
    main()
