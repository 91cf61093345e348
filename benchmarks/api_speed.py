"""Server time of the read API's list endpoints (and a few others) on a database at size.

    python benchmarks/synthesize.py --players 50000 --solo 1000000 --multi 100000   # once
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/limes_bench \
        python benchmarks/api_speed.py [--repeat 40]

Like ``leaderboard_speed.py``: requests go through Django's test client in this process
(middleware, the API, queries, JSON), without network or queueing; each endpoint twice
untimed, then ``--repeat`` times; queries per request, then milliseconds median and 95th
percentile, and the 95th percentile of this process's CPU time (the server's own work, which
a machine shared with other jobs does not inflate as much). The rate limits are lifted
for the run (they would refuse it after 60).
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import (  # noqa: E402
    django_on_postgres,
    machine_busy_seconds,
    percentile,
)

GOAL_MS = 50.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    django_on_postgres("Set DATABASE_URL to the PostgreSQL database synthesize filled.")
    from django.db import connection
    from django.db.models import Count
    from django.test import Client

    from api import limits
    from games.daily import today
    from games.models import Game, SoloResult
    from leaderboards.models import PlayerResult, SoloStanding
    from leaderboards.selectors import BOARDS

    limits.ANONYMOUS_PER_WINDOW = limits.TOKEN_PER_WINDOW = limits.ADDRESS_CEILING = 10**9
    results = SoloResult.objects.count()
    if not results:
        sys.exit("This database has no results: fill it with benchmarks/synthesize.py first.")
    print(f"{Game.objects.count():,} games, {results:,} solo results")
    standard = SoloStanding.objects.filter(ruleset="standard").order_by("-best_score", "best_at")
    median = standard[standard.count() // 2].user
    heaviest_id = (
        PlayerResult.objects.values("user")
        .annotate(n=Count("id"))
        .order_by("-n")
        .values_list("user", flat=True)[0]
    )
    heaviest = SoloStanding.objects.filter(user_id=heaviest_id).first().user  # type: ignore[union-attr]
    heavy_games = PlayerResult.objects.filter(user=heaviest).count()
    a_game = SoloResult.objects.filter(hidden=False, daily__isnull=True).order_by("-id")[0]
    yesterday = today() - datetime.timedelta(days=1)
    pages: list[tuple[str, str]] = [
        ("games, page 1", "/api/v1/games/"),
        ("games, page 100 (the last)", "/api/v1/games/?page=100"),
        (
            f"player games, heaviest ({heavy_games:,})",
            f"/api/v1/players/{heaviest.username}/games/",
        ),
        (
            "player games, heaviest page 100",
            f"/api/v1/players/{heaviest.username}/games/?page=100",
        ),
        ("player games, median", f"/api/v1/players/{median.username}/games/"),
        ("leaderboards index", "/api/v1/leaderboards/"),
    ]
    pages += [
        (f"board standard {kind}", f"/api/v1/leaderboards/standard/{kind}/") for kind in BOARDS
    ]
    pages += [
        ("board standard best, page 1000", "/api/v1/leaderboards/standard/best/?page=1000"),
        ("daily today", "/api/v1/daily/"),
        ("daily yesterday", f"/api/v1/daily/{yesterday.isoformat()}/"),
        ("player, heaviest", f"/api/v1/players/{heaviest.username}/"),
        ("game (not a list)", f"/api/v1/games/{a_game.game_id}/"),
    ]
    client = Client()
    busy_before, own_before = machine_busy_seconds(), time.process_time()
    rows = []
    for name, url in pages:
        for _ in range(2):
            status = client.get(url).status_code
            assert status == 200, (url, status)
        # Counted as they run (a request empties Django's own log of queries as it starts).
        counted = [0]

        def count(execute: Any, *args: Any, counted: list[int] = counted) -> Any:
            counted[0] += 1
            return execute(*args)

        with connection.execute_wrapper(count):
            client.get(url)
        times, cpu = [], []
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            client.get(url)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        p50, p95 = statistics.median(times), percentile(times, 0.95)
        rows.append((name, counted[0], p50, p95, percentile(cpu, 0.95)))
    busy = machine_busy_seconds() - busy_before
    own = time.process_time() - own_before
    width = max(len(name) for name, *_ in rows)
    print(f"\n{'endpoint':<{width}}  queries   p50 ms   p95 ms   p95 CPU ms")
    for name, queries, p50, p95, cpu95 in rows:
        flag = "" if p95 <= GOAL_MS else "  over the goal"
        print(f"{name:<{width}}  {queries:7d}  {p50:7.1f}  {p95:7.1f}  {cpu95:11.1f}{flag}")
    print(f"\nthis run's CPU {own:.1f} s; the whole machine's {busy:.1f} s meanwhile")


if __name__ == "__main__":
    main()
