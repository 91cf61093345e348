"""Who is online: a signed-in player's requests mark them seen, in the shared cache.

No database write, and no key written on every request: a request finds the player's mark
with one read of the cache and renews it at most once a minute (``SEEN_EVERY_SECONDS``).
Friends see a player online while the mark is younger than ``ONLINE_SECONDS``; the key
expires with it. The cache is the one every app server shares in production (Redis); when
it is away, nobody shows online: a courtesy between friends, not a record worth a table.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.core.cache import cache
from django.utils import timezone

#: Seen this recently, a player is online.
ONLINE_SECONDS = 300
#: A mark younger than this is not renewed.
SEEN_EVERY_SECONDS = 60


def _key(user_id: int) -> str:
    return f"social:seen:{user_id}"


def _moment(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def mark_seen(user_id: int, *, now: datetime.datetime | None = None) -> bool:
    """Mark the player seen now, unless they were in the last minute; returns whether
    the mark was written."""
    moment = (now or timezone.now()).timestamp()
    seen = _moment(cache.get(_key(user_id)))
    if seen is not None and 0 <= moment - seen < SEEN_EVERY_SECONDS:
        return False
    cache.set(_key(user_id), moment, ONLINE_SECONDS)
    return True


def online_among(user_ids: Iterable[int], *, now: datetime.datetime | None = None) -> set[int]:
    """Those of these players seen in the last ``ONLINE_SECONDS``, in one read."""
    keys = {_key(pk): pk for pk in user_ids}
    if not keys:
        return set()
    moment = (now or timezone.now()).timestamp()
    found = cache.get_many(list(keys))
    return {
        keys[key]
        for key, value in found.items()
        if (seen := _moment(value)) is not None and moment - seen < ONLINE_SECONDS
    }
