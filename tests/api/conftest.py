"""Fixtures of the open-data tests: finished games played through the services, tokens."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from api.services import token_create
from games import services
from games.models import Game


@pytest.fixture
def finished_solo(user: User, play_rounds: Callable[[Game, int], Game]) -> Game:
    """A solo game of ``user`` played to its end by the reference player."""
    game = services.game_create_solo(user=user, seed=11)
    game = play_rounds(game, 16)
    assert game.is_finished
    return game


@pytest.fixture
def token(user: User) -> str:
    """A personal token of ``user``, as it is shown once on the settings page."""
    return token_create(user=user, name="my script").secret
