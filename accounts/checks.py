"""Deployment checks of what the accounts' safety relies on."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register
from django.core.management import call_command

# Caches whose counters live inside one process: with several workers, each keeps its own.
_PER_PROCESS = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


@register(Tags.security, deploy=True)
def check_shared_throttle_cache(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Throttles (failed sign-ins, invitation codes) need a cache every worker shares."""
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if backend in _PER_PROCESS:
        return [
            Warning(
                "The default cache is kept per process, so each worker counts failed "
                "sign-ins and guessed codes on its own and the limits multiply.",
                hint="Set REDIS_URL, or use the database cache (python manage.py "
                "createcachetable).",
                id="limes.W001",
            )
        ]
    return []


def cache_tables_create(*, using: str = "default", **kwargs: Any) -> None:
    """``post_migrate`` receiver: ``createcachetable`` where a cache lives in the database.

    Without it, production without Redis answers 500 to every throttled request until
    someone remembers to run the command; it skips tables that exist.
    """
    if any(cache["BACKEND"].endswith("DatabaseCache") for cache in settings.CACHES.values()):
        call_command("createcachetable", database=using, verbosity=0)
