"""The CPU a round's commit and a game's poll cost the server's thread, and their answers.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        python benchmarks/commit_cpu.py [--solo 8] [--duos 4] [--idle 4] \
        [--redis redis://127.0.0.1:6379/8] [--expect DIGEST] [--winter 0]

Run by hand (issue #52). Everything runs in this process through Django's WSGI handler,
with the whole middleware stack, as an app server runs it: no test client (which records
every template's context) and no HTTP. Each request's CPU is read where production reads
it, the request line's ``cpu_ms`` (``limes_site.observability``: this thread's CPU time,
not the database's), so the figures are comparable across the code's versions and robust
to other load on the machine.

The work is fixed by seeds, so it is the same on every version of the code:

- ``--solo`` solo games, cycling through the four rulesets, played to the end by the
  reference player (``rules.reference_turn``): each round one htmx POST of the commit;
- ``--duos`` two-player live games, both players the reference player: each round the
  first commits, the second's page, drafting, polls and finds it (the table redrawn), the
  second commits, the first's page polls and finds the round complete (the next board,
  its drafting data made); before them ``--idle`` polls of each page that find nothing
  new (204). The polls ask as the page does (``draft=1`` while it shows a round).

Production's cache and sessions when ``--redis`` is given (a Redis cache under a key
prefix of this run's own, ``cached_db`` sessions); the server's heap settings
(``limes_site.warmup.settle``); background tasks queued in the database, not run.

``--winter`` Winter games (issue #49), one person against three computers (``normal``,
farmers, untimed), the person's turns as the page sends them (``winter commit``), the
computers' between them, outside any timed request, and the person's page's poll that
finds them played (the board with the person's move to make): a Winter turn's commit
measured as a Limes round's is. At the end, the size of the last game's page and board
fragment with every tile down.

Every answer's body is hashed, in order, after the few values that differ from run to
run are replaced (the session's poll tokens, CSRF tokens, the request ids): one digest
for the whole run, printed at the end (the Winter games' answers in a digest of their
own, so that the Limes one is the same with or without them). Two versions of the code
that print the same digest gave the same answer on the wire; ``--expect DIGEST`` says
so, or exits 1.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import hashlib
import logging
import os
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.play_http import page_version  # noqa: E402
from benchmarks.web_speed import (  # noqa: E402
    RULESETS,
    in_throwaway_database,
    machine_busy_seconds,
    percentile,
    worker_fields,
)

# A fixed moment: the live games' deadlines are drawn in their answers.
EPOCH = "2026-03-02T10:00:00+00:00"
CSRF_SECRET = "B" * 32
# Values that change from run to run, not from code to code.
_VOLATILE = (
    re.compile(rb'(csrfmiddlewaretoken" value=")[^"]+'),
    re.compile(rb'("X-CSRFToken": ")[^"]+'),
)


class _Lines(logging.Handler):
    """Keeps each request line's fields (``limes.request``), as the log would show them."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def run(solo: int, duos: int, idle: int, redis: str, expect: str, winter: int) -> None:
    import time_machine
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import Client, RequestFactory, override_settings

    import rules
    from accounts.models import User
    from core.tokens import Scope, mint, poll_token
    from games import rebuild, services
    from games.models import Game
    from limes_site import warmup
    from wintergames import computer as winter_computer
    from wintergames import services as winter_services
    from wintergames.models import WinterGame
    from wintergames.rebuild import winter_game

    overrides: dict[str, Any] = {
        # Queued as in production, not run inside the request as the test settings do.
        "TASKS": {
            "default": {
                "BACKEND": "django_tasks_db.DatabaseBackend",
                "QUEUES": ["default", "computers"],
            }
        },
        # Production serves its static files from a manifest, not by asking the finders.
        "WHITENOISE_AUTOREFRESH": False,
    }
    if redis:
        overrides["CACHES"] = {
            "default": {
                "BACKEND": "limes_site.cache.RedisCache",
                "LOCATION": redis,
                "KEY_PREFIX": f"bench_commit_{os.getpid()}",
            }
        }
        overrides["SESSION_ENGINE"] = "django.contrib.sessions.backends.cached_db"
    override_settings(**overrides).enable()

    lines = _Lines()
    log = logging.getLogger("limes.request")
    log.handlers, log.level, log.propagate = [lines], logging.INFO, False

    clock = time_machine.travel(EPOCH, tick=False)
    clock.start()
    handler = WSGIHandler()
    factory = RequestFactory()
    digest = hashlib.sha256()
    winter_digest = hashlib.sha256()
    winter_sizes: list[str] = []
    answers = 0
    cpu: dict[str, list[float]] = defaultdict(list)
    thread: dict[str, list[float]] = defaultdict(list)
    queries: dict[str, list[int]] = defaultdict(list)

    def session_of(user: User) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value

    def request(
        kind: str, method: str, path: str, session: str, data: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        nonlocal answers
        cookie = f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={CSRF_SECRET}"
        headers = {"HX-Request": "true", "Cookie": cookie, "X-CSRFToken": CSRF_SECRET}
        if method == "POST":
            made = factory.post(path, data or {}, headers=headers)
        else:
            made = factory.get(path, data or {}, headers=headers)
        status: list[str] = []

        def start_response(line: str, _headers: object, *_error: object) -> Any:
            status.append(line)

        start = time.thread_time()
        body = b"".join(handler(made.environ, start_response))
        thread[kind].append(time.thread_time() - start)
        line = lines.records.pop()
        cpu[kind].append(line.cpu_ms)  # type: ignore[attr-defined]
        queries[kind].append(line.queries)  # type: ignore[attr-defined]
        for pattern in _VOLATILE:
            body = pattern.sub(rb"\1-", body)
        body = body.replace(session_tokens.get(session, b"\0"), b"TOKEN")
        hashed = winter_digest if kind.startswith("winter") else digest
        hashed.update(f"{kind} {status[0]} {len(body)}\n".encode())
        hashed.update(body)
        answers += 1
        return int(status[0].split()[0]), body

    session_tokens: dict[str, bytes] = {}

    def tokened(session: str, game: Game) -> str:
        token = poll_token(game.pk, session)
        session_tokens[session] = token.encode()
        return token

    def commit(kind: str, game: Game, user: User, session: str) -> bytes:
        game.refresh_from_db()
        state = rebuild.rules_game(game)
        card = state.current_card
        assert card is not None
        turn = rules.reference_turn(state.boards[user.username], card, state.variants)
        row, col = turn.placement.card_at
        fields = {
            "round": str(state.round),
            "rot": str(turn.placement.rotation),
            "at": f"{row},{col}",
            **worker_fields(turn.worker),
        }
        tokened(session, game)
        status, body = request(kind, "POST", f"/games/{game.pk}/play/", session, fields)
        if status != 200 or b'data-testid="error"' in body:
            raise RuntimeError(f"commit in game {game.pk} answered {status} or an error")
        return body

    def poll(
        kind: str, game: Game, session: str, version: int, expect: int, *, drafting: bool
    ) -> bytes:
        # As the page asks (games/_table.html): draft=1 while it shows a round to draft,
        # and then only the table is redrawn.
        params = {
            "v": str(version),
            "s": "active",
            "draft": "1" if drafting else "0",
            "t": tokened(session, game),
        }
        status, body = request(kind, "GET", f"/games/{game.pk}/poll/", session, params)
        if status != expect:
            raise RuntimeError(f"poll of game {game.pk} answered {status}, not {expect}")
        return body

    def winter_play(kinds: tuple[str, str], user: User, session: str, seed: int) -> None:
        game = winter_services.game_create(
            user=user,
            players=4,
            computers=3,
            level="normal",
            farmers=True,
            pace="untimed",
            seed=seed,
        )
        winter_token = mint(Scope.WINTER_GAME, session, game.pk)
        seen: int | None = None  # the version the person's page shows
        while True:
            game.refresh_from_db()
            if not game.is_running:
                return
            seats = list(game.seats.select_related("user").order_by("position"))
            state = winter_game(game, seats)
            if seats[state.to_move].user_id != user.pk:
                # The computers' turns, queued by the commit and run here, untimed.
                winter_computer.bots_play(game_id=game.pk, turn_number=len(state.turns))
                continue
            assert state.drawn is not None
            session_tokens[session] = winter_token.encode()
            if seen is not None:
                # The page's poll finds the computers' turns: the board, the person's move
                # to make (its legal places, each described).
                status, _body = request(
                    kinds[1],
                    "GET",
                    f"/winter/games/{game.pk}/poll/",
                    session,
                    {"v": str(seen), "t": winter_token},
                )
                if status != 200:
                    raise RuntimeError(f"Winter poll of game {game.pk} answered {status}")
            # The first legal place with a follower on it when there is one: the page's
            # work for a follower's feature is part of the answer.
            moves = state.legal_moves(state.drawn)
            move = next((m for m in moves if m.followers), moves[0])
            fields = {
                "at": f"{move.at[0]},{move.at[1]}",
                "rotation": str(move.rotation),
                "follower": move.followers[0] if move.followers else "",
                "turn": str(len(state.turns)),
            }
            status, _body = request(
                kinds[0], "POST", f"/winter/games/{game.pk}/play/", session, fields
            )
            if status != 200:
                raise RuntimeError(f"Winter commit in game {game.pk} answered {status}")
            game.refresh_from_db()
            seen = game.version

    players = [User.objects.create_user(f"bench{n}", password=None) for n in range(2)]
    sessions = [session_of(user) for user in players]
    # The first game of each kind warms the caches and the code; it is not counted.
    warmup.settle()
    machine, own = machine_busy_seconds(), time.process_time()
    for number in range(solo + 1):
        variants = RULESETS[number % len(RULESETS)]
        game = services.game_create_solo(
            user=players[0],
            diagonal=variants.diagonal,
            ferryman=variants.ferryman,
            seed=5200 + number,
        )
        kind = "commit (solo)" if number else "warm-up"
        while not game.is_finished:
            commit(kind, game, players[0], sessions[0])
            game.refresh_from_db()
    for number in range(duos + 1):
        variants = RULESETS[number % len(RULESETS)]
        game = services.game_create_multi(
            user=players[0],
            seats_max=2,
            pace=Game.Pace.LIVE,
            seed=5300 + number,
            diagonal=variants.diagonal,
            ferryman=variants.ferryman,
        )
        services.game_join(game=game, user=players[1])
        warm = not number
        while True:
            game.refresh_from_db()
            if game.is_finished:
                break
            for seat in (0, 1):
                for _ in range(idle):
                    poll(
                        "warm-up" if warm else "poll, nothing new",
                        game,
                        sessions[seat],
                        game.version,
                        204,
                        drafting=True,
                    )
            version = game.version
            commit("warm-up" if warm else "commit (two players)", game, players[0], sessions[0])
            body = poll(
                "warm-up" if warm else "poll, the other played",
                game,
                sessions[1],
                version,
                200,
                drafting=True,
            )
            version = page_version(body.decode()) or version
            game.refresh_from_db()
            before = game.version
            body = commit(
                "warm-up" if warm else "commit (two players)", game, players[1], sessions[1]
            )
            game.refresh_from_db()
            if game.is_finished:
                break
            kind = "warm-up" if warm else "poll, the round ended"
            poll(kind, game, sessions[0], before, 200, drafting=False)
    for number in range(winter + 1 if winter else 0):
        kinds = ("winter commit", "winter poll, the computers played")
        winter_play(
            kinds if number else ("winter warm-up", "winter warm-up"),
            players[0],
            sessions[0],
            5400 + number,
        )

    def ignore_status(_line: str, _headers: object, *_error: object) -> Any:
        return None

    if winter:
        # The last game's page and board fragment once every tile is down (not timed).
        last = WinterGame.objects.order_by("-pk").first()
        assert last is not None
        cookie = f"{settings.SESSION_COOKIE_NAME}={sessions[0]}"
        for htmx, name in ((False, "page"), (True, "board fragment")):
            headers = {"Cookie": cookie, **({"HX-Request": "true"} if htmx else {})}
            made = factory.get(f"/winter/games/{last.pk}/", headers=headers)
            body = b"".join(handler(made.environ, ignore_status))
            tiles = len(winter_game(last, list(last.seats.all())).board)
            winter_sizes.append(
                f"Winter {name} at {tiles} tiles: {len(body):,} bytes, "
                f"{len(gzip.compress(body)):,} gzipped."
            )
    own, machine = time.process_time() - own, machine_busy_seconds() - machine
    clock.stop()

    print(
        f"Commit and poll CPU (issue #52): {solo} solo games, {duos} two-player games, "
        f"{idle} idle polls a page a round; sessions {settings.SESSION_ENGINE.rsplit('.', 1)[1]}, "
        f"cache {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[1]}, Python "
        f"{sys.version.split()[0]}, gc threshold {gc.get_threshold()}."
    )
    print("cpu_ms: the request line's (this thread, the middleware included); ms.")
    print()
    print("| request | n | cpu_ms median | p95 | mean | thread ms median | queries |")
    print("|---|---:|---:|---:|---:|---:|:---:|")
    for kind in sorted(k for k in cpu if not k.endswith("warm-up")):
        values = cpu[kind]
        counts = sorted(set(queries[kind]))
        spread = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        print(
            f"| {kind} | {len(values)} | {statistics.median(values):.2f} "
            f"| {percentile(values, 0.95):.2f} | {statistics.mean(values):.2f} "
            f"| {statistics.median(thread[kind]) * 1e3:.2f} | {spread} |"
        )
    commits = cpu["commit (solo)"] + cpu["commit (two players)"]
    print()
    if commits:
        print(
            f"All commits: median {statistics.median(commits):.2f} ms, "
            f"p95 {percentile(commits, 0.95):.2f} ms ({len(commits)})."
        )
    print(
        f"CPU meanwhile: this process {own:.1f} s, the machine {machine:.1f} s (all cores, "
        "everything): the cpu_ms above are this thread's alone."
    )
    found = digest.hexdigest()
    print(f"Answers: {answers}, digest {found}")
    if winter:
        print(f"Winter answers' digest {winter_digest.hexdigest()}")
        print(*winter_sizes, sep="\n")
    if expect and found != expect:
        print(f"DIFFERENT from the expected digest {expect}")
        sys.exit(1)
    if expect:
        print("Same answers as the expected digest.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solo", type=int, default=8, help="solo games timed (default 8)")
    parser.add_argument("--duos", type=int, default=4, help="two-player games timed (4)")
    parser.add_argument("--idle", type=int, default=4, help="idle polls a page a round (4)")
    parser.add_argument("--redis", default="", help="production's cache and sessions here")
    parser.add_argument("--expect", default="", help="the digest the answers must have")
    parser.add_argument("--winter", type=int, default=0, help="Winter games timed (0)")
    args = parser.parse_args()
    in_throwaway_database(
        lambda: run(args.solo, args.duos, args.idle, args.redis, args.expect, args.winter)
    )


if __name__ == "__main__":
    main()
