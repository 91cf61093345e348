"""Server time of a round commit and of the game pages, and queries per commit.

    DJANGO_SETTINGS_MODULE=limes_site.settings.test python benchmarks/web_speed.py \
        [--games 16] [--repeat 5] [--redis redis://127.0.0.1:6379/5]

Run by hand; prints a table of milliseconds, median and 95th percentile, per round.
Everything runs in this process (Django's test client, no HTTP), so the figures are the
server's own time: middleware, view, queries and template, without network or queueing.

The database is always a throwaway: a fresh PostgreSQL database on the server that
``DATABASE_URL`` names (dropped at the end), or, without ``DATABASE_URL``, a temporary
SQLite file. The developer's ``db.sqlite3`` is never opened.

Games are dealt from fixed seeds, cycle through the four rulesets and are played by the
reference player (``rules.reference_turn``), so every run measures the same work. Games
go in pairs of one ruleset: one commits through ``services.move_submit``, the other through
the view, as the browser does (htmx POST to ``/games/<pk>/play/``, which also draws the
next board). A first pass of eight such games warms the caches and counts queries; the
timed games follow.

Each round's drafting data (``games.boardview.drafting_json``: every outcome of the draft,
which the board carries so that the browser drafts without asking) is also made once
more outside the cache: its CPU time and its size, raw and gzipped, get a table of their
own (issue #42: at most 5 ms median added to a round's board).

``--redis URL`` keeps the cache and the sessions as production does when ``REDIS_URL`` is
set (Redis, ``cached_db`` sessions: a signed-in request reads its session from Redis, not
from the database); without it, the test settings' (an in-process cache, sessions in the
database).
"""

from __future__ import annotations

import argparse
import gzip
import math
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402

if TYPE_CHECKING:
    from django.test.utils import CaptureQueriesContext

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")

RULESETS = [
    rules.Variants(),
    rules.Variants(diagonal=True),
    rules.Variants(ferryman=True),
    rules.Variants(diagonal=True, ferryman=True),
]


@contextmanager
def throwaway_database() -> Iterator[str]:
    """A ``DATABASE_URL`` for a database made for this run, removed afterwards."""
    given = os.environ.get("DATABASE_URL", "")
    if given.startswith(("postgres://", "postgresql://")):
        import psycopg

        name = f"limes_bench_web_{os.getpid()}"
        admin = urlsplit(given)._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlsplit(given)._replace(path=f"/{name}").geturl()
        finally:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(admin, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        with tempfile.TemporaryDirectory(prefix="limes-bench-") as directory:
            yield f"sqlite:///{directory}/bench.sqlite3"


def machine_busy_seconds() -> float:
    """CPU time spent so far by every process on the machine, all cores (Linux).

    Printed beside the run's own CPU time: a big gap means something else was running.
    """
    ticks = os.sysconf("SC_CLK_TCK")
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle, iowait = values[3], values[4]
    return (sum(values[:8]) - idle - iowait) / ticks


def cpu_seconds(match: str) -> float:
    """CPU time so far of the processes whose command line contains ``match`` (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if match not in (entry / "cmdline").read_bytes().decode(errors="replace"):
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def clocks(database: str) -> tuple[float, float, float, float]:
    """Wall time and CPU time of this process, of the database and of the whole machine."""
    return time.perf_counter(), time.process_time(), cpu_seconds(database), machine_busy_seconds()


def django_on_postgres(missing: str) -> None:
    """Set Django up (test settings unless told otherwise) on ``DATABASE_URL``, which must
    name PostgreSQL; else exit saying ``missing``. For the benchmarks of data at size."""
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit(missing)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.test")
    import django

    django.setup()


def timed_gets(
    client: Any, path: str, repeat: int, before: Callable[[], None] | None = None
) -> tuple[list[float], list[float], int, Any]:
    """``repeat`` GETs of ``path`` (``before`` runs ahead of each, untimed): the wall and CPU
    milliseconds of each, the queries of the last, and the last response."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, cpu, queries, response = [], [], 0, None
    for _ in range(repeat):
        if before is not None:
            before()
        with CaptureQueriesContext(connection) as captured:
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(path)
            times.append((time.perf_counter() - start) * 1e3)
            cpu.append((time.process_time() - start_cpu) * 1e3)
        queries = len(captured.captured_queries)
    return times, cpu, queries, response


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest value at or above ``fraction`` of them."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def ms(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{statistics.median(values) * 1e3:6.2f} / {percentile(values, 0.95) * 1e3:6.2f}"


def span(counts: list[int]) -> str:
    if not counts:
        return "—"
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}–{high}"


@contextmanager
def stopwatch(into: list[float]) -> Iterator[None]:
    """Append the seconds the block took to ``into``."""
    start = time.perf_counter()
    yield
    into.append(time.perf_counter() - start)


def run(games: int, repeat: int, redis: str = "") -> None:
    # Imported only now: settings read DATABASE_URL when Django sets up.
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext
    from django.utils import translation

    from accounts.models import User
    from games import rebuild, services
    from games.boardview import drafting_json

    # The test settings run background tasks inside the request (ImmediateBackend): a
    # final commit would then include the game's whole analysis. Queue them in the
    # database, as production does; nothing runs them here.
    override_settings(
        TASKS={
            "default": {
                "BACKEND": "django_tasks_db.DatabaseBackend",
                "QUEUES": ["default", "computers"],
            }
        }
    ).enable()
    if redis:
        # Production's cache and sessions (limes_site.settings.base with REDIS_URL), under a
        # key prefix of this run's own.
        cache = {
            "BACKEND": "limes_site.cache.RedisCache",
            "LOCATION": redis,
            "KEY_PREFIX": f"bench_web_{os.getpid()}",
        }
        override_settings(
            CACHES={"default": cache},
            SESSION_ENGINE="django.contrib.sessions.backends.cached_db",
        ).enable()

    user = User.objects.create_user(username="bench", password=None)
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    anonymous = Client(HTTP_HOST="localhost")

    times: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    queries: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    sizes: dict[int, list[tuple[int, int]]] = defaultdict(list)

    def drafting(state: rules.Game, round_number: int) -> None:
        # CPU time, not wall time: it is pure Python, and the machine may be shared.
        board, card = state.boards[user.username], state.current_card
        assert card is not None
        with translation.override("en"):
            start = time.process_time()
            data = drafting_json(board, card, state.variants, round_number)
            times["drafting"][round_number].append(time.process_time() - start)
        raw = data.encode()
        sizes[round_number].append((len(raw), len(gzip.compress(raw))))

    def get(url: str, params: dict[str, str], *, htmx: bool) -> None:
        response = client.get(url, params, headers={"HX-Request": "true"} if htmx else None)
        if response.status_code != 200 or b'data-testid="error"' in response.content:
            raise RuntimeError(f"GET {url} {params} answered {response.status_code} or an error")

    def post(url: str, data: dict[str, str]) -> None:
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        if response.status_code != 200 or b'data-testid="error"' in response.content:
            raise RuntimeError(f"POST {url} {data} answered {response.status_code} or an error")

    @contextmanager
    def measure(kind: str, round_number: int, *, counting: bool) -> Iterator[None]:
        if counting:
            with CaptureQueriesContext(connection) as captured:
                yield
            queries[kind][round_number].append(statements(captured))
        else:
            with stopwatch(times[kind][round_number]):
                yield

    def play(number: int, *, counting: bool) -> None:
        # Games go in pairs of one ruleset: one commits through the service, one through the view.
        variants = RULESETS[number // 2 % len(RULESETS)]
        through_view = number % 2 == 1
        game = services.game_create_solo(
            user=user,
            diagonal=variants.diagonal,
            ferryman=variants.ferryman,
            seed=(2000 if counting else 1000) + number,
        )
        url = f"/games/{game.pk}/"
        while not game.is_finished:
            state = rebuild.rules_game(game)
            card = state.current_card
            assert card is not None
            round_number = state.round
            if not counting:
                drafting(state, round_number)
            turn = rules.reference_turn(state.boards[user.username], card, state.variants)
            row, col = turn.placement.card_at
            draft = {"at": f"{row},{col}", "rot": "90"}
            fields = {
                "round": str(round_number),
                "rot": str(turn.placement.rotation),
                "at": f"{row},{col}",
                **worker_fields(turn.worker),
            }
            for _ in range(1 if counting else repeat):
                with measure("partial", round_number, counting=counting):
                    get(url, draft, htmx=True)
                with measure("page", round_number, counting=counting):
                    get(url, {}, htmx=False)
                if not counting:
                    # The floor is sampled all along, so it sees whatever the machine saw.
                    with stopwatch(floor):
                        anonymous.get("/")
            if through_view:
                with measure("post", round_number, counting=counting):
                    post(f"{url}play/", fields)
                game.refresh_from_db()
            else:
                with measure("commit", round_number, counting=counting):
                    game = services.move_submit(
                        game_id=game.pk, user=user, round_number=round_number, turn=turn
                    ).game

    floor: list[float] = []
    for number in range(2 * len(RULESETS)):
        play(number, counting=True)
    database = str(connection.settings_dict["NAME"])
    before = clocks(database)
    for number in range(games):
        play(number, counting=False)
    wall, own, server, machine = (b - a for a, b in zip(before, clocks(database), strict=True))
    client.logout()  # its session out of the cache as well

    print_table(times, queries, floor, games, repeat)
    print_drafting(times["drafting"], sizes)
    print(
        f"CPU while timing: this process {own:.1f} s, database server {server:.1f} s, "
        f"anything else {machine - own - server:.1f} s; {wall:.1f} s wall time. Anything "
        "else above a few seconds: other load disturbed the figures."
    )


def statements(captured: CaptureQueriesContext) -> int:
    """Queries other than transaction control, which only SQLite's backend logs."""
    return sum(
        not query["sql"].startswith(TRANSACTION_CONTROL) for query in captured.captured_queries
    )


def worker_fields(worker: rules.WorkerAction) -> dict[str, str]:
    """The form fields the board posts for a worker action."""
    if isinstance(worker, rules.PlaceWorker):
        return {"place": "{},{}".format(*worker.zone)}
    if isinstance(worker, rules.MoveWorker):
        return {"from": "{},{}".format(*worker.source), "to": "{},{}".format(*worker.target)}
    return {}


def print_table(
    times: dict[str, dict[int, list[float]]],
    queries: dict[str, dict[int, list[int]]],
    floor: list[float],
    games: int,
    repeat: int,
) -> None:
    from django.conf import settings
    from django.db import connection

    def pooled(name: str, rounds: range) -> list[float]:
        return [t for r in rounds for t in times[name][r]]

    def counted(name: str, rounds: range) -> list[int]:
        return [q for r in rounds for q in queries[name][r]]

    # The backend's DB-API module (psycopg, sqlite3); django-stubs does not declare it.
    driver = connection.Database.__name__  # type: ignore[attr-defined]
    print(
        f"Limes Online web speed — {os.environ['DJANGO_SETTINGS_MODULE']}, DEBUG={settings.DEBUG}, "
        f"{connection.vendor} {driver}, Python {sys.version.split()[0]}; sessions "
        f"{settings.SESSION_ENGINE.rsplit('.', 1)[1]}, cache "
        f"{settings.CACHES['default']['BACKEND'].rsplit('.', 1)[1]}"
    )
    print(
        f"{games} timed games (four rulesets, reference player), {repeat} GETs of each page "
        "per round; ms median / p95 per request, in-process (test client)."
    )
    print(
        "commit = services.move_submit; POST = htmx POST /games/<pk>/play/ (commit and the "
        "next board); partial = htmx GET ?at=r,c&rot=90; page = full GET. Queries: "
        "min–max over the counting games, transaction control not counted."
    )
    print()
    header = (
        "| round | commit (service) | commit (POST view) | board partial | full page "
        "| queries: commit / POST / partial / page | × floor: POST / partial / page |"
    )
    print(header)
    print("|---:|---:|---:|---:|---:|:---:|:---:|")
    base = statistics.median(floor)

    def ratios(rounds: range) -> str:
        return " / ".join(
            f"{statistics.median(pooled(name, rounds)) / base:.1f}"
            for name in ("post", "partial", "page")
        )

    for round_number in range(1, rules.ROUNDS + 1):
        print(
            f"| {round_number} | {ms(times['commit'][round_number])} "
            f"| {ms(times['post'][round_number])} | {ms(times['partial'][round_number])} "
            f"| {ms(times['page'][round_number])} "
            f"| {span(queries['commit'][round_number])} / {span(queries['post'][round_number])} / "
            f"{span(queries['partial'][round_number])} / {span(queries['page'][round_number])} "
            f"| {ratios(range(round_number, round_number + 1))} |"
        )
    for label, rounds in (
        ("1–15", range(1, rules.ROUNDS)),
        ("16 (final)", range(rules.ROUNDS, rules.ROUNDS + 1)),
        ("all", range(1, rules.ROUNDS + 1)),
    ):
        print(
            f"| **{label}** | {ms(pooled('commit', rounds))} | {ms(pooled('post', rounds))} "
            f"| {ms(pooled('partial', rounds))} | {ms(pooled('page', rounds))} "
            f"| {span(counted('commit', rounds))} / {span(counted('post', rounds))} / "
            f"{span(counted('partial', rounds))} / {span(counted('page', rounds))} "
            f"| {ratios(rounds)} |"
        )
    print()
    first, last = (statistics.median(times["partial"][r]) for r in (1, rules.ROUNDS))
    print(
        f"Goals (issue #11), medians against the floor: POST ≤ 5× (now {ratios(range(1, 17))}"
        f" for POST / partial / page), partial and page ≤ 3×; round 16's partial "
        f"{last / first:.2f}× round 1's (goal ≤ 1.20)."
    )
    half = len(floor) // 2
    print(
        f"Floor, anonymous GET / (same process, between the pages): {ms(floor)} ms, "
        f"{len(floor)} requests; median in the first half of the run "
        f"{statistics.median(floor[:half]) * 1e3:.2f} ms, in the second "
        f"{statistics.median(floor[half:]) * 1e3:.2f} ms (far apart: the machine changed speed)."
    )
    samples = len(pooled("commit", range(1, rules.ROUNDS + 1)))
    print(
        f"Samples: {samples} service commits, {len(pooled('post', range(1, 17)))} POST "
        f"commits, {len(pooled('partial', range(1, 17)))} of each GET."
    )


def print_drafting(times: dict[int, list[float]], sizes: dict[int, list[tuple[int, int]]]) -> None:
    """The drafting data's CPU time and size per round."""
    print()
    print(
        "Drafting data (games.boardview.drafting_json, made outside the cache, English): "
        "CPU ms median / p95, and KB median / max, raw and gzipped."
    )
    print()
    print("| round | CPU ms | KB raw | KB gzip |")
    print("|---:|---:|---:|---:|")

    def kb(values: list[int]) -> str:
        return f"{statistics.median(values) / 1024:5.1f} / {max(values) / 1024:5.1f}"

    rows = [(str(r), [r]) for r in range(1, rules.ROUNDS + 1)]
    for label, rounds in [*rows, ("**all**", list(range(1, rules.ROUNDS + 1)))]:
        cpu = [t for r in rounds for t in times[r]]
        measured = [size for r in rounds for size in sizes[r]]
        print(
            f"| {label} | {ms(cpu)} | {kb([m[0] for m in measured])} "
            f"| {kb([m[1] for m in measured])} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16, help="timed games (default 16)")
    parser.add_argument("--repeat", type=int, default=5, help="GETs per page per round")
    parser.add_argument(
        "--redis", default="", help="cache and cached_db sessions in this Redis, as production"
    )
    args = parser.parse_args()
    in_throwaway_database(lambda: run(args.games, args.repeat, args.redis))


def in_throwaway_database(body: Callable[[], None]) -> None:
    """Set Django up on a throwaway database, migrate it, and run ``body`` there."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.test")
    with throwaway_database() as url:
        os.environ["DATABASE_URL"] = url
        import django
        from django.conf import settings
        from django.core.management import call_command

        django.setup()
        name = str(settings.DATABASES["default"]["NAME"])
        # Guard against a settings file that ignores DATABASE_URL.
        assert name.startswith(tempfile.gettempdir()) or "limes_bench_web_" in name, name
        call_command("migrate", verbosity=0)
        body()


if __name__ == "__main__":
    main()
