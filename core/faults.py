"""Telling a lost database connection from the other database errors.

PostgreSQL drops connections when it restarts or fails over, or when an administrator (or
an idle timeout) ends them. Whatever was running on such a connection did not commit
unless its COMMIT had been answered, and works on a new one. The task worker
(``manage.py task_worker``) runs such a task again instead of failing it, and
``limes_site.dbretry.DatabaseRetryMiddleware`` serves such a request again where that
is safe. Any other database error (a constraint, a deadlock, a statement timeout) is the
code's or the data's and is not retried.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

# SQLSTATE classes and codes of a connection that is gone or not yet back: 08 (connection
# exception), and "terminated by an administrator" (pg_terminate_backend, a fast shutdown),
# "crash shutdown", "the database system is starting up".
_LOST_CLASS = "08"
_LOST_CODES = frozenset({"57P01", "57P02", "57P03"})


def is_connection_lost(error: BaseException) -> bool:
    """Whether ``error`` (or an error it was raised from) is a lost PostgreSQL connection."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, (InterfaceError, OperationalError)) and _lost(current.__cause__):
            return True
        current = current.__cause__ or current.__context__
    return False


def _lost(driver_error: BaseException | None) -> bool:
    # Django's error wraps the driver's (raise … from): only psycopg's say which it is.
    # (SQLite's "database is locked" is an OperationalError too, and no lost connection.)
    if driver_error is None or not type(driver_error).__module__.startswith("psycopg"):
        return False
    import psycopg

    if isinstance(driver_error, psycopg.InterfaceError):
        return True
    if not isinstance(driver_error, psycopg.OperationalError):
        return False
    sqlstate = getattr(driver_error, "sqlstate", None)
    # No SQLSTATE: the client's own "server closed the connection unexpectedly",
    # "connection refused", or the pool's wait for a connection running out.
    return sqlstate is None or sqlstate.startswith(_LOST_CLASS) or sqlstate in _LOST_CODES


def is_pool_timeout(error: BaseException) -> bool:
    """Whether ``error`` came from waiting the pool's whole timeout for a connection."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if type(current).__name__ == "PoolTimeout":
            return True
        current = current.__cause__ or current.__context__
    return False
