"""Fixtures shared by every test package."""

from __future__ import annotations

import datetime
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from accounts.models import User
from tests.factories import UserFactory

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


@pytest.fixture
def user(db: None) -> User:
    """A player who signs in with password ``tests.factories.PASSWORD``."""
    return UserFactory()


@pytest.fixture
def client_logged_in(client: Client, user: User) -> Client:
    """A test client signed in as ``user``."""
    client.force_login(user)
    return client


def pytest_sessionstart(session: pytest.Session) -> None:
    # Pages are checked in every language: compile the catalogues that changed, so that a
    # bare `pytest` after `scripts/messages` tests the translations as they stand.
    for po in Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(po)], check=True)
