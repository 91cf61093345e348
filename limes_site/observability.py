"""What an operator sees of a running server: one JSON line per request, and the health check.

The request line is plain :mod:`logging` with a small JSON formatter rather than
django-structlog: one line of known fields is all that is wanted, and counting queries,
which no such package does, needs a middleware of our own anyway.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

import psycopg
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.functional import empty
from django.views.decorators.cache import never_cache

logger = logging.getLogger("limes.request")

REQUEST_ID_HEADER = "X-Request-ID"
# What a proxy's id looks like (a UUID, hex digits, dashes): anything else a client sends
# is replaced, so that no one can write arbitrary text into the logs.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

# Attributes every LogRecord has; the rest came in through ``extra`` and go into the JSON.
_RECORD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the record's extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update({k: v for k, v in vars(record).items() if k not in _RECORD_FIELDS})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class _QueryCounter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


def request_id_of(request: HttpRequest) -> str:
    """The proxy's request id, or a new one when there is none (or it looks forged)."""
    given = request.headers.get(REQUEST_ID_HEADER, "")
    return given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


def _user_id(request: HttpRequest) -> int | None:
    user = getattr(request, "user", None)
    # Polls never load the user (that would cost the session query they avoid): log none
    # rather than load it here.
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    return user.pk if user.is_authenticated else None


class RequestLogMiddleware:
    """Logs one line per request (id, user, path, status, duration, this thread's CPU time,
    queries); echoes the id.

    First in the chain, so the duration and the queries cover every other middleware.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.sentry = bool(getattr(settings, "SENTRY_DSN", ""))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_of(request)
        request.request_id = request_id  # type: ignore[attr-defined]
        if self.sentry:
            import sentry_sdk

            sentry_sdk.set_tag("request_id", request_id)
        queries = _QueryCounter()
        start, started_cpu = time.perf_counter(), time.thread_time()
        with connection.execute_wrapper(queries):
            response = self.get_response(request)
        duration_ms = (time.perf_counter() - start) * 1000
        cpu_ms = (time.thread_time() - started_cpu) * 1000
        response[REQUEST_ID_HEADER] = request_id
        logger.info(
            "request",
            extra={
                "request_id": request_id,
                "user_id": _user_id(request),
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round(duration_ms, 2),
                "cpu_ms": round(cpu_ms, 2),
                "queries": queries.count,
            },
        )
        return response


# -- /health/ ------------------------------------------------------------------------------


class _Migrations:
    # Once every migration this code knows is applied, it stays so for the life of the
    # process: the check reads the migration files once, not every second.
    all_applied = False


#: The longest the database check waits to connect, then for its answer.
HEALTH_DATABASE_SECONDS = 2


def _check_database() -> None:
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            if cursor.fetchone() != (1,):
                raise RuntimeError("SELECT 1 did not answer 1")
        return
    # A connection of its own, not the pool's: a pool whose connections PostgreSQL keeps
    # dropping makes a request wait up to its 10 s for a live one, and a check that waits
    # so long is taken by the proxy for a dead server (both servers out, every player 503)
    # while the servers still serve (limes_site.dbretry). A database that takes new
    # connections is up; one that does not is named within two seconds.
    params = connection.get_connection_params()
    params.pop("application_name", None)
    options = f"{params.pop('options', '')} -c statement_timeout={HEALTH_DATABASE_SECONDS * 1000}"
    with psycopg.connect(
        **params,
        connect_timeout=HEALTH_DATABASE_SECONDS,
        options=options.strip(),
        autocommit=True,
        application_name="limes-health",
    ) as own:
        if own.execute("SELECT 1").fetchone() != (1,):
            raise RuntimeError("SELECT 1 did not answer 1")


def _check_cache() -> None:
    key = f"health:{uuid.uuid4().hex}"
    cache.set(key, "ok", 10)
    try:
        if cache.get(key) != "ok":
            raise RuntimeError("the cache did not keep a value")
    finally:
        cache.delete(key)


def _check_migrations() -> None:
    if _Migrations.all_applied:
        return
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        raise RuntimeError(f"{len(plan)} migrations not applied")
    _Migrations.all_applied = True


# Checks whose failure is named but keeps the server in: every server shares the cache
# (Redis), so its loss would take them all out, while the site works without it
# (limes_site.cache reads from the database meanwhile).
DEGRADABLE = frozenset({"cache"})

HEALTH_CHECKS: dict[str, Callable[[], None]] = {
    "database": _check_database,
    "cache": _check_cache,
    "migrations": _check_migrations,
}


@never_cache
def health(request: HttpRequest) -> HttpResponse:
    """200 when the database answers and all migrations are applied, 503 otherwise.

    The answer names what failed, so a proxy takes this server out of its rotation; a cache
    that keeps no value (Redis away) is named too, but the server stays in.
    """
    results: dict[str, str] = {}
    for name, check in HEALTH_CHECKS.items():
        try:
            check()
        except Exception:
            logging.getLogger("limes.health").exception("health check %s failed", name)
            results[name] = "failing"
        else:
            results[name] = "ok"
    healthy = all(value == "ok" for name, value in results.items() if name not in DEGRADABLE)
    return JsonResponse(results, status=200 if healthy else 503)
