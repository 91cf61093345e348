"""Requests whose PostgreSQL connection was lost under them: served again, or told to retry.

When PostgreSQL restarts, fails over or ends a connection, the query that finds the
connection gone raises; without this, the player got a 500 for it. Here such a request is
served once more, from the first middleware on, on a new connection (the pool checks each
one before lending it), when doing so cannot apply anything twice:

- a GET, HEAD or OPTIONS, which changes nothing a player asked for;
- any other request if no statement that writes had been sent: until then nothing of it
  can have been committed (a write that failed outside a transaction may have been
  applied, so it counts as sent).

Otherwise, or when the database is still away (the pool waited its 10 s for a
connection), the answer is a 503 with ``Retry-After`` that needs no database to draw,
never a 500.

What a request does outside the database runs again when it is served again. Each of
these is harmless or guarded:

- the API's rate limit: counted once, its verdict kept on the request (``api.limits``);
- other counters in the cache (failed invitation codes, hints, sign-in attempts):
  counted again, one more in a window of dozens, only for a request that lost its
  connection before it wrote;
- presence (``social.presence``): the mark is renewed at most once a minute anyway;
- the deadlines a GET enforces (``games.services.deadlines_enforce``, from a game page or
  My games): a write on a GET, but idempotent: the second pass finds the round closed;
- pushes and tasks: queued on commit only, so the lost pass, which never committed,
  sent none.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.core.signals import got_request_exception
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from core.faults import is_connection_lost, is_pool_timeout

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 2
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Statements that change nothing: reads (row locks included) and transaction bookkeeping.
_READS = ("SELECT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "SET ", "SHOW ")
_LOST = "_limes_database_lost"


class _Writes:
    """Whether a statement that writes was sent on the connection it watches."""

    def __init__(self) -> None:
        self.sent = False

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        writes = not sql.lstrip()[:24].upper().startswith(_READS)
        try:
            result = execute(sql, params, many, context)
        except Exception:
            # Sent and lost outside a transaction: it may have been applied.
            if writes and not connection.in_atomic_block:
                self.sent = True
            raise
        if writes:
            self.sent = True
        return result


def _note_lost_connection(sender: object, request: HttpRequest | None = None, **_: Any) -> None:
    # Django turns a view's or a middleware's error into a 500 where it is raised, and
    # tells this signal inside its except block: the error is the one being handled.
    error = sys.exc_info()[1]
    if request is not None and error is not None and is_connection_lost(error):
        setattr(request, _LOST, error)


got_request_exception.connect(_note_lost_connection, dispatch_uid="limes-database-lost")


class DatabaseRetryMiddleware:
    """Serves again a request that lost its database connection, where that is safe."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response, writes, error = self._serve(request)
        if response is not None:
            return response
        if (
            connection.in_atomic_block
            or (request.method not in SAFE_METHODS and writes.sent)
            # The pool waited its whole timeout: the database is down, not just restarted.
            or (error is not None and is_pool_timeout(error))
        ):
            return unavailable()
        logger.warning(
            "%s %s lost its database connection: served again", request.method, request.path
        )
        response, _writes, _error = self._serve(request)
        return response if response is not None else unavailable()

    def _serve(
        self, request: HttpRequest
    ) -> tuple[HttpResponse | None, _Writes, BaseException | None]:
        """The response, or None and the error if the request lost its database connection."""
        writes = _Writes()
        response: HttpResponse | None
        lost: BaseException | None = None
        try:
            with connection.execute_wrapper(writes):
                response = self.get_response(request)
        except Exception as error:
            if not is_connection_lost(error):
                raise
            response, lost = None, error
        if hasattr(request, _LOST):
            lost = getattr(request, _LOST)
            delattr(request, _LOST)
            response = None
        if response is None and not connection.in_atomic_block:
            # Back to the pool, which drops it; the next query takes a checked one.
            connection.close()
        return response, writes, lost


def unavailable() -> HttpResponse:
    """The answer when the database is away: drawn without it, and saying when to retry."""
    response = HttpResponse(
        _("The game server lost its database for a moment. Please try again."),
        status=503,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
