"""Load on ``scripts/cluster`` with locust: a realistic mix of players and visitors.

Run it through ``benchmarks/load_cluster.py``, which prepares signed-in players, runs
locust headless against 127.0.0.1 only, and checks the moves in the database afterwards.
By hand (after load_cluster.py --prepare-only has written the sessions file):

    LIMES_LOAD_SESSIONS=var/load/sessions.json locust -f benchmarks/locustfile.py \
        --headless -H http://127.0.0.1:8080 -u 40 -r 4 -t 60s

The mix, by weight of simulated users:
- solo players (5): a new solo game, then each round 2–10 s of thought and the commit;
  the board drafts in the page (issue #42: the board carries every outcome of its draft),
  so no request between commits. With ``LIMES_LOAD_PARTIALS=1`` they draft as before
  issue #42: two board partials a round (the card turned, then placed), for comparison;
- multiplayer players (2 + 2), in pairs: an opener opens an invitation-only two-seat
  game, a joiner joins it by its code; each round they think 2–10 s and commit, polling
  every 2 s as the page does, while they think and while they wait for the other;
- visitors (2): leaderboards and profiles, a page every 3–8 s;
- one floor probe: the anonymous home page (no query, a small template) twice a second.
The simulated players choose a random legal turn (``play_http.Landscape`` with ``rng``),
not the reference player's: choosing took two thirds of locust's CPU, on the same two
cores as the servers under test, where a real player's thinking costs the servers nothing.
They use locust's ``FastHttpUser`` (geventhttpclient) for the same reason.
Every commit that the server accepted is written to ``LIMES_LOAD_MOVES`` (game, round) so
that load_cluster.py can compare them with the moves stored.

With ``LIMES_LOAD_PUSH=1`` the multiplayer pages behave as with server push: each holds its
game's event stream open (``games.streams``) and polls only when an event arrives (or after
30 s without one, as a fallback would), instead of every 2 s. Either way, "delivery" is
the time from the moment a player sent a commit to the moment the other player's page had
its update (its poll's answer), as locust's own request kind.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import random
import re
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import gevent  # type: ignore[import-untyped]
from gevent.event import Event as Signal  # type: ignore[import-untyped]
from locust import FastHttpUser, between, constant, events, task
from locust.contrib.fasthttp import ResponseContextManager
from locust.exception import StopUser
from requests.cookies import create_cookie

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from benchmarks.play_http import (
    FINAL,
    GAME_PATH,
    HEADER_TOKEN,
    Landscape,
    page_poll_token,
    page_round,
    page_stream_path,
    page_version,
)
from benchmarks.sse_client import EventStream

ALLOWED_HOST = "http://127.0.0.1"  # loopback only: never load any other address
POLL_SECONDS = 2.0
STREAM_RETRY_SECONDS = 1.0
PUSH = os.environ.get("LIMES_LOAD_PUSH") == "1"
# Draft through the server's board partials, as the page did before it drafted by itself.
PARTIALS = os.environ.get("LIMES_LOAD_PARTIALS") == "1"
# With push, a page that heard nothing for this long polls anyway. Its stream refused or
# closed, it polls every POLL_SECONDS, as the page's timer does while its stream is down.
PUSH_FALLBACK_SECONDS = 30.0
INVITE = re.compile(r"/join/([A-Z0-9]{8})/")
RULESETS = ["standard", "diagonal", "ferryman", "both"]
BOARDS = ["best", "week", "average", "rating"]
VARIANTS = {
    "standard": rules.Variants(),
    "diagonal": rules.Variants(diagonal=True),
    "ferryman": rules.Variants(ferryman=True),
    "both": rules.Variants(diagonal=True, ferryman=True),
}


def _load_sessions() -> list[dict[str, str]]:
    path = os.environ.get("LIMES_LOAD_SESSIONS", "var/load/sessions.json")
    return list(json.loads(Path(path).read_text()))


_sessions = _load_sessions()
_next_session = itertools.count()
# Invitations (game path, code) from openers to joiners.
_open_games: queue.Queue[tuple[str, str]] = queue.Queue()
_moves_lock = threading.Lock()
# By (game address, the version a commit made): who sent that commit and when; and who
# had it on their page and when, if that came first (it may arrive before the answer).
_commits: dict[tuple[str, int], tuple[str, float]] = {}
_received: dict[tuple[str, int], list[tuple[str, float]]] = {}
_moves_file = open(  # noqa: SIM115 - open for the whole run, closed at its end
    os.environ.get("LIMES_LOAD_MOVES", "var/load/moves.jsonl"), "a", encoding="utf-8"
)


def _loopback_only(environment: object, **kwargs: object) -> None:
    host = getattr(environment, "host", "") or ""
    if not (host.startswith(ALLOWED_HOST + ":") or host == ALLOWED_HOST):
        raise SystemExit(f"refusing to load {host!r}: only {ALLOWED_HOST} is a target")


def _close_moves(**kwargs: object) -> None:
    _moves_file.close()


# locust's event hooks carry no types.
events.test_start.add_listener(_loopback_only)  # type: ignore[no-untyped-call]
events.quitting.add_listener(_close_moves)  # type: ignore[no-untyped-call]


def _record_move(game: str, player: str, round_number: int, ok: bool | None) -> None:
    # ok None: sent, no answer yet (a run that stops may cut the answer off).
    line = {"game": int(game), "player": player, "round": round_number, "ok": ok}
    with _moves_lock:
        _moves_file.write(json.dumps(line) + "\n")
        _moves_file.flush()


class SignedIn(FastHttpUser):
    """A player whose browser already holds a session (signing in is not what is measured)."""

    abstract = True

    def on_start(self) -> None:
        index = next(_next_session)
        if index >= len(_sessions):
            raise StopUser()
        self.player = _sessions[index]
        # A session made beforehand, as a signed-in browser would send it.
        session = create_cookie("sessionid", self.player["sessionid"], domain="127.0.0.1")
        self.client.cookiejar.set_cookie(session)
        self.csrf = ""
        # Each game page's poll token, by game address (see play_http.page_poll_token).
        self.poll_tokens: dict[str, str] = {}

    def get(self, path: str, name: str, *, htmx: bool = False) -> str:
        headers = {"HX-Request": "true"} if htmx else None
        with self.client.get(path, name=name, headers=headers, catch_response=True) as response:
            if response.status_code not in (200, 204):
                response.failure(f"status {response.status_code}")
                return ""
            return self._remember_token(str(response.text or ""))

    def post(
        self, path: str, name: str, data: dict[str, str], *, follow: bool = True
    ) -> ResponseContextManager:
        headers = {"X-CSRFToken": self.csrf, "HX-Request": "true"}
        return self.client.post(
            path,
            data=data,
            name=name,
            headers=headers,
            catch_response=True,
            allow_redirects=follow,
        )

    def _remember_token(self, text: str) -> str:
        match = HEADER_TOKEN.search(text)
        if match:
            self.csrf = match.group(1)
        return text

    def think(self, low: float = 2.0, high: float = 10.0) -> float:
        return random.uniform(low, high)

    def commit(self, path: str, round_number: int, fields: dict[str, str]) -> str | None:
        game = GAME_PATH.search(path)
        assert game is not None
        _record_move(game.group(1), self.player["username"], round_number, None)
        sent = time.monotonic()
        with self.post(f"{path}play/", "commit", {"round": str(round_number), **fields}) as answer:
            text = str(answer.text or "")
            ok = answer.status_code == 200 and 'data-testid="error"' not in text
            _record_move(game.group(1), self.player["username"], round_number, ok)
            if not ok:
                answer.failure(f"status {answer.status_code}: {text[:120]!r}")
                return None
            version = page_version(text)
            if version is not None:
                key = (path, version)
                _commits[key] = (self.player["username"], sent)
                for player, received in _received.pop(key, []):
                    if player != self.player["username"]:
                        self.delivery(player, sent, received)
            return self._remember_token(text)

    def delivery(self, receiver: str, sent: float, received: float) -> None:
        """A commit reached the other player's page: its delivery time, as a request."""
        self.environment.events.request.fire(
            request_type="PUSH" if PUSH else "POLL",
            name="delivery",
            response_time=(received - sent) * 1e3,
            response_length=0,
            exception=None,
            context={},
        )


class SoloPlayer(SignedIn):
    """Plays solo games from start to end, one after another."""

    weight = 5
    wait_time = between(1, 3)

    @task
    def play_a_game(self) -> None:
        ruleset = random.choice(RULESETS)
        variants = VARIANTS[ruleset]
        self.get("/", "home, signed in")
        fields = {name: "on" for name in variants.names()}
        with self.post("/games/new/", "new game", fields, follow=False) as created:
            location = created.headers.get("Location", "")
            if created.status_code != 302 or not GAME_PATH.search(location):
                created.failure(f"new game: {created.status_code} {location!r}")
                return
        path = GAME_PATH.search(location)
        assert path is not None
        url = f"/games/{path.group(1)}/"
        page = self.get(url, "game page")
        landscape = Landscape(variants, rng=random.Random())
        for round_number in range(1, rules.ROUNDS + 1):
            if not page:
                return
            fields = landscape.next_turn(page, round_number)
            thought = self.think()
            if PARTIALS:
                # Two redraws on the way to the turn: the card turned, then placed.
                time.sleep(thought * 0.4)
                turned = {"rot": fields["rot"]}
                self.get(f"{url}?{urlencode(turned)}", "board partial", htmx=True)
                time.sleep(thought * 0.4)
                self.get(f"{url}?{urlencode(fields)}", "board partial", htmx=True)
                time.sleep(thought * 0.2)
            else:
                time.sleep(thought)  # the draft is drawn in the page: nothing to ask
            page = self.commit(url, round_number, fields) or ""
        if page and FINAL not in page:
            self.environment.events.request.fire(
                request_type="CHECK",
                name="final result",
                response_time=0,
                response_length=0,
                exception=AssertionError("no final result after round 16"),
                context={},
            )


class MultiPlayer(SignedIn):
    """Plays two-player live games: an ``Opener`` opens each, a ``Joiner`` takes the seat."""

    abstract = True
    wait_time = between(1, 3)

    def on_start(self) -> None:
        super().on_start()
        self.news = Signal()
        self.listener: gevent.Greenlet[None] | None = None

    def on_stop(self) -> None:
        self.close_stream()

    @task
    def play_a_game(self) -> None:
        try:
            self.play(self.find_game())
        finally:
            self.close_stream()

    def play(self, url: str | None) -> None:
        if url is None:
            return
        page = self.get(url, "game page")
        self.open_stream(page)
        landscape = Landscape(rules.Variants(), rng=random.Random())
        for round_number in range(1, rules.ROUNDS + 1):
            found = self.wait_for_round(url, page, round_number)
            if found is None:
                return
            fields = landscape.next_turn(found, round_number)
            version = page_version(found)
            self.poll_tokens[url] = page_poll_token(found) or self.poll_tokens.get(url, "")
            # The page hears of the other's moves while its player thinks (draft=1: the
            # draft stays): polling every 2 s, or with push when an event says so.
            until = time.monotonic() + self.think()
            while (left := until - time.monotonic()) > 0:
                if self.wait_for_news(min(POLL_SECONDS, left) if not PUSH else left) and version:
                    update = self.poll(url, version, draft=1)
                    version = page_version(update or "") or version
            committed = self.commit(url, round_number, fields)
            if committed is None:
                return
            page = committed

    def open_stream(self, page: str) -> None:
        """With push, listen to the page's event stream, as htmx's sse extension does."""
        path = page_stream_path(page)
        if not PUSH or path is None or self.listener is not None:
            return
        port = int((self.host or ALLOWED_HOST).rsplit(":", 1)[1])
        self.listener = gevent.spawn(self.listen, port, path)

    def listen(self, port: int, path: str) -> None:
        while True:
            started = time.monotonic()
            try:
                stream = EventStream(
                    port, path, {"sessionid": self.player["sessionid"]}, timeout=60
                )
            except OSError as error:
                self.stream_opened(started, error)
                return
            if stream.status != 200:
                # Refused (the proxy's limits answer 429 or 503): the page polls instead.
                self.stream_opened(started, RuntimeError(f"status {stream.status}"))
                stream.close()
                return
            self.stream_opened(started, None)
            try:
                while True:
                    stream.next_event()
                    self.news.set()
            except (EOFError, OSError):
                pass
            finally:
                stream.close()
            # Ended by the server (a restart, a lost Redis): the page's EventSource opens it
            # again after the stream's retry (floor.streams.RETRY_MILLISECONDS), each
            # opening counted as a "stream" again; the page polls once meanwhile.
            self.news.set()
            time.sleep(STREAM_RETRY_SECONDS)

    def stream_opened(self, started: float, error: Exception | None) -> None:
        """A stream opened, or was refused: as a request kind of its own ("stream"), so
        that a run shows how many pages went without one."""
        self.environment.events.request.fire(
            request_type="SSE",
            name="stream",
            response_time=(time.monotonic() - started) * 1e3,
            response_length=0,
            exception=error,
            context={},
        )

    def close_stream(self) -> None:
        if self.listener is not None:
            self.listener.kill(block=False)
            self.listener = None

    def wait_for_news(self, seconds: float) -> bool:
        """Wait as the page does; True when it would poll now (an event, or the timer)."""
        if not PUSH or self.listener is None or self.listener.dead:
            # No stream, or none any more (refused, or closed): the page's timer polls.
            time.sleep(min(seconds, POLL_SECONDS))
            return True
        heard = self.news.wait(seconds)
        self.news.clear()
        return bool(heard)

    def find_game(self) -> str | None:
        raise NotImplementedError

    def wait_for_round(self, url: str, page: str, round_number: int) -> str | None:
        """Poll every 2 s until the page offers this round's card; that page, or None."""
        for _ in range(300):  # ten minutes at most
            if FINAL in page:
                return None
            shown = page_round(page)
            if shown and shown[0] == round_number:
                return page
            version = page_version(page)
            self.poll_tokens[url] = page_poll_token(page) or self.poll_tokens.get(url, "")
            self.wait_for_news(PUSH_FALLBACK_SECONDS if PUSH else POLL_SECONDS)
            update = None if version is None else self.poll(url, version, draft=0)
            if update is None:
                page = self.get(url, "game page")
            elif update:
                new_version = page_version(update)
                if page_round(update):
                    page = update  # the round is complete: the next board came with it
                elif new_version is not None:
                    page = page.replace(
                        f'data-version="{version}"', f'data-version="{new_version}"'
                    )
                else:
                    page = self.get(url, "game page")
        return None

    def poll(self, url: str, version: int, draft: int, status: str = "active") -> str | None:
        """``""`` if nothing is new, the update if something is, None if the page must reload."""
        # The page's token: without it a game's poll answers like a missing game.
        token = self.poll_tokens.get(url, "")
        query = f"?v={version}&s={status}&draft={draft}&t={token}"
        with self.client.get(
            f"{url}poll/{query}", name="poll", headers={"HX-Request": "true"}, catch_response=True
        ) as answer:
            if answer.status_code == 204:
                return ""
            if answer.status_code != 200:
                answer.failure(f"status {answer.status_code}")
                return ""
            if answer.headers.get("HX-Refresh"):
                return None
            text = str(answer.text or "")
        self.delivered(url, page_version(text))
        return text

    def delivered(self, url: str, version: int | None) -> None:
        """The page now shows ``version``: how long after the other player's commit."""
        key, now, me = (url, version or 0), time.monotonic(), self.player["username"]
        committed = _commits.get(key)
        if committed is None:
            _received.setdefault(key, []).append((me, now))
        elif committed[0] != me:
            self.delivery(me, committed[1], now)


class Opener(MultiPlayer):
    """Opens an invitation-only game, hands its code to a joiner, waits for the start."""

    weight = 2

    def find_game(self) -> str | None:
        self.get("/lobby/", "lobby")
        fields = {
            "seats_max": "2",
            "pace": "live",
            "live_seconds": "600",
            "correspondence_seconds": "86400",
        }
        with self.post("/games/new/multi/", "new game", fields, follow=False) as created:
            location = created.headers.get("Location", "")
            match = GAME_PATH.search(location)
            if created.status_code != 302 or not match:
                created.failure(f"new multiplayer game: {created.status_code} {location!r}")
                return None
        url = f"/games/{match.group(1)}/"
        page = self.get(url, "game page")
        code = INVITE.search(page)
        version = page_version(page)
        self.poll_tokens[url] = page_poll_token(page) or ""
        if code is None or version is None:
            return None
        _open_games.put((url, code.group(1)))
        # The waiting room: its stream tells when the joiner takes the seat.
        self.open_stream(page)
        for _ in range(300):  # ten minutes at most
            self.wait_for_news(PUSH_FALLBACK_SECONDS if PUSH else POLL_SECONDS)
            if self.poll(url, version, draft=0, status="waiting") is None:
                return url  # the game started: the page reloads
        return None


class Joiner(MultiPlayer):
    """Takes an invitation from an opener and joins by its code."""

    weight = 2

    def find_game(self) -> str | None:
        for _ in range(60):
            try:
                url, code = _open_games.get_nowait()
            except queue.Empty:
                time.sleep(1)
                continue
            self.get(f"/join/{code}/", "invitation")
            with self.post(f"/join/{code}/", "join", {}, follow=False) as joined:
                if joined.status_code != 302:
                    joined.failure(f"join: {joined.status_code}")
                    return None
            return url
        return None


class Visitor(FastHttpUser):
    """Someone browsing the boards and players' profiles without signing in."""

    weight = 2
    wait_time = between(3, 8)

    @task(3)
    def leaderboard(self) -> None:
        ruleset, board = random.choice(RULESETS), random.choice(BOARDS)
        self.client.get(f"/leaderboards/{ruleset}/{board}/", name="leaderboard")

    @task(2)
    def profile(self) -> None:
        player = random.choice(_sessions)["username"]
        self.client.get(f"/players/{player}/", name="profile")

    @task(1)
    def daily(self) -> None:
        self.client.get("/daily/", name="daily board")


class Floor(FastHttpUser):
    """The trivial page, measured in the same run: what the stack costs without the game."""

    fixed_count = 1
    wait_time = constant(0.5)

    @task
    def home(self) -> None:
        self.client.get("/", name="floor")
