"""Deployment checks of what the accounts' safety relies on."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register

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
