"""Two players at a table, and someone who is not."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Game
from tests.factories import UserFactory, started_game


@pytest.fixture
def ana(db: None) -> User:
    return UserFactory(username="ana")


@pytest.fixture
def ben(db: None) -> User:
    return UserFactory(username="ben")


@pytest.fixture
def outsider(db: None) -> User:
    return UserFactory(username="cleo")


@pytest.fixture
def duel(ana: User, ben: User) -> Game:
    """A two-player game in play, by invitation only (not listed in the lobby)."""
    game = started_game([ana, ben])
    Game.objects.filter(pk=game.pk).update(listed=False)
    game.refresh_from_db()
    return game
