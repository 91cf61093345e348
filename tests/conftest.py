"""Fixtures shared by every test package."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
import time_machine
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
