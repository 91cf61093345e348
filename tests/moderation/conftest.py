"""Moderators, an administrator, and the reports and bans they work with."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import factory
import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from factory.django import DjangoModelFactory

import leaderboards.services
from accounts.models import User
from moderation.models import Report
from moderation.selectors import MODERATORS_GROUP
from tests.factories import UserFactory


class ReportFactory(DjangoModelFactory[Report]):
    class Meta:
        model = Report

    reporter = factory.SubFactory(UserFactory)
    target = factory.SubFactory(UserFactory)
    category = Report.Category.OFFENSIVE_NAME
    text = "Their name insults other players."


def moderators_group() -> Group:
    """The group the data migration made; a transactional test's flush may have removed it."""
    group, created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    if created:
        migration = importlib.import_module("moderation.migrations.0002_moderators_group")
        group.permissions.set(
            [
                Permission.objects.get(content_type__app_label=app, codename=codename)
                for app, codename in migration.PERMISSIONS
            ]
        )
    return group


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
