"""Simulated players playing whole solo games at once over HTTP: gunicorn and PostgreSQL.

    python benchmarks/load_solo.py [--players 20] [--workers 2] [--think 0] \
        [--settings limes_site.settings.dev] \
        [--postgres postgresql://postgres@127.0.0.1:5432/postgres]

Run by hand. It creates a fresh PostgreSQL database, migrates it, creates the players,
starts ``gunicorn limes_site.wsgi`` on a free port of 127.0.0.1 and signs every player in
through allauth's form. Then all play at once, each in a thread, like a browser with htmx:
the home page, POST /games/new/, the game page, and for each of the 16 rounds one board
partial (the draft of the turn) and the htmx commit, whose answer is the next board. They
pause about ``--think`` seconds (0.5 to 1.5 times) before each draft and each commit; by
default not at all, so the server is saturated and the run gives its throughput. The turn
is the reference player's (``rules.reference_turn``), chosen by the client from the card
the page shows; the server checks it as it checks anyone's. Meanwhile one more client
fetches the home page as an anonymous visitor every 50 ms: the cheapest page (no query, a
small template), for the floor under the same load. At the end gunicorn is stopped and
the database dropped.

All traffic goes to 127.0.0.1. The client runs on the same machine, so its CPU time is
printed beside the server's, the database's and the whole machine's.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

import rules  # noqa: E402
from benchmarks.web_speed import (  # noqa: E402
    cpu_seconds,
    machine_busy_seconds,
    percentile,
    worker_fields,
)

PASSWORD = "limes-load-benchmark"  # of players in a throwaway database
FLOOR_PAUSE = 0.05
DEADLINE = 600.0  # seconds; every loop stops by then whatever happens

FORM_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HEADER_TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')
CARD = re.compile(r"Card (\d+)</h2>")
ROUND = re.compile(r'data-testid="round">Round (\d+) of 16')
GAME_URL = re.compile(r"^/games/(\d+)/$")

RULESETS = [
    rules.Variants(),
    rules.Variants(diagonal=True),
    rules.Variants(ferryman=True),
    rules.Variants(diagonal=True, ferryman=True),
]


class Unexpected(Exception):
    """The server answered something a browser would show the player as a failure."""


@dataclass
class Response:
    status: int
    location: str
    body: str


# Seconds per request, by kind of request; appends from many threads are safe in CPython.
Latencies = defaultdict[str, list[float]]


class Browser:
    """One visitor: a cookie jar and one HTTP request at a time to 127.0.0.1."""

    def __init__(self, port: int, latencies: Latencies) -> None:
        self.port = port
        self.latencies = latencies
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        fields: dict[str, str] | None = None,
        *,
        htmx: bool = False,
        expect: int = 200,
    ) -> Response:
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
            headers["X-CSRFToken"] = self.csrf
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body, headers)
            answer = connection.getresponse()
            text = answer.read().decode()
        finally:
            connection.close()
        self.latencies[kind].append(time.perf_counter() - start)
        for header in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        if answer.status != expect or 'data-testid="error"' in text:
            raise Unexpected(f"{method} {path} answered {answer.status}: {text[:300]!r}")
        token = HEADER_TOKEN.search(text)
        if token:
            self.csrf = token.group(1)
        return Response(answer.status, answer.getheader("Location", ""), text)

    def form_token(self, response: Response) -> str:
        match = FORM_TOKEN.search(response.body)
        if not match:
            raise Unexpected("no CSRF token in the form")
        return match.group(1)


def sign_in(browser: Browser, username: str) -> None:
    """Sign in through allauth's form, as a person would."""
    page = browser.request("sign-in", "GET", "/accounts/login/")
    fields = {"login": username, "password": PASSWORD}
    fields["csrfmiddlewaretoken"] = browser.form_token(page)
    browser.request("sign-in", "POST", "/accounts/login/", fields, expect=302)


def play_solo(
    browser: Browser, variants: rules.Variants, think: float, rng: random.Random, deadline: float
) -> int:
    """Start a solo game and play it to the end; return the rounds committed."""
    deck = rules.load_deck()
    home = browser.request("home, signed in", "GET", "/")
    fields = {"csrfmiddlewaretoken": browser.form_token(home)}
    fields.update({name: "on" for name in variants.names()})
    created = browser.request("new game", "POST", "/games/new/", fields, expect=302)
    match = GAME_URL.match(urlsplit(created.location).path)
    if not match:
        raise Unexpected(f"new game went to {created.location!r}")
    url = match.group(0)
    page = browser.request("game page", "GET", url)
    board = rules.Board()
    for round_number in range(1, rules.ROUNDS + 1):
        if time.monotonic() > deadline:
            return round_number - 1
        card_number = CARD.search(page.body)
        shown_round = ROUND.search(page.body)
        if not card_number or not shown_round or int(shown_round.group(1)) != round_number:
            raise Unexpected(f"{url}: round {round_number} is not on the board")
        card = deck.card(int(card_number.group(1)))
        turn = rules.reference_turn(board, card, variants)
        row, col = turn.placement.card_at
        draft = {"rot": str(turn.placement.rotation), "at": f"{row},{col}"}
        draft.update(worker_fields(turn.worker))
        time.sleep(think * rng.uniform(0.5, 1.5))
        browser.request("board partial", "GET", f"{url}?{urlencode(draft)}", htmx=True)
        time.sleep(think * rng.uniform(0.5, 1.5))
        play = {"round": str(round_number), **draft}
        page = browser.request("commit", "POST", f"{url}play/", play, htmx=True)
        board = board.play(card, turn, variants)
    if 'data-testid="final-result"' not in page.body:
        raise Unexpected(f"{url}: no final result after round {rules.ROUNDS}")
    return rules.ROUNDS


# -- the server and its database ---------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


CREATE_PLAYERS = """
from django.contrib.auth.hashers import make_password
from accounts.models import User
password = make_password({password!r})
User.objects.bulk_create(
    [User(username=f"player{{n:02d}}", password=password) for n in range(1, {count} + 1)]
)
"""


def wait_until_up(server: subprocess.Popen[bytes], port: int) -> None:
    until = time.monotonic() + 30
    while time.monotonic() < until:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited at start-up")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request("GET", "/", headers={"Host": f"127.0.0.1:{port}"})
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer within 30 s")


# -- the run -----------------------------------------------------------------------------


def run(args: argparse.Namespace, port: int, database: str) -> bool:
    latencies: Latencies = defaultdict(list)
    deadline = time.monotonic() + DEADLINE

    browsers = [Browser(port, latencies) for _ in range(args.players)]
    failures: list[str] = []
    moves = [0] * args.players
    signed_in = threading.Barrier(args.players + 1)

    def player(index: int) -> None:
        try:
            sign_in(browsers[index], f"player{index + 1:02d}")
        except Exception as error:  # reported with the figures
            failures.append(f"player{index + 1:02d} sign-in: {error}")
            signed_in.abort()
            return
        try:
            signed_in.wait()
        except threading.BrokenBarrierError:
            return
        try:
            variants = RULESETS[index % len(RULESETS)]
            # Pauses vary, so that players who start together do not stay in step.
            rng = random.Random(index)
            moves[index] = play_solo(browsers[index], variants, args.think, rng, deadline)
        except Exception as error:
            failures.append(f"player{index + 1:02d}: {error}")

    floor_browser = Browser(port, latencies)
    for number in range(120):
        # The first few warm up the workers (imports, template loading): not counted.
        floor_browser.request("floor, idle" if number >= 20 else "warm-up", "GET", "/")

    done = threading.Event()

    def floor() -> None:
        while not done.is_set() and time.monotonic() < deadline:
            try:
                floor_browser.request("floor, under load", "GET", "/")
            except (Unexpected, OSError) as error:
                failures.append(f"floor: {error}")
                return
            done.wait(FLOOR_PAUSE)

    threads = [threading.Thread(target=player, args=(i,)) for i in range(args.players)]
    for thread in threads:
        thread.start()
    try:
        signed_in.wait()
    except threading.BrokenBarrierError:
        for thread in threads:
            thread.join()
        print("\n".join(failures))
        return False
    start = time.perf_counter()
    server = f"127.0.0.1:{port}"  # in the command line of gunicorn's master and workers
    cpu_before = (
        time.process_time(),
        cpu_seconds(server),
        cpu_seconds(database),
        machine_busy_seconds(),
    )
    prober = threading.Thread(target=floor)
    prober.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    cpu_after = (
        time.process_time(),
        cpu_seconds(server),
        cpu_seconds(database),
        machine_busy_seconds(),
    )
    done.set()
    prober.join()

    report(args, latencies, sum(moves), wall, cpu_before, cpu_after)
    for failure in failures:
        print("FAILED", failure)
    return not failures


def report(
    args: argparse.Namespace,
    latencies: Latencies,
    moves: int,
    wall: float,
    cpu_before: tuple[float, float, float, float],
    cpu_after: tuple[float, float, float, float],
) -> None:
    timed = ["home, signed in", "new game", "game page", "board partial", "commit"]
    requests = sum(len(latencies[kind]) for kind in timed)
    client, server, database, machine = (b - a for a, b in zip(cpu_before, cpu_after, strict=True))
    print(
        f"Limes Online load, solo — {args.players} players thinking {args.think:g} s, "
        f"gunicorn -w {args.workers} (sync), {args.settings}, PostgreSQL, "
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"
    )
    print(
        f"{moves} moves in {wall:.2f} s: {moves / wall:.1f} moves/s, "
        f"{requests / wall:.1f} requests/s (floor probe not counted)"
    )
    print(
        f"CPU during the run: gunicorn {server:.1f} s, PostgreSQL {database:.1f} s, "
        f"client {client:.1f} s, anything else {machine - server - database - client:.1f} s; "
        f"{wall * (os.cpu_count() or 1):.1f} core-seconds in all"
    )
    print()
    print("| request | count | p50 ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for kind in ["sign-in", *timed, "floor, idle", "floor, under load"]:
        values = latencies[kind]
        if values:
            print(
                f"| {kind} | {len(values)} | {percentile(values, 0.5) * 1e3:.1f} "
                f"| {percentile(values, 0.95) * 1e3:.1f} | {max(values) * 1e3:.1f} |"
            )
    print()
    print(
        "commit = htmx POST /games/<pk>/play/, answered with the next board; board partial = "
        "htmx GET /games/<pk>/?rot=…&at=…[&place=…]; floor = anonymous GET / (no query, a "
        "small template): 100 in a row before the run, then one every 50 ms during it."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player pauses before each draft and each commit (default 0)",
    )
    parser.add_argument("--settings", default="limes_site.settings.dev")
    parser.add_argument(
        "--postgres",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="a PostgreSQL server where this run may create and drop a database",
    )
    args = parser.parse_args()

    database = f"limes_bench_load_{os.getpid()}"
    url = urlsplit(args.postgres)._replace(path=f"/{database}").geturl()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": args.settings, "DATABASE_URL": url}
    with psycopg.connect(args.postgres, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{database}"')
    server = None
    ok = False
    log_path = Path(tempfile.gettempdir()) / f"limes-gunicorn-{os.getpid()}.log"
    try:
        manage(env, "migrate", "--verbosity", "0")
        code = CREATE_PLAYERS.format(password=PASSWORD, count=args.players)
        manage(env, "shell", "--no-imports", "--command", code)
        port = free_port()
        with log_path.open("wb") as log:
            server = subprocess.Popen(
                [
                    *(sys.executable, "-m", "gunicorn", "limes_site.wsgi"),
                    *("--workers", str(args.workers), "--bind", f"127.0.0.1:{port}"),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_until_up(server, port)
        ok = run(args, port, database)
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        with psycopg.connect(args.postgres, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        if ok:
            log_path.unlink(missing_ok=True)
        else:
            print(f"gunicorn's log: {log_path}", file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
