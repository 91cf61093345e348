"""Server push: a game's or the lobby's page hears of each change through its event stream."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from core.tokens import poll_token
from floor import push
from floor import streams as floor_streams
from games import services, streams
from games.models import Game
from tests.factories import PASSWORD, UserFactory, play_turn, started_game
from tests.pages import Events

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)

Capture = Callable[..., AbstractContextManager[Any]]


@pytest.fixture
def players() -> list[User]:
    return [UserFactory.create(username=name) for name in ("ana", "ben")]


def signed_in(user: User) -> AsyncClient:
    client = AsyncClient()
    client.force_login(user)
    return client


def token_of(client: AsyncClient | Client, game: Game) -> str:
    cookie = client.cookies.get(settings.SESSION_COOKIE_NAME)
    return poll_token(game.pk, cookie.value if cookie else "")


def stream_url(client: AsyncClient | Client, game: Game, version: int | str = "") -> str:
    url = reverse("games:stream", kwargs={"pk": game.pk})
    return f"{url}?v={version}&t={token_of(client, game)}"


def committed(capture: Capture, game: Game, user: User) -> None:
    """``user`` plays, and the transaction's after-commit work (the push) runs."""
    with capture(execute=True):
        play_turn(game, user)


def version_of(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


def test_a_game_stream_tells_the_page_of_each_change_and_never_shows_a_card(
    players: list[User], django_capture_on_commit_callbacks: Capture
) -> None:
    ana, ben = players
    game = started_game([ana, ben])
    client = signed_in(ana)

    async def scenario() -> list[dict[str, str]]:
        events = Events(await client.get(stream_url(client, game)))
        try:
            first = await events.next()
            await sync_to_async(committed)(django_capture_on_commit_callbacks, game, ben)
            return [first, await events.next()]
        finally:
            await events.close()

    before = version_of(game)
    first, after_ben = async_to_sync(scenario)()

    # The page learns the state it may have missed, then ben's move: versions only.
    assert first == {"id": str(before), "event": "game", "data": json.dumps({"version": before})}
    assert after_ben["event"] == "game"
    assert json.loads(after_ben["data"]) == {"version": version_of(game)} != {"version": before}


def test_a_reconnecting_tab_is_told_only_what_it_has_not_seen(
    players: list[User], django_capture_on_commit_callbacks: Capture
) -> None:
    ana, ben = players
    game = started_game([ana, ben])
    client = signed_in(ana)
    seen = version_of(game)

    async def scenario() -> tuple[dict[str, str], dict[str, str]]:
        # Back with the last event it had (EventSource sends Last-Event-ID by itself).
        current = Events(
            await client.get(stream_url(client, game), headers={"Last-Event-ID": str(seen)})
        )
        stale = Events(
            await client.get(stream_url(client, game), headers={"Last-Event-ID": str(seen - 1)})
        )
        try:
            missed = await stale.next()
            await sync_to_async(committed)(django_capture_on_commit_callbacks, game, ben)
            return missed, await current.next()
        finally:
            await current.close()
            await stale.close()

    missed, next_one = async_to_sync(scenario)()

    assert missed["id"] == str(seen)
    # Nothing was repeated to the tab that was up to date: its next event is ben's move.
    assert next_one["id"] == str(version_of(game)) != str(seen)


def test_a_stream_needs_a_page_drawn_for_this_session(players: list[User]) -> None:
    ana, ben = players
    game = started_game([ana, ben])
    stranger = signed_in(UserFactory.create(username="cy"))
    ana_client = signed_in(ana)
    url = reverse("games:stream", kwargs={"pk": game.pk})

    async def statuses() -> list[int]:
        answers = [
            await stranger.get(f"{url}?t=0123456789abcdef0123456789abcdef"),
            await stranger.get(f"{url}?t={token_of(ana_client, game)}"),  # ana's token
            await stranger.get(f"{url}?t=\x00"),
            await AsyncClient().get(url),
        ]
        return [answer.status_code for answer in answers]

    assert async_to_sync(statuses)() == [404, 404, 404, 404]


def test_without_an_asgi_server_the_page_is_told_to_keep_polling(players: list[User]) -> None:
    ana, ben = players
    game = started_game([ana, ben])
    client = Client()
    assert client.login(username=ana.username, password=PASSWORD)

    # 204: EventSource stops trying; the page's poll goes on as before.
    assert client.get(stream_url(client, game)).status_code == 204
    assert client.get(reverse("games:lobby_stream")).status_code == 204


def test_the_lobby_stream_tells_of_a_new_listed_game(
    players: list[User], django_capture_on_commit_callbacks: Capture
) -> None:
    ana, _ben = players

    def ana_opens_a_game() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            services.game_create_multi(user=ana, seats_max=3, pace=Game.Pace.LIVE)

    async def scenario() -> list[str]:
        events = Events(await AsyncClient().get(reverse("games:lobby_stream")))
        try:
            catch_up = await events.next()
            await sync_to_async(ana_opens_a_game)()
            return [catch_up["event"], (await events.next())["event"]]
        finally:
            await events.close()

    assert async_to_sync(scenario)() == ["lobby", "lobby"]


@pytest.fixture
def other_process(settings: Settings) -> Iterator[Callable[[str], None]]:
    """Runs Python in a process of its own on the test database, as the worker is."""
    database = connection.settings_dict
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="limes_site.settings.test",
        DATABASE_URL=(
            f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
        ),
        LIMES_PUSH_DIR=settings.PUSH_SOCKET_DIR,
        PYTHONPATH=str(ROOT),
    )

    def run(code: str) -> None:
        # On the test's clock, which is pinned: the game's deadlines are on it.
        prelude = (
            "import datetime, time_machine, django\n"
            f"time_machine.travel(datetime.datetime.fromisoformat({timezone.now().isoformat()!r}))"
            ".start()\n"
            "django.setup()\n"
        )
        subprocess.run(
            [sys.executable, "-c", prelude + code], cwd=ROOT, env=env, check=True, timeout=120
        )

    yield run


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_made_in_another_process_reaches_the_poll_and_the_stream(
    players: list[User], settings: Settings, other_process: Callable[[str], None]
) -> None:
    # scripts/serve without Redis: each process has a cache of its own.
    settings.POLL_STATE_IN_CACHE = False
    ana, ben = players
    game = started_game([ana, ben])
    play_turn(game, ana)
    client = signed_in(ana)
    seen = version_of(game)
    poll_url = reverse("games:poll", kwargs={"pk": game.pk})
    poll = f"{poll_url}?v={seen}&s=active&draft=0&t={token_of(client, game)}"

    async def scenario() -> tuple[int, dict[str, str], int]:
        events = Events(await client.get(stream_url(client, game, seen)))
        try:
            before = (await client.get(poll, headers={"HX-Request": "true"})).status_code
            # The worker's process: ben's move, committed there.
            await sync_to_async(other_process)(
                "from accounts.models import User\n"
                "from games.models import Game\n"
                "from tests.factories import play_turn\n"
                f"play_turn(Game.objects.get(pk={game.pk}), User.objects.get(pk={ben.pk}))\n"
            )
            pushed = await events.next()
            after = (await client.get(poll, headers={"HX-Request": "true"})).status_code
            return before, pushed, after
        finally:
            await events.close()

    before, pushed, after = async_to_sync(scenario)()

    assert before == 204
    assert pushed["id"] == str(version_of(game)) != str(seen)
    # The poll the event sets off sees the round that ben's move closed.
    assert after == 200


def test_a_stream_wakes_its_page_just_after_the_round_deadline() -> None:
    now = timezone.now()
    assert floor_streams.deadline_wait(None) == floor_streams.KEEPALIVE_SECONDS
    assert floor_streams.deadline_wait(now - datetime.timedelta(seconds=5)) == 0.0
    assert 0 < floor_streams.deadline_wait(now + datetime.timedelta(seconds=2)) < 3


def test_an_event_for_one_channel_reaches_only_its_streams() -> None:
    async def scenario() -> tuple[list[str], bool]:
        hub = floor_streams.hub()
        async with hub.subscribe("game:1") as one, hub.subscribe("game:2") as two:
            hub.dispatch(push.encode("game:1", "game", {"version": 3}))
            hub.dispatch(b"\x00 not an event")
            return [(await one.get()).event], two.empty()

    assert async_to_sync(scenario)() == (["game"], True)


def test_one_client_holds_no_more_streams_than_its_limits(
    players: list[User], settings: Settings
) -> None:
    settings.LIMES_STREAMS_PER_ADDRESS = 3
    settings.LIMES_STREAMS_PER_SESSION = 2
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    lobby = reverse("games:lobby_stream")
    ana = signed_in(players[0])

    def at(address: str) -> dict[str, str]:
        return {"X-Forwarded-For": address}

    async def scenario() -> tuple[list[int], str, list[int], int]:
        held: list[Events] = []
        try:
            # An anonymous client with no cookie: one address, three streams, then no more.
            answers = [await AsyncClient().get(lobby, headers=at("203.0.113.9")) for _ in range(4)]
            held += [Events(answer) for answer in answers[:3]]
            for events in held:
                await events.next()
            refused = answers[3]
            # Others are not held back by it; ana's session is, past two streams.
            stranger = await AsyncClient().get(lobby, headers=at("198.51.100.1"))
            # Ana's two streams held open (a response let go is a closed tab).
            two = [await ana.get(lobby, headers=at(f"192.0.2.{n}")) for n in (1, 2)]
            held += [Events(stranger), *(Events(answer) for answer in two)]
            third = await ana.get(lobby, headers=at("192.0.2.3"))
            others = [stranger.status_code, *(a.status_code for a in two), third.status_code]
            # A closed tab's stream makes room for another.
            await held.pop(0).close()
            again = (await AsyncClient().get(lobby, headers=at("203.0.113.9"))).status_code
            return [a.status_code for a in answers], refused["Retry-After"], others, again
        finally:
            for events in held:
                await events.close()

    statuses, retry_after, others, again = async_to_sync(scenario)()

    assert statuses == [200, 200, 200, 429]
    assert int(retry_after) > 0
    assert others == [200, 200, 200, 429]
    assert again == 200


def test_an_ipv6_client_counts_once_for_its_whole_64(
    players: list[User], settings: Settings
) -> None:
    # A /64 is one client's: each of its addresses counted apart would let it hold
    # LIMES_STREAMS_PER_ADDRESS streams times 2**64.
    settings.LIMES_STREAMS_PER_ADDRESS = 2
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    lobby = reverse("games:lobby_stream")

    async def scenario() -> list[int]:
        held: list[Events] = []
        try:
            answers = []
            for address in ("2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff::3"):
                answer = await AsyncClient().get(lobby, headers={"X-Forwarded-For": address})
                answers.append(answer)
                if answer.status_code == 200:
                    held.append(Events(answer))
            other = await AsyncClient().get(lobby, headers={"X-Forwarded-For": "2001:db8:1:3::1"})
            held.append(Events(other))
            return [answer.status_code for answer in answers] + [other.status_code]
        finally:
            for events in held:
                await events.close()

    assert async_to_sync(scenario)() == [200, 200, 429, 200]


def test_a_stream_ends_when_its_session_does(
    players: list[User], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every keep-alive at once, each followed by a look at the session.
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.01)
    monkeypatch.setattr(floor_streams, "SESSION_CHECK_SECONDS", 0.0)
    ana, ben = players
    game = started_game([ana, ben])
    client = signed_in(ana)
    url = stream_url(client, game)
    session_key = client.cookies[settings.SESSION_COOKIE_NAME].value

    async def scenario() -> tuple[str, bool, int]:
        events = Events(await client.get(url))
        first = (await events.next())["event"]
        # Signed out in another tab (or banned, or deleted: each ends the session).
        await sync_to_async(Session.objects.filter(session_key=session_key).delete)()
        ended = await events.ends()
        # The browser asks again with the same cookie: it is told to stop.
        return first, ended, (await client.get(url)).status_code

    assert async_to_sync(scenario)() == ("game", True, 204)
    assert floor_streams.counts.held(f"session:{session_key}") == 0


def test_a_stream_goes_on_while_its_session_cannot_be_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Unreachable:
        def exists(self, session_key: str) -> bool:
            raise ConnectionError("the session store restarts")

    engine = type("Engine", (), {"SessionStore": Unreachable})
    monkeypatch.setattr(floor_streams, "import_module", lambda name: engine)
    # Not taken for an ended session: a restart of the store signs nobody out.
    assert floor_streams._session_lives("k" * 32)
