"""Fixtures shared by every test package."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client

from accounts.models import User
from tests.factories import UserFactory


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
