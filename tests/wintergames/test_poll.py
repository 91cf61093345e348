"""A Winter game's poll: one that finds nothing new reads no row (the version is in the
cache, as a Limes game's); the page's poll stands aside while its stream is open."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from pytest_django.fixtures import Settings

from accounts.models import User
from tests.factories import UserFactory, winter_play_first
from tests.pages import HTMX, client_for
from wintergames import services
from wintergames.models import WinterGame
from wintergames.pollstate import poll_states
from wintergames.rebuild import winter_game

pytestmark = pytest.mark.django_db

NumQueries = Callable[..., Any]
POLL = re.compile(r'hx-get="(/winter/games/\d+/poll/\?v=(\d+)&amp;t=[0-9a-f]+)"')
#: Redis away: nothing listens on port 1 (limes_site.cache takes it as a miss, a skip).
REDIS_AWAY = {
    "default": {"BACKEND": "limes_site.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1"}
}


@pytest.fixture
def pair() -> list[User]:
    return [UserFactory(username="ana"), UserFactory(username="ben")]


def _duel(pair: list[User], pace: str = "untimed") -> WinterGame:
    """A running game of ana and ben, no computer."""
    ana, ben = pair
    game = services.game_create(
        user=ana, players=2, computers=0, level="easy", farmers=True, pace=pace, seed=5
    )
    services.game_join(game_id=game.pk, user=ben)
    game.refresh_from_db()
    assert game.is_running
    return game


def _to_move(game: WinterGame, pair: list[User]) -> User:
    game.refresh_from_db()
    seats = list(game.seats.select_related("user").order_by("position"))
    user = seats[winter_game(game, seats).to_move].user
    assert user is not None
    return user


def _poll_url(client: Client, game: WinterGame) -> tuple[str, int]:
    """The page's poll, as the page draws it for this session, and its version."""
    page = client.get(f"/winter/games/{game.pk}/").content.decode()
    found = POLL.search(page)
    assert found is not None
    return found.group(1).replace("&amp;", "&"), int(found.group(2))


def test_an_idle_poll_reads_no_row(pair: list[User], django_assert_num_queries: NumQueries) -> None:
    game = _duel(pair)
    client = client_for(pair[0])
    url, version = _poll_url(client, game)

    with django_assert_num_queries(0):
        answers = [client.get(url, **HTMX).status_code for _ in range(3)]

    assert answers == [204, 204, 204]
    assert version == WinterGame.objects.get(pk=game.pk).version


def test_the_poll_after_the_other_players_turn_draws_the_new_board(
    pair: list[User], django_assert_num_queries: NumQueries
) -> None:
    game = _duel(pair)
    mover = _to_move(game, pair)
    watcher = next(user for user in pair if user != mover)
    client = client_for(watcher)
    url, seen = _poll_url(client, game)

    winter_play_first(game.pk, mover)
    changed = client.get(url, **HTMX)

    now = WinterGame.objects.get(pk=game.pk).version
    assert changed.status_code == 200 and now > seen
    assert f'data-version="{now}"' in changed.content.decode()
    # The board it drew polls for the next change: nothing new, no row read.
    again = POLL.search(changed.content.decode())
    assert again is not None and int(again.group(2)) == now
    with django_assert_num_queries(0):
        assert client.get(again.group(1).replace("&amp;", "&"), **HTMX).status_code == 204


def test_every_change_publishes_the_new_version(
    pair: list[User], django_assert_num_queries: NumQueries
) -> None:
    game = _duel(pair)
    winter_play_first(game.pk, _to_move(game, pair))
    services.game_resign(game_id=game.pk, user=pair[1])
    game.refresh_from_db()

    with django_assert_num_queries(0):
        assert poll_states.get(game.pk) == (game.version, game.deadline)
    assert poll_states.key(game.pk) == f"winter:poll:{game.pk}"


def test_an_empty_cache_is_filled_from_the_row_once(
    pair: list[User], django_assert_num_queries: NumQueries
) -> None:
    game = _duel(pair)
    client = client_for(pair[0])
    url, _version = _poll_url(client, game)
    cache.clear()  # evicted, or Redis restarted empty

    with django_assert_num_queries(1):
        assert client.get(url, **HTMX).status_code == 204
    with django_assert_num_queries(0):
        assert client.get(url, **HTMX).status_code == 204


def test_a_fill_from_the_row_does_not_hide_a_later_change(pair: list[User]) -> None:
    game = _duel(pair)
    cache.clear()
    filled = poll_states.get(game.pk)  # a poll fills the cache from the row
    winter_play_first(game.pk, _to_move(game, pair))
    game.refresh_from_db()

    assert filled is not None and filled[0] < game.version
    assert poll_states.get(game.pk) == (game.version, game.deadline)


def test_with_redis_away_the_poll_reads_the_row_and_misses_no_turn(
    pair: list[User], settings: Settings, django_assert_num_queries: NumQueries
) -> None:
    game = _duel(pair)
    mover = _to_move(game, pair)
    watcher = next(user for user in pair if user != mover)
    client = client_for(watcher)
    url, seen = _poll_url(client, game)
    settings.CACHES = REDIS_AWAY

    with django_assert_num_queries(1):
        assert client.get(url, **HTMX).status_code == 204
    winter_play_first(game.pk, mover)  # its write to the cache is skipped
    changed = client.get(url, **HTMX)

    assert changed.status_code == 200
    assert f'data-version="{seen + 1}"' in changed.content.decode()


def test_without_a_shared_cache_the_poll_reads_the_row(
    pair: list[User], settings: Settings, django_assert_num_queries: NumQueries
) -> None:
    # scripts/serve without Redis: the worker's turns would never reach a per-process cache.
    settings.POLL_STATE_IN_CACHE = False
    game = _duel(pair)
    client = client_for(pair[0])
    url, _version = _poll_url(client, game)

    with django_assert_num_queries(1):
        assert client.get(url, **HTMX).status_code == 204


def test_a_poll_past_the_turns_deadline_plays_it_out(pair: list[User]) -> None:
    game = _duel(pair, pace="live")
    late = _to_move(game, pair)
    client = client_for(next(user for user in pair if user != late))
    url, seen = _poll_url(client, game)
    assert game.deadline is not None

    with time_machine.travel(game.deadline + datetime.timedelta(seconds=1), tick=False):
        answer = client.get(url, **HTMX)

    # The computer played the late turn: the board moved on, though no one asked it to.
    assert answer.status_code == 200
    assert WinterGame.objects.get(pk=game.pk).version > seen
    assert _to_move(game, pair) != late


def test_a_poll_refuses_a_game_it_was_not_drawn_for(pair: list[User]) -> None:
    game = _duel(pair)
    ana = client_for(pair[0])
    url, version = _poll_url(ana, game)
    stranger = client_for(UserFactory(username="cy"))

    assert stranger.get(url, **HTMX).status_code == 404  # ana's token, another session
    assert ana.get(url.replace(f"?v={version}", "?v=1x"), **HTMX).status_code == 400
    assert ana.get(url.replace(f"/{game.pk}/", "/999999/"), **HTMX).status_code == 404


def test_the_poll_stands_aside_while_the_stream_is_open(pair: list[User]) -> None:
    game = _duel(pair)
    page = client_for(pair[0]).get(f"/winter/games/{game.pk}/").content.decode()
    stream = page.index(f'sse-connect="/winter/games/{game.pk}/stream/')
    poller = page.index('data-testid="winter-poller"')

    # push.js holds back the timer's polls of a [data-poll-fallback] inside an open
    # stream that carries its event, and lets them go on once the stream drops.
    assert stream < poller < page.index("</section>")
    tag = page[page.rindex("<div", 0, poller) : poller]
    assert "data-poll-fallback" in tag
    assert 'hx-trigger="every 2s, sse:game"' in tag
    assert 'data-push-events="game chat"' in page[stream : page.index(">", stream)]


def test_a_correspondence_game_polls_less_often(pair: list[User]) -> None:
    game = _duel(pair, pace="correspondence")
    page = client_for(pair[0]).get(f"/winter/games/{game.pk}/").content.decode()

    assert 'hx-trigger="every 15s, sse:game"' in page
