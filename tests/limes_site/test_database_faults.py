"""PostgreSQL drops its connections (a restart, a failover, an idle kill) while players play:
no request that a retry can serve answers 500, and none is applied twice."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.models import User
from api import limits
from games.models import Game, Move
from tests.factories import reference_turn_for
from tests.fresh_django import PROD_ENV, run_django
from tests.pages import turn_fields

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def _terminate(pid: int) -> None:
    # From a second connection, as an administrator or PostgreSQL's shutdown would.
    with psycopg.connect(_url(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def _backend_pid() -> int:
    connection.ensure_connection()
    assert connection.connection is not None
    return int(connection.connection.info.backend_pid)


@contextmanager
def _dropped_at(starts: str) -> Iterator[list[str]]:
    """The request's connection is ended just before its first statement starting ``starts``."""
    seen: list[str] = []

    def drop(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        if sql.lstrip().startswith(starts) and len(seen) < 1000 and "dropped" not in seen:
            seen.append("dropped")
            _terminate(_backend_pid())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(drop):
        yield seen


@pytest.fixture(autouse=True)
def _fresh_connection_after(transactional_db: None) -> Iterator[None]:
    # A test that fails leaves its connection dead: the database's clean-up gets a new one.
    yield
    connection.close()


@pytest.fixture
def player(user: User) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_a_page_after_the_connection_was_dropped_is_served(player: Client, solo_game: Game) -> None:
    page = reverse("games:detail", kwargs={"pk": solo_game.pk})
    assert player.get(page).status_code == 200
    _terminate(_backend_pid())
    assert player.get(page).status_code == 200


def test_a_read_that_loses_its_connection_mid_way_is_served_again(
    player: Client, solo_game: Game
) -> None:
    page = reverse("games:detail", kwargs={"pk": solo_game.pk})
    with _dropped_at("SELECT") as seen:
        response = player.get(page)
    assert "dropped" in seen
    assert response.status_code == 200
    assert b'data-testid="board"' in response.content or b"board" in response.content


def test_a_move_that_lost_its_connection_before_writing_is_played_once(
    player: Client, solo_game: Game
) -> None:
    number, turn = reference_turn_for(solo_game)
    play = reverse("games:play", kwargs={"pk": solo_game.pk})
    with _dropped_at("SELECT") as seen:
        response = player.post(play, {"round": number, **turn_fields(number, turn)})
    assert "dropped" in seen
    assert response.status_code in (200, 302)
    assert Move.objects.filter(seat__game=solo_game).count() == 1


def test_a_move_that_lost_its_connection_after_a_write_is_not_sent_twice(
    player: Client, solo_game: Game
) -> None:
    number, turn = reference_turn_for(solo_game)
    play = reverse("games:play", kwargs={"pk": solo_game.pk})
    fields = {"round": number, **turn_fields(number, turn)}
    with _dropped_at("UPDATE") as seen:
        response = player.post(play, fields)
    assert "dropped" in seen
    # Its transaction died, but after a write: the player is asked to try again, no 500.
    assert response.status_code == 503
    assert response["Retry-After"]
    assert Move.objects.filter(seat__game=solo_game).count() == 0
    assert player.post(play, fields).status_code in (200, 302)
    assert Move.objects.filter(seat__game=solo_game).count() == 1


def test_the_pool_lends_a_live_connection_after_postgres_dropped_them_all(
    user: User, solo_game: Game
) -> None:
    # Prod's settings in a new interpreter: its pool, its middleware; the proxy's health
    # check and a player's JSON record.
    code = f"""
import json, psycopg
from django.core.management import call_command
call_command("createcachetable")
from django.db import connection
from django.test import Client
from accounts.models import User
client = Client(raise_request_exception=False)
client.force_login(User.objects.get(pk={user.pk}))
pages = ["/health/", "/games/{solo_game.pk}/record.json"]
def visit():
    statuses = [client.get(p, secure=True, HTTP_HOST="example.org").status_code for p in pages]
    # Each request's connection back to the pool, as a server does (the test client not).
    connection.close()
    return statuses
statuses = visit()
with psycopg.connect({_url()!r}, autocommit=True) as other:
    dropped = other.execute(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
        " WHERE application_name = 'limes-fresh'"
    ).fetchone()[0]
with connection.cursor() as cursor:
    cursor.execute("SELECT 1")
    raw = cursor.fetchone()[0]
connection.close()
# Dropped again: the next requests find every pooled connection dead.
with psycopg.connect({_url()!r}, autocommit=True) as other:
    other.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE application_name = 'limes-fresh'"
    )
statuses += visit()
print(json.dumps({{"dropped": dropped, "raw": raw, "statuses": statuses}}))
"""
    done = run_django(code, **PROD_ENV, DATABASE_URL=f"{_url()}?application_name=limes-fresh")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["dropped"] >= 1
    assert result["raw"] == 1
    assert result["statuses"] == [200, 200, 200, 200]


def test_an_api_read_served_again_counts_once_against_the_limit() -> None:
    # The anonymous limit is per address and window: served again after its connection
    # dropped, a request must not use up two of the sixty a visitor has a minute.
    client = Client(raise_request_exception=False)
    window = int(time.time() // limits.WINDOW_SECONDS)
    with _dropped_at("SELECT") as seen:
        response = client.get("/api/v1/games/")
    assert "dropped" in seen
    assert response.status_code == 200
    assert cache.get(f"api:rate:anon:{window}:127.0.0.1") == 1
