"""Redis goes away (a restart, a lost network) while players play: it is only a cache.

Production's settings in a fresh interpreter, on the test database: with Redis stopped or
unreachable, players sign in, load pages, play and poll; the health check keeps the server
in the proxy; and once Redis is back, no page reads a state older than the last move.
"""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from django.test import AsyncClient
from django.urls import reverse

from accounts.models import User
from floor import streams as floor_streams
from games import streams
from games.models import Game
from tests.factories import PASSWORD, UserFactory, started_game
from tests.fresh_django import PROD_ENV, run_django

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# Pages drawn without collectstatic's manifest; everything else is production's.
PRELUDE = """
import json, os, signal, time
from django.core.management import call_command
from django.test import Client, override_settings
from accounts.models import User
from games import streams
from games.models import Game
from core.tokens import poll_token
from tests.factories import reference_turn_of
from tests.pages import turn_fields
override_settings(STORAGES={
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}).enable()
H = {"secure": True, "HTTP_HOST": "example.org"}
HX = {**H, "HTTP_HX_REQUEST": "true"}
def player(pk):
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.get(pk=pk))
    return client
def move(client, game_id, user_id):
    game = Game.objects.get(pk=game_id)
    number, turn = reference_turn_of(game, User.objects.get(pk=user_id))
    return client.post(f"/games/{game_id}/play/", turn_fields(number, turn), **H).status_code
def poll_url(client, game_id, version):
    token = poll_token(game_id, client.cookies["sessionid"].value)
    return f"/games/{game_id}/poll/?v={version}&s=active&draft=0&t={token}"
"""


def _database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def own_redis() -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A Redis server of this test's own (never the shared one), stopped at the end."""
    port = _free_port()
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port, server
    finally:
        server.send_signal(signal.SIGCONT)
        server.kill()
        server.wait()


@pytest.fixture
def two_players() -> tuple[User, User, Game]:
    ana, ben = UserFactory(), UserFactory()
    game = started_game([ana, ben])
    # The fresh interpreter runs on the real clock, months past the tests' pinned one.
    Game.objects.filter(pk=game.pk).update(deadline=None)
    connection.close()
    return ana, ben, game


def _run(code: str, redis_url: str) -> dict[str, object]:
    env = {**PROD_ENV, "DATABASE_URL": _database_url(), "REDIS_URL": redis_url}
    done = run_django(PRELUDE + code, **env)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_with_redis_unreachable_players_sign_in_play_and_poll(
    two_players: tuple[User, User, Game],
) -> None:
    ana, ben, game = two_players
    result = _run(
        f"""
call_command("createcachetable")
ana, ben = player({ana.pk}), player({ben.pk})
seen = Game.objects.get(pk={game.pk}).version
out = {{
    "page": ana.get("/games/{game.pk}/", **H).status_code,
    "health": ana.get("/health/", **H).status_code,
    "lobby": ben.get("/lobby/", **H).status_code,
    "poll before": ben.get(poll_url(ben, {game.pk}, seen), **HX).status_code,
    "move": move(ana, {game.pk}, {ana.pk}),
    "poll after": ben.get(poll_url(ben, {game.pk}, seen), **HX).status_code,
    "page after": ben.get("/games/{game.pk}/", **H).status_code,
}}
print(json.dumps(out))
""",
        "redis://127.0.0.1:1/0",
    )
    assert result == {
        "page": 200,
        "health": 200,
        "lobby": 200,
        "poll before": 204,
        "move": 302,
        "poll after": 200,
        "page after": 200,
    }


def test_with_redis_stopped_players_sign_in_sign_up_and_reset_their_password(
    own_redis: tuple[int, subprocess.Popen[bytes]],
) -> None:
    """allauth's rate limits take a lock in the cache before each attempt: a cache that
    cannot hold it must not turn every sign-in away (429) while Redis is away."""
    port, server = own_redis
    ana = UserFactory()
    connection.close()
    result = _run(
        f"""
from django.test import Client
from django.core.cache import cache
override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend").enable()
ana = User.objects.get(pk={ana.pk})
ana.set_password("{PASSWORD}")  # with production's hasher
ana.save()
cache.set("warm", 1, 60)  # a connection made, then Redis goes
os.kill({server.pid}, signal.SIGKILL)
server_gone = cache.get("warm") is None
visitor, newcomer, forgetful = Client(), Client(), Client()
form = {{"login": "{ana.username}", "password": "{PASSWORD}"}}
out = {{
    "sign in": visitor.post("/accounts/login/", form, **H).status_code,
    "signed in": visitor.get("/players/settings/", **H).status_code,
    "sign up": newcomer.post("/accounts/signup/", {{
        "username": "newcomer", "email": "newcomer@example.org",
        "password1": "fir-and-lake-42", "password2": "fir-and-lake-42",
    }}, **H).status_code,
    "new account": User.objects.filter(username="newcomer").exists(),
    "reset": forgetful.post(
        "/accounts/password/reset/", {{"email": "{ana.email}"}}, **H
    ).status_code,
    "redis gone": server_gone,
}}
print(json.dumps(out))
""",
        f"redis://127.0.0.1:{port}/0",
    )
    assert result == {
        "sign in": 302,
        "signed in": 200,
        "sign up": 302,
        "new account": True,
        "reset": 302,
        "redis gone": True,
    }


def test_a_redis_that_stops_and_comes_back_shows_every_move_made_meanwhile(
    two_players: tuple[User, User, Game], own_redis: tuple[int, subprocess.Popen[bytes]]
) -> None:
    ana, ben, game = two_players
    port, server = own_redis
    result = _run(
        f"""
from django.core.cache import cache
ana, ben = player({ana.pk}), player({ben.pk})
seen = Game.objects.get(pk={game.pk}).version
out = {{"before": [ben.get(poll_url(ben, {game.pk}, seen), **HX).status_code]}}
out["cached before"] = cache.get("games:poll:{game.pk}") is not None
# Stopped: it keeps its data (a poll state of before the move) and answers nothing.
os.kill({server.pid}, signal.SIGSTOP)
out["during"] = [
    move(ana, {game.pk}, {ana.pk}),
    ana.get("/games/{game.pk}/", **H).status_code,
    ana.get("/health/", **H).status_code,
]
os.kill({server.pid}, signal.SIGCONT)
time.sleep(1.2)
# Back: ben's page learns of ana's move, though Redis still held the old state.
out["after"] = [
    ben.get(poll_url(ben, {game.pk}, seen), **HX).status_code,
    ben.get("/games/{game.pk}/", **H).status_code,
]
out["cached after"] = list(cache.get("games:poll:{game.pk}"))[0]
out["version"] = Game.objects.get(pk={game.pk}).version
print(json.dumps(out, default=str))
""",
        f"redis://127.0.0.1:{port}/0",
    )
    assert result["before"] == [204]
    assert result["cached before"] is True
    assert result["during"] == [302, 200, 200]
    assert result["after"] == [200, 200]
    assert result["cached after"] == result["version"]


@pytest.mark.django_db
def test_while_push_has_lost_redis_streams_end_and_pages_poll(settings: Any) -> None:
    settings.PUSH_REDIS_URL = "redis://127.0.0.1:1/0"

    async def scenario() -> tuple[list[str], bool, int]:
        # An open lobby stream, on a stream server that cannot reach Redis.
        async def listen() -> list[str]:
            return [event async for event in streams.lobby_events()]

        # (A bound on the wait, not a timing assert: without the fix it never ends.)
        sent = await asyncio.wait_for(listen(), 60)
        refused = await AsyncClient().get(reverse("games:lobby_stream"))
        return sent, floor_streams.hub().available, refused.status_code

    sent, available, status = async_to_sync(scenario)()
    # It ended (its page's polls take over) instead of staying open with nothing to say.
    assert sent[-1] == floor_streams.sse("lobby", "{}")
    assert not available
    # A new one is answered 204: the page polls, htmx's sse extension asks again later.
    assert status == 204
