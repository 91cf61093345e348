"""My games' filters: mode, rules, opponent and tournament, from the address."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game
from tests.factories import UserFactory, finished_multi, started_game

# The opponent is found by name whatever its case: a lookup each database spells its way.
pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]


def listed(page: str) -> set[int]:
    """The games My games links to (both lists)."""
    return {int(pk) for pk in re.findall(r'href="/games/(\d+)/"', page)}


@pytest.fixture
def games(user: User) -> dict[str, Game]:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    return {
        "solo": services.game_create_solo(user=user),
        "solo_diagonal": services.game_create_solo(user=user, diagonal=True),
        "with_ana": started_game([user, ana]),
        "with_ben_finished": finished_multi([user, ben], [1, 2], ruleset="ferryman"),
        "tournament": services.game_create_solo(
            user=user, seed=5, sealed_until=timezone.now() + datetime.timedelta(days=1)
        ),
    }


def mine(client: Client, **query: str) -> tuple[int, str]:
    response = client.get(reverse("games:mine"), query)
    return response.status_code, response.content.decode()


def test_each_filter_narrows_my_games(client_logged_in: Client, games: dict[str, Game]) -> None:
    pk = {name: game.pk for name, game in games.items()}
    status, page = mine(client_logged_in)
    assert status == 200 and listed(page) == set(pk.values())
    assert 'data-testid="game-filters"' in page
    _status, page = mine(client_logged_in, mode="multi")
    assert listed(page) == {pk["with_ana"], pk["with_ben_finished"]}
    _status, page = mine(client_logged_in, rules="diagonal")
    assert listed(page) == {pk["solo_diagonal"]}
    _status, page = mine(client_logged_in, opponent="BEN")
    assert listed(page) == {pk["with_ben_finished"]}
    _status, page = mine(client_logged_in, tournament="yes")
    assert listed(page) == {pk["tournament"]}
    _status, page = mine(client_logged_in, tournament="no", mode="solo")
    assert listed(page) == {pk["solo"], pk["solo_diagonal"]}
    # The form shows what is chosen, and how to drop it.
    assert '<option value="no" selected>' in page
    assert 'data-testid="filters-clear"' in page


def test_no_game_matching_says_so(client_logged_in: Client, games: dict[str, Game]) -> None:
    status, page = mine(client_logged_in, opponent="nobody-of-that-name")
    assert status == 200
    assert listed(page) == set()
    assert "None of your games matches these filters." in page


def test_a_filter_leaving_one_list_empty_says_so_without_calling_you_gameless(
    client_logged_in: Client, games: dict[str, Game]
) -> None:
    # Finished games with ben only: nothing of those in play, though games are in play.
    _status, page = mine(client_logged_in, opponent="ben")
    assert listed(page) == {games["with_ben_finished"].pk}
    assert "No game in play matches these filters." in page
    assert "You have no game in play." not in page
    # Games in play with ana, none finished with her.
    _status, page = mine(client_logged_in, opponent="ana")
    assert "No finished game matches these filters." in page
    assert "No finished game yet." not in page
    # Unfiltered, an empty list is still the newcomer's invitation to play.
    fresh = Client()
    fresh.force_login(UserFactory(username="cy"))
    _status, page = mine(fresh)
    assert "You have no game in play." in page and "No finished game yet." in page


@pytest.mark.parametrize(
    "query",
    [
        {"mode": "chess"},
        {"rules": "'; drop table"},
        {"tournament": "maybe"},
        {"opponent": "x" * 151},
        {"opponent": "a\x00b"},
    ],
)
def test_a_filter_that_cannot_be_read_is_a_400_naming_it(
    client_logged_in: Client, games: dict[str, Game], query: dict[str, str]
) -> None:
    status, page = mine(client_logged_in, **{"mode": "multi", **query})
    assert status == 400
    assert 'data-testid="filter-error"' in page
    assert "A filter could not be read and is left out." in page
    if "mode" not in query:
        # The filters that could be read still apply.
        assert listed(page) == {games["with_ana"].pk, games["with_ben_finished"].pk}


def test_the_pager_keeps_the_filters(client_logged_in: Client, user: User) -> None:
    ben = UserFactory(username="ben")
    for _ in range(21):
        finished_multi([user, ben], [1, 2])
    _status, page = mine(client_logged_in, mode="multi", opponent="ben")
    assert 'href="?mode=multi&amp;opponent=ben&amp;page=2#finished"' in page
