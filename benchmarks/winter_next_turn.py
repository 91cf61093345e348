"""A Winter turn on the other screen: from one player's commit to the other's new board.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        python benchmarks/winter_next_turn.py [--turns 30] [--seed 1] [--modes stream,poll]

Run by hand (issue #49). On a throwaway database (as ``web_speed.py``) it serves the site
with uvicorn (ASGI, as ``live_stall.py`` and ``scripts/serve`` do) on a free loopback port,
and seats two people at a live Winter game of two. Each is a client that does what their
page does, over HTTP: it holds the game's event stream open (``/winter/games/<id>/stream/``,
as htmx's sse extension) and, on each ``game`` event, asks the page's poll
(``/poll/?v=…&t=…``) for the new board; or, in ``poll`` mode, with no stream (a server
without push, a stream that dropped), it asks the poll every 2 s, as the page then does.
The player to move commits a legal turn (the htmx POST the page sends, chosen from the game
as the server rebuilds it), after a random pause of 0.2–1 s; a turn is measured from the
moment the commit is sent to the moment the other client has the board it drew (the poll's
whole answer read, its ``data-version`` the commit's). Browsers' drawing is not included:
``live_stall.py`` measures that for Limes.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import socket
import statistics
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.live_stall import free_port, serve, session_for  # noqa: E402
from benchmarks.play_http import HEADER_TOKEN  # noqa: E402
from benchmarks.sse_client import EventStream  # noqa: E402
from benchmarks.web_speed import in_throwaway_database, percentile  # noqa: E402

POLL = re.compile(r'hx-get="(/winter/games/\d+/poll/\?v=\d+&amp;t=[0-9a-f]+)"')
STREAM = re.compile(r'sse-connect="(/winter/games/\d+/stream/[^"]*)"')
VERSION = re.compile(r'<section id="winter-board"[^>]*?data-version="(\d+)"')
POLL_SECONDS = 2.0
GIVE_UP_SECONDS = 30.0


@dataclass
class Player:
    """One person's page: their cookies, the poll's token and the version it shows."""

    name: str
    port: int
    cookies: dict[str, str]
    game_id: int
    known: int = 0
    token: str = ""
    csrf: str = ""
    stream_path: str = ""
    committing: bool = False
    # When this page first had each version's board, and heard of it (time.monotonic()).
    shown: dict[int, float] = field(default_factory=dict)
    heard: dict[int, float] = field(default_factory=dict)
    stream: EventStream | None = None
    changed: threading.Condition = field(default_factory=threading.Condition)
    errors: list[str] = field(default_factory=list)

    def request(
        self, method: str, path: str, body: str | None = None, htmx: bool = True
    ) -> tuple[int, str, http.client.HTTPResponse]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=GIVE_UP_SECONDS)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if htmx:
            headers["HX-Request"] = "true"
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.csrf
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, response.read().decode(), response
        finally:
            connection.close()

    def open_page(self) -> None:
        """The full page, as the browser first loads it: the poll's token, the stream's
        address, the CSRF token and cookie."""
        status, html, response = self.request("GET", f"/winter/games/{self.game_id}/", htmx=False)
        assert status == 200, status
        for header in response.headers.get_all("Set-Cookie") or []:
            name, value = header.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
        poll = POLL.search(html)
        stream = STREAM.search(html)
        token = HEADER_TOKEN.search(html)
        version = VERSION.search(html)
        assert poll and stream and token and version, "the page lacks its poll or stream"
        address = urllib.parse.urlsplit(poll.group(1).replace("&amp;", "&"))
        self.token = urllib.parse.parse_qs(address.query)["t"][0]
        self.stream_path = stream.group(1).replace("&amp;", "&")
        self.csrf = token.group(1)
        self.known = int(version.group(1))

    def poll(self) -> None:
        """The page's poll: a new board (200) is taken in, as htmx swaps it."""
        with self.changed:
            known = self.known
        path = f"/winter/games/{self.game_id}/poll/?v={known}&t={self.token}"
        status, html, _response = self.request("GET", path)
        if status == 204:
            return
        version = VERSION.search(html)
        if status != 200 or version is None:
            self.errors.append(f"{self.name}: poll answered {status}")
            return
        self.show(int(version.group(1)))

    def show(self, version: int) -> None:
        with self.changed:
            if version > self.known:
                self.known = version
                self.shown.setdefault(version, time.monotonic())
                self.changed.notify_all()

    def listen(self, stop: threading.Event) -> None:
        """The page with its stream open: each ``game`` event sets off its poll."""
        self.stream = stream = EventStream(self.port, self.stream_path, self.cookies, timeout=60)
        if stream.status != 200:
            self.errors.append(f"{self.name}: the stream answered {stream.status}")
            return
        try:
            while not stop.is_set():
                event = stream.next_event()
                self.heard.setdefault(int(event.event_id or 0), event.received)
                with self.changed:
                    stale = int(event.event_id or 0) > self.known and not self.committing
                if event.name == "game" and stale:
                    self.poll()
        except (EOFError, TimeoutError, OSError, ValueError) as error:
            if not stop.is_set():
                self.errors.append(f"{self.name}: the stream ended: {error!r}")
        finally:
            stream.close()

    def keep_polling(self, stop: threading.Event) -> None:
        """The page without its stream: the poll every 2 s."""
        tick = time.monotonic()
        while not stop.is_set():
            tick += POLL_SECONDS
            stop.wait(max(0.0, tick - time.monotonic()))
            if not stop.is_set():
                self.poll()

    def wait_for(self, version: int) -> float | None:
        with self.changed:
            self.changed.wait_for(lambda: version in self.shown, GIVE_UP_SECONDS)
            return self.shown.get(version)


def legal_turn(game_id: int) -> dict[str, str]:
    """A legal turn for the player to move, as the page's form sends it (from the game as
    the server rebuilds it)."""
    from wintergames.models import WinterGame
    from wintergames.rebuild import winter_game

    game = WinterGame.objects.get(pk=game_id)
    state = winter_game(game, list(game.seats.select_related("user").order_by("position")))
    assert state.drawn is not None
    move = state.legal_moves(state.drawn)[0]
    return {
        "at": f"{move.at[0]},{move.at[1]}",
        "rotation": str(move.rotation),
        "follower": "",
        "turn": str(len(state.turns)),
    }


def to_move(game_id: int) -> int:
    from wintergames.models import WinterGame

    game = WinterGame.objects.get(pk=game_id)
    return int(game.waiting_for_id or 0) if game.is_running else 0


@dataclass
class Timings:
    """Per turn, from the moment the commit is sent (seconds): the mover's answer, the
    other page's event (stream mode), the other page's new board; what went wrong."""

    answered: list[float] = field(default_factory=list)
    heard: list[float] = field(default_factory=list)
    shown: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def play(mode: str, turns: int, rng: random.Random, port: int) -> Timings:
    """``turns`` turns of a new live game of two, each timed to the other page's board."""
    from django.conf import settings

    from accounts.models import User
    from wintergames import services

    users = [User.objects.create_user(username=f"{mode}{n}", password=None) for n in (1, 2)]
    game = services.game_create(
        user=users[0], players=2, computers=0, level="easy", farmers=True, pace="live"
    )
    services.game_join(game_id=game.pk, user=users[1])
    cookie = settings.SESSION_COOKIE_NAME
    players = {
        user.pk: Player(user.username, port, {cookie: session_for(user)}, game.pk) for user in users
    }
    for player in players.values():
        player.open_page()
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=player.listen if mode == "stream" else player.keep_polling,
            args=(stop,),
            daemon=True,
        )
        for player in players.values()
    ]
    for thread in threads:
        thread.start()
    timings = Timings()
    errors = timings.errors
    try:
        time.sleep(1.0)  # the streams open, as the page's do once it has loaded
        for _turn in range(turns):
            mover_id = to_move(game.pk)
            if not mover_id:
                break  # the game is over
            mover = players[mover_id]
            other = next(p for pk, p in players.items() if pk != mover_id)
            fields = legal_turn(game.pk)
            time.sleep(rng.uniform(0.2, 1.0))  # the player thinks
            with mover.changed:
                mover.committing = True
            sent = time.monotonic()
            status, html, _response = mover.request(
                "POST", f"/winter/games/{game.pk}/play/", urllib.parse.urlencode(fields)
            )
            answered = time.monotonic()
            version = VERSION.search(html)
            if status != 200 or version is None:
                errors.append(f"{mover.name}: the commit answered {status}: {html[:200]!r}")
                break
            mover.show(int(version.group(1)))
            with mover.changed:
                mover.committing = False
            shown = other.wait_for(int(version.group(1)))
            if shown is None:
                errors.append(f"{other.name}: no board of version {version.group(1)} in 30 s")
                break
            timings.answered.append(answered - sent)
            timings.shown.append(shown - sent)
            heard = other.heard.get(int(version.group(1)))
            if heard is not None:
                timings.heard.append(heard - sent)
    finally:
        stop.set()
        for player in players.values():
            sock = player.stream.connection.sock if player.stream is not None else None
            if sock is not None:
                # The tab closed: its listener reads the end, and the server's stream ends.
                sock.shutdown(socket.SHUT_RDWR)
        for thread in threads:
            thread.join(5)
    for player in players.values():
        errors += player.errors
    return timings


def run(turns: int, seed: int, modes: list[str]) -> None:
    rng = random.Random(seed)
    port = free_port()
    server = serve(port)
    # The ORM calls made here, beside the clients' threads, are synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    load_before = os.getloadavg()
    started = time.monotonic()
    results: dict[str, Timings] = {}
    try:
        for mode in modes:
            results[mode] = play(mode, turns, rng, port)
    finally:
        server.terminate()
        server.wait(10)
    load_after = os.getloadavg()
    print(
        f"Winter next turn — a live game of two people over HTTP against uvicorn "
        f"(limes_site.settings: {os.environ.get('DJANGO_SETTINGS_MODULE')}), {turns} turns "
        f"a mode, {time.monotonic() - started:.0f} s; load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after"
    )
    print()
    print(
        "| the other page hears by | turns | commit sent → its new board: median | p95 | worst "
        "| mover's answer: median | event heard: median |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    labels = {"stream": "its event stream (then its poll)", "poll": "its poll every 2 s alone"}
    for mode, timings in results.items():
        shown = [t * 1e3 for t in timings.shown] or [float("nan")]
        answered = [t * 1e3 for t in timings.answered] or [float("nan")]
        heard = f"{statistics.median(timings.heard) * 1e3:.0f} ms" if timings.heard else "—"
        print(
            f"| {labels[mode]} | {len(timings.shown)} | {statistics.median(shown):.0f} ms "
            f"| {percentile(shown, 0.95):.0f} ms | {max(shown):.0f} ms "
            f"| {statistics.median(answered):.0f} ms | {heard} |"
        )
        for error in timings.errors:
            print(f"  {mode}: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30, help="turns a mode (default 30)")
    parser.add_argument("--seed", type=int, default=1, help="the players' pauses (default 1)")
    parser.add_argument(
        "--modes", default="stream,poll", help="stream, poll or both (default stream,poll)"
    )
    args = parser.parse_args()
    modes = [mode for mode in args.modes.split(",") if mode]
    if not modes or set(modes) - {"stream", "poll"}:
        parser.error("--modes: stream, poll or both")
    in_throwaway_database(lambda: run(args.turns, args.seed, modes))


if __name__ == "__main__":
    main()
