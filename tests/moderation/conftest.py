"""Moderators, an administrator, and the reports and bans they work with."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

import leaderboards.services
from accounts.models import User
from tests.factories import UserFactory, moderators_group


@pytest.fixture
def moderator(db: None) -> User:
    """Staff in the Moderators group the data migration created; nothing more."""
    user = UserFactory(username="mod", is_staff=True)
    user.groups.add(moderators_group())
    return user


@pytest.fixture
def superuser(db: None) -> User:
    return UserFactory(username="boss", is_staff=True, is_superuser=True)


@pytest.fixture
def player(db: None) -> User:
    return UserFactory(username="rowdy", bio="Rude words here.")


@pytest.fixture
def moderator_client(client: Client, moderator: User) -> Client:
    client.force_login(moderator)
    return client


@pytest.fixture(autouse=True)
def stats_rebuilds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """The players whose board rows were rebuilt after a hide or unhide.

    Records the calls and passes them on to ``leaderboards.services.player_stats_rebuild``;
    while that function is not written yet, the record alone stands in for it.
    """
    calls: list[Any] = []
    real = getattr(leaderboards.services, "player_stats_rebuild", None)

    def spy(*, user: User) -> None:
        calls.append(user.pk)
        if real is not None:
            real(user=user)

    monkeypatch.setattr(leaderboards.services, "player_stats_rebuild", spy, raising=False)
    yield calls
