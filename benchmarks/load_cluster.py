"""Load runs with locust against ``scripts/cluster``: how many players one machine sustains.

    scripts/cluster up                      # with the same PORT, DATABASE_URL and CLUSTER_DIR
    python benchmarks/load_cluster.py --users 20,40,80 [--duration 90] [--spawn-rate 4] \
        [--kill-app1-at 30 [--restart-after 20]] [--push] [--draft-partials]

Run by hand. It signs ``max(users)`` players in (sessions made in the cluster's database,
so that allauth's limit of sign-ins per address does not throttle one load client), then
for each user count runs ``benchmarks/locustfile.py`` headless against the proxy on
127.0.0.1 for ``--duration`` seconds and prints locust's figures per request kind, the
CPU that the cluster, PostgreSQL, locust and anything else used, and the load average.
Afterwards it checks every commit against the database: a move the server acknowledged
must be stored once (none lost, none doubled), and no stored move may lack a commit.

With ``--push`` the multiplayer pages hold their event streams, all from 127.0.0.1: start
the cluster with ``STREAMS_PER_ADDRESS`` above the number of users (the proxy's default,
100, is meant for one household, not a whole load run), or the pages past it are refused
their stream and poll every 2 s (the table's "stream" row counts them as failures).

Solo players draft in the page, as the board does since issue #42 (no request between
commits); ``--draft-partials`` makes them ask for two board partials a round as before,
for comparison.

``--kill-app1-at S`` kills app1 (SIGKILL, its whole process group) S seconds into each run,
and ``--restart-after T`` starts it again T seconds later with ``scripts/cluster up``.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from benchmarks.web_speed import cpu_seconds, machine_busy_seconds  # noqa: E402

MAKE_SESSIONS = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.db import SessionStore
from accounts.models import User

password = make_password(None)
sessions = []
for n in range(1, {count} + 1):
    user, _ = User.objects.get_or_create(
        username=f"load{{n:04d}}", defaults={{"password": password}}
    )
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    sessions.append({{"username": user.username, "sessionid": store.session_key}})
print(json.dumps(sessions))
"""

KINDS = [
    "commit",
    "board partial",
    "game page",
    "poll",
    "delivery",
    "stream",
    "new game",
    "home, signed in",
    "lobby",
    "invitation",
    "join",
    "leaderboard",
    "profile",
    "daily board",
    "floor",
]


def cluster_env(args: argparse.Namespace) -> dict[str, str]:
    folder = Path(args.cluster_dir).resolve()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="limes_site.settings.cluster",
        DJANGO_SECRET_KEY=(folder / "secret_key").read_text().strip(),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=args.database_url,
        CLUSTER_DIR=str(folder),
        PORT=str(args.port),
    )
    return env


def make_sessions(args: argparse.Namespace, count: int, into: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "--no-imports",
            "-c",
            MAKE_SESSIONS.format(count=count),
        ],
        cwd=ROOT,
        env=cluster_env(args),
        capture_output=True,
        text=True,
        check=True,
    )
    into.write_text(result.stdout.strip().splitlines()[-1])


#: The cluster's processes by role, as their pid files name them.
ROLES = {
    "proxy": ("proxy",),
    "app servers": ("app1", "app2"),
    "stream servers": ("stream1", "stream2"),
    "task workers": ("worker", "worker2"),
}


def group_cpu(folder: Path) -> dict[str, float]:
    """CPU seconds so far of the cluster's processes (each pid file's process group), by
    role (``ROLES``)."""
    groups: dict[int, str] = {}
    for role, names in ROLES.items():
        for name in names:
            with contextlib.suppress(OSError, ValueError):
                groups[int((folder / f"{name}.pid").read_text())] = role
    ticks = os.sysconf("SC_CLK_TCK")
    totals = dict.fromkeys(ROLES, 0.0)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        owner = groups.get(int(fields[2]))  # by the process group id
        if owner is not None:
            totals[owner] += (int(fields[11]) + int(fields[12])) / ticks
    return totals


def kill_app1(args: argparse.Namespace, at: float, restart_after: float | None) -> None:
    time.sleep(at)
    folder = Path(args.cluster_dir)
    pid = int((folder / "app1.pid").read_text())
    os.killpg(pid, signal.SIGKILL)
    print(f"killed app1 (pid {pid}) at {at:.0f} s", flush=True)
    if restart_after is not None:
        time.sleep(restart_after)
        subprocess.run(
            [str(ROOT / "scripts" / "cluster"), "up"],
            env={**os.environ, **cluster_env(args)},
            capture_output=True,
            check=True,
        )
        print(f"restarted app1 at {at + restart_after:.0f} s", flush=True)


def check_moves(args: argparse.Namespace, moves_file: Path) -> dict[str, int]:
    """Every commit the clients sent, against the moves stored in the database."""
    sent: set[tuple[int, str, int]] = set()
    acknowledged: set[tuple[int, str, int]] = set()
    failed: set[tuple[int, str, int]] = set()
    for line in moves_file.read_text().splitlines():
        entry = json.loads(line)
        key = (int(entry["game"]), str(entry["player"]), int(entry["round"]))
        if entry["ok"] is None:
            sent.add(key)
        else:
            (acknowledged if entry["ok"] else failed).add(key)
    games = sorted({game for game, _, _ in sent})
    with psycopg.connect(args.database_url) as db:
        rows = db.execute(
            "SELECT s.game_id, u.username, m.round, count(*) FROM games_move m"
            " JOIN games_seat s ON s.id = m.seat_id JOIN accounts_user u ON u.id = s.user_id"
            " WHERE s.game_id = ANY(%s) GROUP BY 1, 2, 3",
            (games,),
        ).fetchall()
    stored = {(int(g), str(u), int(r)) for g, u, r, _ in rows}
    unanswered = sent - acknowledged - failed
    return {
        "acknowledged": len(acknowledged),
        "failed": len(failed),
        "lost": len(acknowledged - stored),
        "doubled": sum(1 for *_, count in rows if count > 1),
        "stored, unanswered at the stop": len(stored & unanswered),
        "stored, never sent": len(stored - sent),
        "failed but stored": len(failed & stored),
    }


def run(args: argparse.Namespace, users: int, sessions: Path, out: Path) -> None:
    folder = Path(args.cluster_dir).resolve()
    moves_file = out / f"moves-{users}.jsonl"
    moves_file.unlink(missing_ok=True)
    prefix = out / f"locust-{users}"
    env = {
        **os.environ,
        "LIMES_LOAD_SESSIONS": str(sessions),
        "LIMES_LOAD_MOVES": str(moves_file),
        "LIMES_LOAD_PUSH": "1" if args.push else "0",
        "LIMES_LOAD_PARTIALS": "1" if args.draft_partials else "0",
    }
    command = [
        *(sys.executable, "-m", "locust", "-f", str(ROOT / "benchmarks" / "locustfile.py")),
        *("--headless", "--host", f"http://127.0.0.1:{args.port}"),
        *("--users", str(users), "--spawn-rate", str(args.spawn_rate)),
        *("--run-time", f"{args.duration}s", "--stop-timeout", "5"),
        *("--csv", str(prefix), "--only-summary", "--loglevel", "WARNING"),
    ]
    killer = None
    if args.kill_app1_at is not None:
        killer = threading.Thread(
            target=kill_app1, args=(args, args.kill_app1_at, args.restart_after), daemon=True
        )
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    # PostgreSQL's backends serving this database (others come and go with their tests).
    backends = " postgres " + args.database_url.rsplit("/", 1)[1].split("?")[0] + " "
    before = (group_cpu(folder), cpu_seconds(backends), machine_busy_seconds())
    start = time.perf_counter()
    with (out / f"locust-{users}.log").open("wb") as log:
        locust = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    if killer is not None:
        killer.start()
    locust.wait(timeout=args.duration + 120)
    wall = time.perf_counter() - start
    after = (group_cpu(folder), cpu_seconds(backends), machine_busy_seconds())
    load_after = Path("/proc/loadavg").read_text().split()[:3]
    usage = os.times()
    locust_cpu = usage.children_user + usage.children_system - args._children_cpu
    args._children_cpu = usage.children_user + usage.children_system
    if killer is not None:
        killer.join(timeout=120)

    roles = {role: after[0][role] - before[0][role] for role in ROLES}
    cluster = sum(roles.values())
    database, machine = after[1] - before[1], after[2] - before[2]
    mode = ("push" if args.push else "polling") + (
        ", drafts by board partials" if args.draft_partials else ", drafts in the page"
    )
    print(f"\n### {users} users, {args.duration} s, {mode}" + (" (app1 killed)" if killer else ""))
    if killer is not None:
        print("CPU: not counted (the killed server's processes took theirs with them)")
    else:
        print(
            f"CPU: cluster {cluster:.1f} s, PostgreSQL {database:.1f} s, "
            f"locust {locust_cpu:.1f} s, "
            f"anything else {machine - cluster - database - locust_cpu:.1f} s, "
            f"of {wall * (os.cpu_count() or 1):.0f} core-seconds; "
            f"load average {' '.join(load_before)} before, {' '.join(load_after)} after"
        )
        print("Cluster CPU by role: " + ", ".join(f"{r} {s:.1f} s" for r, s in roles.items()))
    print("| request | count | failures | p50 ms | p95 ms | p99 ms | max ms | req/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    with open(f"{prefix}_stats.csv", encoding="utf-8") as stats:
        rows = {row["Name"]: row for row in csv.DictReader(stats)}
    for name in [*KINDS, "Aggregated"]:
        row = rows.get(name)
        if row is None or row["Request Count"] == "0":
            continue
        print(
            f"| {name} | {row['Request Count']} | {row['Failure Count']} | {row['50%']} "
            f"| {row['95%']} | {row['99%']} | {float(row['Max Response Time']):.0f} "
            f"| {float(row['Requests/s']):.1f} |"
        )
    streams = rows.get("stream")
    if streams is not None and int(streams["Failure Count"]):
        # Every simulated player comes from 127.0.0.1: the proxy's limit of streams per
        # address (STREAMS_PER_ADDRESS, 100 by default) is one address's, not one player's.
        print(
            f"{streams['Failure Count']} pages went without their stream (refused) and "
            "polled every 2 s instead: start the cluster with STREAMS_PER_ADDRESS above "
            "the number of users for a run in which every page listens."
        )
    total = rows.get("Aggregated")
    if killer is None and total is not None and int(total["Request Count"]):
        served = int(total["Request Count"])
        per_request = (cluster + database) / served
        print(
            f"Server CPU per request (cluster and PostgreSQL, the mix above): "
            f"{per_request * 1e3:.1f} ms; at {served / wall:.1f} requests/s from {users} users, "
            f"two cores of its own would be 70% busy with about "
            f"{0.7 * (os.cpu_count() or 1) / per_request / (served / wall) * users:.0f} users"
        )
    failures_file = Path(f"{prefix}_failures.csv")
    if failures_file.exists():
        for row in list(csv.DictReader(failures_file.open(encoding="utf-8")))[:10]:
            error = row["Error"][:150]
            print(f"failure: {row['Method']} {row['Name']} ×{row['Occurrences']}: {error}")
    counts = check_moves(args, moves_file)
    print("Moves: " + ", ".join(f"{name} {count}" for name, count in counts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", default="20,40,80", help="comma-separated user counts")
    parser.add_argument("--duration", type=int, default=90, help="seconds per run (≤ 600)")
    parser.add_argument("--spawn-rate", type=float, default=4.0)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")))
    parser.add_argument("--cluster-dir", default=os.environ.get("CLUSTER_DIR", "var/cluster"))
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/limes_cluster"),
    )
    parser.add_argument(
        "--push", action="store_true", help="pages listen to their event streams, not polls"
    )
    parser.add_argument(
        "--draft-partials",
        action="store_true",
        help="solo players ask for two board partials a round (before issue #42)",
    )
    parser.add_argument("--kill-app1-at", type=float, default=None)
    parser.add_argument("--restart-after", type=float, default=None)
    args = parser.parse_args()
    if not 0 < args.duration <= 600:
        parser.error("--duration must be between 1 and 600 seconds")
    counts = [int(n) for n in args.users.split(",")]
    out = ROOT / "var" / "load"
    out.mkdir(parents=True, exist_ok=True)
    sessions = out / "sessions.json"
    make_sessions(args, max(counts), sessions)
    args._children_cpu = 0.0
    print(
        f"Limes Online on scripts/cluster — proxy 127.0.0.1:{args.port}, {os.cpu_count()} cores, "
        f"Python {sys.version.split()[0]}; locust {args.duration} s per run, "
        f"spawn rate {args.spawn_rate:g}/s; times in ms (locust's percentiles are rounded)"
    )
    for users in counts:
        run(args, users, sessions, out)


if __name__ == "__main__":
    main()
