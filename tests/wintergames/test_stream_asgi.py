"""A Winter game's event stream under ASGI: the page hears of the other player's turn at
once, and of a turn's clock running out; then its poll draws the new board."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from core import tokens
from social.services import chat_post
from tests.factories import PASSWORD, UserFactory, winter_play_first
from tests.pages import HTMX, Events
from wintergames import services
from wintergames.models import WinterGame
from wintergames.pollstate import poll_states
from wintergames.rebuild import winter_game

pytestmark = pytest.mark.django_db

Capture = Callable[..., AbstractContextManager[Any]]


@pytest.fixture
def pair() -> list[User]:
    return [UserFactory(username="ana"), UserFactory(username="ben")]


def _duel(pair: list[User]) -> WinterGame:
    ana, ben = pair
    game = services.game_create(
        user=ana, players=2, computers=0, level="easy", farmers=True, pace="untimed", seed=7
    )
    services.game_join(game_id=game.pk, user=ben)
    return WinterGame.objects.get(pk=game.pk)


def _mover_and_watcher(game: WinterGame) -> tuple[User, User]:
    seats = list(game.seats.select_related("user").order_by("position"))
    to_move = winter_game(game, seats).to_move
    users = [seat.user for seat in seats]
    mover, watcher = users[to_move], users[1 - to_move]
    assert mover is not None and watcher is not None
    return mover, watcher


def signed_in(user: User) -> AsyncClient:
    client = AsyncClient()
    client.force_login(user)
    return client


def token_of(client: AsyncClient | Client, game: WinterGame) -> str:
    cookie = client.cookies.get(settings.SESSION_COOKIE_NAME)
    session = cookie.value if cookie else ""
    return tokens.mint(tokens.Scope.WINTER_GAME, session, game.pk)


def stream_url(client: AsyncClient | Client, game: WinterGame, version: int | str = "") -> str:
    url = reverse("winter:stream", kwargs={"pk": game.pk})
    return f"{url}?v={version}&t={token_of(client, game)}"


def poll_url(client: AsyncClient, game: WinterGame, version: int) -> str:
    url = reverse("winter:poll", kwargs={"pk": game.pk})
    return f"{url}?v={version}&t={token_of(client, game)}"


def version_of(game: WinterGame) -> int:
    return WinterGame.objects.get(pk=game.pk).version


def test_the_stream_tells_the_page_of_the_other_players_turn(
    pair: list[User], django_capture_on_commit_callbacks: Capture
) -> None:
    game = _duel(pair)
    mover, watcher = _mover_and_watcher(game)
    client = signed_in(watcher)
    seen = version_of(game)

    def commit() -> None:
        # The push leaves once the turn's transaction commits.
        with django_capture_on_commit_callbacks(execute=True):
            winter_play_first(game.pk, mover)

    async def scenario() -> tuple[dict[str, str], int, str]:
        # The page is up to date: the stream says nothing until the turn.
        events = Events(await client.get(stream_url(client, game, seen)))
        try:
            await sync_to_async(commit)()
            event = await events.next()
            # What the page's poll then does on ``sse:game``: fetch the board.
            board = await client.get(poll_url(client, game, seen), headers={"HX-Request": "true"})
            return event, board.status_code, board.content.decode()
        finally:
            await events.close()

    event, status, board = async_to_sync(scenario)()

    now = version_of(game)
    assert now > seen
    assert event == {"id": str(now), "event": "game", "data": json.dumps({"version": now})}
    assert status == 200 and f'data-version="{now}"' in board


def test_a_reconnecting_page_is_told_only_what_it_has_not_seen(pair: list[User]) -> None:
    game = _duel(pair)
    client = signed_in(pair[0])
    seen = version_of(game)

    async def first_events() -> list[dict[str, str]]:
        stale = Events(
            await client.get(stream_url(client, game), headers={"Last-Event-ID": str(seen - 1)})
        )
        try:
            return [await stale.next()]
        finally:
            await stale.close()

    assert async_to_sync(first_events)() == [
        {"id": str(seen), "event": "game", "data": json.dumps({"version": seen})}
    ]


def test_the_stream_wakes_the_page_just_after_a_turns_deadline(pair: list[User]) -> None:
    game = _duel(pair)
    client = signed_in(pair[0])
    seen = version_of(game)
    # A turn whose clock runs out in a moment: nobody writes, yet the page must poll then.
    poll_states.publish(game.pk, seen, timezone.now() + datetime.timedelta(seconds=0.2))

    async def scenario() -> dict[str, str]:
        events = Events(await client.get(stream_url(client, game, seen)))
        try:
            return await events.next()
        finally:
            await events.close()

    assert async_to_sync(scenario)() == {
        "id": str(seen),
        "event": "game",
        "data": json.dumps({"version": seen}),
    }


def test_a_stream_needs_a_page_drawn_for_this_session(pair: list[User]) -> None:
    game = _duel(pair)
    stranger = signed_in(UserFactory(username="cy"))
    ana = signed_in(pair[0])
    url = reverse("winter:stream", kwargs={"pk": game.pk})
    limes_token = tokens.mint(tokens.Scope.GAME, ana.cookies["sessionid"].value, game.pk)

    async def statuses() -> list[int]:
        answers = [
            await stranger.get(f"{url}?t=0123456789abcdef0123456789abcdef"),
            await stranger.get(f"{url}?t={token_of(ana, game)}"),  # ana's token
            await ana.get(f"{url}?t={limes_token}"),  # the Limes game of that number's
            await AsyncClient().get(url),
        ]
        return [answer.status_code for answer in answers]

    assert async_to_sync(statuses)() == [404, 404, 404, 404]


def test_without_an_asgi_server_the_page_is_told_to_keep_polling(pair: list[User]) -> None:
    game = _duel(pair)
    client = Client()
    assert client.login(username=pair[0].username, password=PASSWORD)

    # 204: EventSource stops trying; the page's poll goes on as before.
    assert client.get(stream_url(client, game), **HTMX).status_code == 204


def test_the_stream_tells_the_page_of_a_chat_message_and_nothing_of_the_board(
    pair: list[User], django_capture_on_commit_callbacks: Capture
) -> None:
    game = _duel(pair)
    ana, ben = pair
    client = signed_in(ben)
    seen = version_of(game)

    def write() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            chat_post(game=game, user=ana, text="good luck")

    async def scenario() -> dict[str, str]:
        events = Events(await client.get(stream_url(client, game, seen)))
        try:
            # A message is no version: only a stream already open hears of it.
            await events.opened()
            await sync_to_async(write)()
            return await events.next()
        finally:
            await events.close()

    # The chat's panel asks for the new message at once; the board's version is unchanged.
    assert async_to_sync(scenario)() == {"event": "chat", "data": "{}"}
    assert version_of(game) == seen
