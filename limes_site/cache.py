"""Django's Redis cache, made to share its clients and to live through Redis going away.

**One client per pool.** ``django.core.cache.backends.redis.RedisCacheClient.get_client``
builds a new ``redis.Redis`` for every cache operation; building one copies redis-py's table
of response callbacks and took 60 µs here, more than the round trip to Redis it prepares
(50 µs). A client is safe to share between threads (each command borrows a connection from
the pool), so one per pool does the same work without the copying. Every signed-in request
reads its session through the cache (``cached_db``); a commit also writes the game's poll
state.

**Redis is only a cache.** When Redis cannot be reached (a restart, a lost network), a read
is a miss, a write is skipped, and a counter starts again from nothing: sessions are read
from the database (``cached_db``), poll states from the game's row, throttles count afresh
(they let players through while Redis is away). An ``add`` answers that it added: a lock
or a window that cannot be kept is taken as granted (allauth's rate limits take a lock
with ``add`` before every sign-in, sign-up and password reset, and would otherwise wait
for it and refuse them all). After one failure Redis is left alone for
``PAUSE_SECONDS``, so that a request does not wait for a dead server at every operation,
and the outage is logged once. A key whose write was skipped could still hold an older
value in Redis (one that kept its data across a restart, or a network cut that only this
process saw): such keys are deleted as soon as Redis answers again, so that no poll or
session reads a value older than the last one written.

**Fenced.** Sharing the clients builds on private parts of Django's Redis backend
(``RedisCacheClient._get_connection_pool`` and ``._client``, ``RedisCache._cache``), read
against Django 5.2 (``WRITTEN_FOR``). On any other Django a client is built per operation,
as Django does (``shares_clients``), and the system check ``limes.E003`` stops
``manage.py`` while this cache is configured, until someone has read this module against
the new version, run ``tests/limes_site/test_cache_fence.py`` and
``tests/cluster/test_redis_cache.py``, and added it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

import django
import redis
from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from django.core.checks import CheckMessage, Tags, register

from core.fences import version_fence

logger = logging.getLogger(__name__)

# How long Redis is left alone after a failure before the next operation tries it again.
PAUSE_SECONDS = 1.0
# Keys whose write was skipped, kept to delete once Redis is back; past this many (a long
# outage on a busy site), the oldest are forgotten and their values expire on their own.
PENDING_MAX = 100_000
# What a Redis that is away raises: refused or cut connections, timeouts, "loading the
# dataset" after a restart, a read-only replica during a failover.
UNAVAILABLE: tuple[type[Exception], ...] = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ReadOnlyError,
    OSError,
)

#: The Django versions (major, minor) whose Redis cache backend this module was read against.
WRITTEN_FOR = frozenset({(5, 2)})

T = TypeVar("T")


def shares_clients() -> bool:
    """Whether a client is shared per pool (else Django builds one per operation)."""
    return django.VERSION[:2] in WRITTEN_FOR


@register(Tags.compatibility)
def check_django_version(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """An error, while this cache is configured, on a Django it was not written for."""
    backends = {cache.get("BACKEND") for cache in settings.CACHES.values()}
    if f"{__name__}.RedisCache" not in backends:
        return []
    return version_fence(
        what="limes_site/cache.py shares the clients of Django's Redis cache through its "
        "private parts",
        library="Django",
        installed=django.VERSION[:2],
        shown=django.get_version(),
        written_for=WRITTEN_FOR,
        hint="Read limes_site/cache.py against this Django, run "
        "tests/limes_site/test_cache_fence.py and tests/cluster/test_redis_cache.py, "
        "then add the version to limes_site.cache.WRITTEN_FOR.",
        id="limes.E003",
    )


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        if not shares_clients():
            return super().get_client(key, write=write)
        # (django-stubs leave out the private parts this builds on.)
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            made = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            client = self._clients.setdefault(id(pool), made)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
        self._lock = threading.Lock()
        self._paused_until = 0.0
        self._away = False
        self._pending: dict[str, None] = {}

    # -- reads: a miss while Redis is away ------------------------------------------------

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._call(lambda: super(RedisCache, self).get(key, default, version), default)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        keys = list(keys)
        return self._call(lambda: super(RedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._call(lambda: super(RedisCache, self).has_key(key, version), False)

    # -- writes: skipped while Redis is away, their keys deleted once it is back ----------

    def add(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        call = lambda: super(RedisCache, self).add(key, value, timeout, version)  # noqa: E731
        # Granted while Redis is away: no caller waits for a lock nobody can hold.
        return self._write(call, True, [key], version)

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        call = lambda: super(RedisCache, self).set(key, value, timeout, version)  # noqa: E731
        self._write(call, None, [key], version)

    def set_many(
        self,
        data: dict[Any, Any],
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> list[Any]:
        call = lambda: super(RedisCache, self).set_many(data, timeout, version)  # noqa: E731
        return self._write(call, list(data), list(data), version)

    def touch(
        self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        call = lambda: super(RedisCache, self).touch(key, timeout, version)  # noqa: E731
        return self._write(call, False, [key], version)

    def delete(self, key: Any, version: int | None = None) -> bool:
        call = lambda: super(RedisCache, self).delete(key, version)  # noqa: E731
        return self._write(call, False, [key], version)

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        keys = list(keys)
        self._write(lambda: super(RedisCache, self).delete_many(keys, version), None, keys, version)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # A counter that cannot be read counts from nothing: the limit lets the player by.
        call = lambda: super(RedisCache, self).incr(key, delta, version)  # noqa: E731
        return self._write(call, delta, [key], version)

    # -- the outage ----------------------------------------------------------------------

    def _write(self, call: Callable[[], T], fallback: T, keys: list[Any], version: int | None) -> T:
        made = [self.make_and_validate_key(key, version=version) for key in keys]
        answered, result = self._try(call)
        if answered:
            return cast(T, result)
        with self._lock:
            for key in made:
                self._pending[key] = None
            while len(self._pending) > PENDING_MAX:
                del self._pending[next(iter(self._pending))]
        return fallback

    def _call(self, call: Callable[[], T], fallback: T) -> T:
        answered, result = self._try(call)
        return cast(T, result) if answered else fallback

    def _try(self, call: Callable[[], T]) -> tuple[bool, T | None]:
        if self._away:
            if time.monotonic() < self._paused_until:
                return False, None
            if not self._come_back():
                return False, None
        try:
            return True, call()
        except UNAVAILABLE:
            self._go_away()
            return False, None

    def _go_away(self) -> None:
        self._paused_until = time.monotonic() + PAUSE_SECONDS
        if not self._away:
            self._away = True
            logger.warning("cache: Redis is unreachable; reading from the database meanwhile")

    def _come_back(self) -> bool:
        # The keys whose writes were skipped first: until they are gone, Redis is not used.
        with self._lock:
            pending = list(self._pending)
        try:
            if pending:
                self._cache.get_client(write=True).delete(*pending)
        except UNAVAILABLE:
            self._paused_until = time.monotonic() + PAUSE_SECONDS
            return False
        with self._lock:
            for key in pending:
                self._pending.pop(key, None)
        self._away = False
        logger.warning("cache: Redis answers again (%d stale keys deleted)", len(pending))
        return True
