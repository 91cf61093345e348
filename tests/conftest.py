"""Fixtures shared by every test package."""

from __future__ import annotations

import datetime
import http.server
import json
import os
import socket
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import http_ece
import pytest
import time_machine
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.utils import translation

from accounts.models import PushSubscription, User
from accounts.vapid import b64url
from games import services
from games.models import Game
from tests.factories import UserFactory, reference_turn_for, seat_user
from wintergames.rebuild import forget_all

# Every test runs on this clock unless it moves it: a Wednesday at noon, far from the
# boundaries of a day, a week and a year, so no result depends on when the suite runs.
# LIMES_TEST_NOW (ISO 8601) pins it elsewhere: CI runs the clock's tests again at the end
# of a week and of a year (scripts/test), where a test that assumes noon would break.
PINNED_NOW = datetime.datetime.fromisoformat(
    os.environ.get("LIMES_TEST_NOW") or "2026-06-10T12:00:00+00:00"
)


@pytest.fixture(autouse=True)
def _pinned_clock(request: pytest.FixtureRequest) -> Iterator[None]:
    # Browser tests keep the real clock: Chromium would drop session cookies whose
    # expiry, computed from a pinned past date, already lies behind its own clock.
    if request.node.get_closest_marker("browser"):
        yield
        return
    # The clock ticks on from the pinned moment, so deadlines and throttles still pass.
    with time_machine.travel(PINNED_NOW, tick=True):
        yield


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    # allauth keeps rate-limit counters in the cache, and every test client comes from the
    # same address: without this, one test's sign-ins would throttle the next test's.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _forget_winter_positions() -> Iterator[None]:
    # Winter's rebuilt positions are kept in the process by game number and version; a
    # test database numbers its games afresh, so one test's game 2 is not the next one's.
    yield
    forget_all()


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    # A request leaves its language active in the thread: a French page must not make the
    # next test read French.
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def user(db: None) -> User:
    """A player who signs in with password ``tests.factories.PASSWORD``."""
    return UserFactory()


@pytest.fixture
def client_logged_in(client: Client, user: User) -> Client:
    """A test client signed in as ``user``."""
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def _postgres_marked(request: pytest.FixtureRequest) -> None:
    # scripts/test deselects these on SQLite; run by hand there, they must not pass quietly.
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.fail("row locks are tested on PostgreSQL: set DATABASE_URL")


@pytest.fixture
def solo_game(user: User) -> Game:
    """A new solo game of ``user`` with both variants, dealt from a fixed seed."""
    return services.game_create_solo(user=user, diagonal=True, ferryman=True, seed=7)


@pytest.fixture
def play_rounds() -> Callable[[Game, int], Game]:
    """Play ``n`` rounds of a solo game with the reference player, through the service."""

    def play(game: Game, n: int) -> Game:
        seat = game.seats.get()
        for _ in range(n):
            round_number, turn = reference_turn_for(game)
            game = services.move_submit(
                game_id=game.pk, user=seat_user(seat), round_number=round_number, turn=turn
            ).game
        return game

    return play


class Race(Protocol):
    def __call__(
        self, *actions: Callable[[], Any], refusals: tuple[type[BaseException], ...] = ()
    ) -> list[Any]: ...


def _race(*actions: Callable[[], Any], refusals: tuple[type[BaseException], ...] = ()) -> list[Any]:
    barrier = threading.Barrier(len(actions))
    outcomes: list[Any] = [None] * len(actions)
    unexpected: list[BaseException] = []

    def run(index: int, action: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            outcomes[index] = action()
        except refusals as error:
            outcomes[index] = error
        except BaseException as error:  # raised again below, in the test's own thread
            unexpected.append(error)
        finally:
            # Each thread has its own connection; left open, it would block the flush.
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if unexpected:
        raise unexpected[0]
    return outcomes


@pytest.fixture
def race() -> Race:
    """Run actions at the same instant, each in its own thread and database connection.

    Returns each action's result, in the order given, or the exception it raised if that
    is one of ``refusals``; any other exception fails the test. For row-lock tests (marked
    ``postgres``, with ``django_db(transaction=True)``).
    """
    return _race


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[[], Any]:
    """A block whose on-commit callbacks (the tasks it queues) run as a real commit would.

    Tests run inside a transaction that never commits, so ``with committed(): …`` is how
    a test sees computer players move, analyses and pars computed (by the immediate task
    backend), callbacks queued by those callbacks included.
    """
    return lambda: django_capture_on_commit_callbacks(execute=True)


class PushService:
    """A stand-in push service on 127.0.0.1: it keeps every message a device is sent and
    answers ``status`` (201, as a real one accepts; 404 or 410 for a lost subscription)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 201
        #: Sent as ``Location`` with the answer, when set (a redirect).
        self.location: str | None = None
        self.arrived = threading.Event()
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.append((self.path, headers, body))
                self.send_response(service.status)
                if service.location:
                    self.send_header("Location", service.location)
                self.send_header("Content-Length", "0")
                self.end_headers()
                service.arrived.set()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def device(self, user: User, name: str = "phone") -> PushSubscription:
        """Subscribe a device of ``user`` with fresh keys (kept here to decrypt with)."""
        key = ec.generate_private_key(ec.SECP256R1())
        secret = os.urandom(16)
        public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        self.keys[f"/{name}"] = (key, secret)
        return PushSubscription.objects.create(
            user=user,
            endpoint=f"{self.url}/{name}",
            p256dh=b64url(public),
            auth=b64url(secret),
            label=name,
        )

    def messages(self, name: str = "phone") -> list[dict[str, str]]:
        """What the device ``name`` was sent, decrypted with its keys (RFC 8291)."""
        key, secret = self.keys[f"/{name}"]
        return [
            json.loads(http_ece.decrypt(body, private_key=key, auth_secret=secret))
            for path, _headers, body in self.received
            if path == f"/{name}"
        ]


@pytest.fixture
def push_service() -> Iterator[PushService]:
    """A stand-in push service; see ``PushService``."""
    service = PushService()
    yield service
    service.server.shutdown()
    service.server.server_close()


class Tarpit:
    """A push service that takes every connection and never answers, on 127.0.0.1, until
    the test ends: what holds a worker that waits for it."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.held: list[socket.socket] = []
        self.arrived = threading.Event()
        threading.Thread(target=self._hold, daemon=True).start()

    def _hold(self) -> None:
        while True:
            try:
                held, _address = self.listener.accept()
            except OSError:
                return  # closed: the test is over
            self.held.append(held)
            self.arrived.set()

    def close(self) -> None:
        self.listener.close()
        for held in self.held:
            held.close()


@pytest.fixture
def tarpit() -> Iterator[Tarpit]:
    """A push service that never answers; see ``Tarpit``."""
    pit = Tarpit()
    yield pit
    pit.close()


def pytest_sessionstart(session: pytest.Session) -> None:
    # Pages are checked in every language: compile the catalogues that changed, so that a
    # bare `pytest` after `scripts/messages` tests the translations as they stand.
    for po in Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(po)], check=True)
