"""What an operator relies on: /health/ for the proxy, one JSON line per request."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from core.tokens import poll_token
from games import services
from limes_site import observability
from limes_site.observability import JsonFormatter

pytestmark = pytest.mark.django_db


@pytest.fixture
def request_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Captures the request log (which does not propagate to the root logger)."""
    logger = logging.getLogger("limes.request")
    logger.addHandler(caplog.handler)
    caplog.set_level(logging.INFO, logger="limes.request")
    try:
        yield caplog
    finally:
        logger.removeHandler(caplog.handler)


@pytest.fixture
def migrations_unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(observability._Migrations, "all_applied", False)


def test_health_is_ok_when_database_cache_and_migrations_are(
    client: Client, migrations_unchecked: None
) -> None:
    response = client.get("/health/")

    assert response.status_code == 200
    assert response.json() == {"database": "ok", "cache": "ok", "migrations": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_health_names_a_cache_that_loses_values_but_keeps_the_server_in(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Redis away: every server would fail alike, and each works on without it.
    monkeypatch.setattr(cache, "get", lambda key, default=None: default)

    response = client.get("/health/")

    assert response.status_code == 200
    assert response.json()["cache"] == "failing"
    assert response.json()["database"] == "ok"


def test_health_fails_while_a_migration_is_not_applied(
    client: Client, monkeypatch: pytest.MonkeyPatch, migrations_unchecked: None
) -> None:
    from django.db.migrations.executor import MigrationExecutor

    monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [object()])

    response = client.get("/health/")

    assert response.status_code == 503
    assert response.json()["migrations"] == "failing"


def test_health_costs_one_query_once_the_migrations_were_seen_applied(client: Client) -> None:
    client.get("/health/")

    with CaptureQueriesContext(connection) as queries:
        assert client.get("/health/").status_code == 200

    # On PostgreSQL the one query goes on the check's own connection, none through the pool.
    assert len(queries) == (0 if connection.vendor == "postgresql" else 1)


@pytest.mark.postgres
def test_health_does_not_wait_on_a_pool_whose_connections_keep_dropping(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.get("/health/")

    # A pool that has no live connection to lend: a request would wait its 10 s.
    def starved(*args: object, **kwargs: object) -> None:
        raise AssertionError("the health check asked the pool for a connection")

    monkeypatch.setattr(connection, "ensure_connection", starved)
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


@pytest.mark.postgres
def test_health_names_a_database_that_takes_no_connection(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.get("/health/")
    params = connection.get_connection_params()
    # Nothing listens on port 1: the connection is refused.
    monkeypatch.setattr(connection, "get_connection_params", lambda: {**params, "port": 1})
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["database"] == "failing"


def test_every_request_logs_one_line_with_its_id_user_status_and_queries(
    client_logged_in: Client, user: User, request_log: pytest.LogCaptureFixture
) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = client_logged_in.get(reverse("games:home"), HTTP_X_REQUEST_ID="abc-123")

    assert response["X-Request-ID"] == "abc-123"
    [line] = request_log.records
    assert line.request_id == "abc-123"  # type: ignore[attr-defined]
    assert line.user_id == user.pk  # type: ignore[attr-defined]
    assert line.path == "/"  # type: ignore[attr-defined]
    assert line.method == "GET"  # type: ignore[attr-defined]
    assert line.status == 200  # type: ignore[attr-defined]
    assert line.queries == len(queries) > 0  # type: ignore[attr-defined]
    assert line.duration_ms > 0  # type: ignore[attr-defined]
    # The worker's own CPU: some, and never more than the request took.
    assert 0 < line.cpu_ms <= line.duration_ms + 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("forged", ["has space", "new\nline", "x" * 65, "ü"])
def test_a_request_id_that_is_not_an_id_is_replaced(
    client: Client, request_log: pytest.LogCaptureFixture, forged: str
) -> None:
    response = client.get(reverse("games:home"), HTTP_X_REQUEST_ID=forged)

    assert response["X-Request-ID"] != forged
    assert len(response["X-Request-ID"]) == 32
    assert request_log.records[0].request_id == response["X-Request-ID"]  # type: ignore[attr-defined]


def test_a_poll_with_nothing_new_is_logged_without_loading_the_session(
    client_logged_in: Client, user: User, request_log: pytest.LogCaptureFixture
) -> None:
    game = services.game_create_solo(user=user, diagonal=False, ferryman=False, seed=1)
    session = client_logged_in.cookies[settings.SESSION_COOKIE_NAME].value
    url = reverse("games:poll", kwargs={"pk": game.pk}) + (
        f"?v={game.version}&s=active&t={poll_token(game.pk, session)}"
    )

    with CaptureQueriesContext(connection) as queries:
        response = client_logged_in.get(url, HTTP_HX_REQUEST="true")

    assert response.status_code == 204
    assert len(queries) == 1
    assert request_log.records[0].queries == 1  # type: ignore[attr-defined]
    assert request_log.records[0].user_id is None  # type: ignore[attr-defined]


def test_log_lines_are_one_json_object_each() -> None:
    record = logging.makeLogRecord(
        {"name": "limes.request", "levelname": "INFO", "msg": "request", "path": "/a\nb"}
    )
    record.status = 200

    line = JsonFormatter().format(record)

    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["message"] == "request"
    assert parsed["path"] == "/a\nb"
    assert parsed["status"] == 200
    assert "msg" not in parsed
