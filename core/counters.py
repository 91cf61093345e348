"""Counters in the shared cache: fixed windows for the throttles and rate limits.

The cache is the one every process shares in production (Redis), where ``add`` then
``incr`` is atomic; while it is away, the site's cache lets the count start afresh
(``limes_site.cache``), so a throttle lets players through rather than locking them out.
"""

from __future__ import annotations

from django.core.cache import cache


def window_count(key: str, seconds: int) -> int:
    """Count one more under ``key`` in a window of ``seconds`` that starts with its first
    count; the count so far, this one included."""
    # add() starts the window only once; incr() never extends it.
    cache.add(key, 0, seconds)
    try:
        return int(cache.incr(key))
    except ValueError:  # the window ended between the two calls
        cache.add(key, 1, seconds)
        return 1
