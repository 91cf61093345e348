"""Server time of every board page and of profile pages on a database at size.

    python benchmarks/synthesize.py --players 50000 --solo 1000000 --multi 100000   # once
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/limes_bench \
        python benchmarks/leaderboard_speed.py [--repeat 40] [--explain]

Run by hand against a database filled by ``benchmarks/synthesize.py`` (see benchmarks/README.md);
it only reads (signing in writes a session row). Requests go through Django's test client
in this process, so the figures are the server's own time: middleware, view, queries and
template, without network or queueing. Each page is fetched twice untimed, then
``--repeat`` times; the table gives queries per request and milliseconds, median and 95th
percentile (nearest rank). A signed-in viewer's own rank is cached for a minute; the
"rank not cached" rows count it on every request. ``--explain`` prints PostgreSQL's plan
(EXPLAIN ANALYZE) of each query of the standard ruleset's boards, the daily board and a
profile, to show that they walk indexes instead of reading tables.
"""

from __future__ import annotations

import argparse
import datetime
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
)

GOAL_MS = 50.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--explain", action="store_true")
    args = parser.parse_args()
    django_on_postgres("Set DATABASE_URL to the PostgreSQL database synthesize filled.")

    from django.core.cache import cache
    from django.db import connection
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games.daily import today
    from games.models import Ruleset, SoloResult
    from leaderboards.models import PlayerResult, SoloStanding
    from leaderboards.selectors import BOARDS

    counts = {
        "players": SoloStanding.objects.values("user").distinct().count(),
        "solo results": SoloResult.objects.count(),
        "multiplayer seats": PlayerResult.objects.filter(mode="multi").count(),
    }
    if not counts["solo results"]:
        sys.exit("This database has no results: fill it with benchmarks/synthesize.py first.")
    print(", ".join(f"{value:,} {name}" for name, value in counts.items()))

    # Viewers: the median player of the standard best-score board (own rank far below the
    # first page), and the player with the most results (the heaviest profile).
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
    median_games = PlayerResult.objects.filter(user=median).count()

    signed_in = Client()
    signed_in.force_login(median)
    anonymous = Client()
    yesterday = today() - datetime.timedelta(days=1)
    pages: list[tuple[str, Client, str]] = []
    for ruleset in Ruleset:
        for kind in BOARDS:
            url = reverse("leaderboards:board", args=[ruleset.value, kind])
            pages.append((f"{ruleset.value} {kind}", signed_in, url))
    best = reverse("leaderboards:board", args=["standard", "best"])
    pages += [
        ("standard best, rank not cached", signed_in, best),
        ("standard average, rank not cached", signed_in, best.replace("best", "average")),
        ("standard best, anonymous", anonymous, best),
        ("standard best, page 100", signed_in, f"{best}?page=100"),
        ("standard best, htmx page 2", signed_in, f"{best}?page=2"),
        ("daily today", signed_in, reverse("leaderboards:daily")),
        ("daily yesterday", signed_in, reverse("leaderboards:daily_day", args=[yesterday])),
        (
            f"profile, heaviest ({heavy_games:,} games)",
            anonymous,
            reverse("accounts:profile", args=[heaviest.username]),
        ),
        (
            f"profile, median ({median_games:,} games)",
            anonymous,
            reverse("accounts:profile", args=[median.username]),
        ),
    ]

    busy_before, own_before = machine_busy_seconds(), time.process_time()
    rows = []
    for name, client, url in pages:
        headers = {"HX-Request": "true"} if "htmx" in name else None
        for _ in range(2):
            assert client.get(url, headers=headers).status_code == 200, url
        with CaptureQueriesContext(connection) as captured:
            client.get(url, headers=headers)
        queries = len(captured)
        times = []
        for _ in range(args.repeat):
            if "not cached" in name:
                cache.clear()  # the viewer's rank is counted again, as on a first visit
            start = time.perf_counter()
            client.get(url, headers=headers)
            times.append((time.perf_counter() - start) * 1000)
        rows.append((name, queries, statistics.median(times), percentile(times, 0.95)))
    busy = machine_busy_seconds() - busy_before
    own = time.process_time() - own_before

    width = max(len(name) for name, *_ in rows)
    print(f"\n{'page':<{width}}  queries   p50 ms   p95 ms")
    for name, queries, p50, p95 in rows:
        flag = "" if p95 <= GOAL_MS else "  over the goal"
        print(f"{name:<{width}}  {queries:7d}  {p50:7.1f}  {p95:7.1f}{flag}")
    worst = max(p95 for *_, p95 in rows)
    print(f"\nworst p95: {worst:.1f} ms (goal {GOAL_MS:.0f} ms); {args.repeat} requests a page")
    print(f"CPU: this process {own:.1f} s, the whole machine {busy:.1f} s (both cores)")

    if args.explain:
        explained = [(n, c, u) for n, c, u in pages if n.startswith("standard ")]
        explained = [p for p in explained if "not cached" not in p[0]]
        explained += [p for p in pages if p[0].startswith(("daily today", "profile, heaviest"))]
        for name, client, url in explained:
            cache.clear()  # so that the viewer's rank is counted, and its plan shown
            with CaptureQueriesContext(connection) as captured:
                client.get(url)
            for query in captured.captured_queries:
                sql = query["sql"]
                if not any(t in sql for t in ("leaderboards_", "games_soloresult", "games_seat")):
                    continue
                with connection.cursor() as cursor:
                    cursor.execute(f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) {sql}")
                    plan = "\n    ".join(line for (line,) in cursor.fetchall())
                print(f"\n-- {name}\n{sql[:300]}{' …' if len(sql) > 300 else ''}\n    {plan}")


if __name__ == "__main__":
    main()
