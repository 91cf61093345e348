"""Finding a player by the start of their name: /players/?q=."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import selectors
from accounts.services import user_delete
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]

URL = "/players/"


def found(client: Client, query: str) -> list[str]:
    page = client.get(URL, {"q": query})
    assert page.status_code == 200
    return re.findall(r'<li><a href="/players/[^/]+/">([^<]+)</a></li>', page.content.decode())


def test_players_are_found_by_the_start_of_their_name_whatever_the_case(client: Client) -> None:
    for name in ("Anna", "annette", "ANABEL", "joanna", "bo"):
        UserFactory(username=name)
    assert reverse("accounts:search") == URL
    assert found(client, "an") == ["ANABEL", "Anna", "annette"]
    assert found(client, "ANN") == ["Anna", "annette"]
    # The start of a name, not any part of it.
    assert "joanna" not in found(client, "anna")
    assert 'data-testid="no-players"' in client.get(URL, {"q": "zz"}).content.decode()
    # The link leads to the profile.
    page = client.get(URL, {"q": "bo"}).content.decode()
    assert f'href="{reverse("accounts:profile", args=["bo"])}"' in page


def test_wildcards_are_plain_characters(client: Client) -> None:
    UserFactory(username="a_b")
    UserFactory(username="axb")
    UserFactory(username="a%c")
    assert found(client, "a_") == ["a_b"]
    assert found(client, "a%") == ["a%c"]


def test_banned_and_deleted_players_are_not_found(client: Client) -> None:
    UserFactory(username="carla")
    UserFactory(username="carlo", banned_until=timezone.now() + datetime.timedelta(days=2))
    UserFactory(username="carl", banned_until=timezone.now() - datetime.timedelta(days=2))
    user_delete(user=UserFactory(username="carmen"))
    assert found(client, "car") == ["carl", "carla"]


def test_the_page_without_a_query_is_the_form_and_is_linked_from_the_lobby(
    client: Client,
) -> None:
    page = client.get(URL).content.decode()
    assert 'role="search"' in page and 'name="q"' in page
    assert 'data-testid="players-found"' not in page
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert f'href="{URL}"' in lobby


@pytest.mark.parametrize("query", ["a\x00b", "\x07", "x" * 151])
def test_hostile_queries_get_a_clear_400(client: Client, query: str) -> None:
    UserFactory(username="ana")
    response = client.get(URL, {"q": query})
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()


def test_many_matches_are_cut_short_in_a_few_queries(
    client: Client, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    for n in range(selectors.SEARCH_LIMIT + 5):
        UserFactory(username=f"dora{n:02d}")
    with django_assert_max_num_queries(6):
        names = found(client, "dora")
    assert len(names) == selectors.SEARCH_LIMIT and names[0] == "dora00"
    assert "type more of it" in client.get(URL, {"q": "dora"}).content.decode()


def test_a_flood_of_searches_from_one_address_is_slowed(client: Client) -> None:
    # Each search reads the players' table: a script's thousands a minute are refused.
    UserFactory(username="anna")
    for _ in range(60):
        assert client.get(URL, {"q": "an"}).status_code == 200
    page = client.get(URL, {"q": "an"})
    assert page.status_code == 429
    assert "That is a lot of searches at once: wait a minute." in page.content.decode()
    # Another address is served; the page's form needs no search, and is not counted.
    assert found(Client(REMOTE_ADDR="192.0.2.7"), "an") == ["anna"]
    assert client.get(URL).status_code == 200
