"""Fixtures shared by every test package."""

from __future__ import annotations

import datetime
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.utils import translation

from accounts.models import User
from games import services
from games.models import Game
from tests.factories import UserFactory, reference_turn_for, seat_user

# Every test runs on this clock unless it moves it: a Wednesday at noon, far from the
# boundaries of a day, a week and a year, so no result depends on when the suite runs.
PINNED_NOW = datetime.datetime(2026, 6, 10, 12, 0, tzinfo=datetime.UTC)


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


def pytest_sessionstart(session: pytest.Session) -> None:
    # Pages are checked in every language: compile the catalogues that changed, so that a
    # bare `pytest` after `scripts/messages` tests the translations as they stand.
    for po in Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(po)], check=True)
