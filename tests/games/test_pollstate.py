"""The poll state in the cache: one key per game, never behind the database."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache

from accounts.models import User
from games import services
from games.pollstate import poll_state, poll_state_key
from tests.factories import UserFactory, play_turn, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair() -> list[User]:
    return [UserFactory(username="ana"), UserFactory(username="ben")]


def test_each_game_has_its_own_key() -> None:
    assert poll_state_key(7) == "games:poll:7"
    assert poll_state_key(7) != poll_state_key(71)


def test_every_change_publishes_the_new_version(
    pair: list[User], django_assert_num_queries: Callable[..., Any]
) -> None:
    game = started_game(pair)
    play_turn(game, pair[0])
    game.refresh_from_db()

    with django_assert_num_queries(0):
        assert poll_state(game.pk) == (game.version, game.deadline)


def test_a_fill_from_the_database_does_not_hide_a_later_change(pair: list[User]) -> None:
    game = started_game(pair)
    cache.clear()
    filled = poll_state(game.pk)  # a poll fills the cache from the database
    services.seat_resign(game=game, user=pair[1])
    game.refresh_from_db()

    assert filled is not None and filled[0] < game.version
    assert poll_state(game.pk) == (game.version, game.deadline)


def test_no_state_for_a_game_that_does_not_exist() -> None:
    assert poll_state(999_999) is None
