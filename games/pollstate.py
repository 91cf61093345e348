"""The version and deadline that a game's polls compare, kept in the shared cache.

A waiting page polls every 2 s; almost every poll finds nothing new. Its answer then
needs only these two values, so they live in the cache (Redis in production, shared by
every app server) and such a poll does not touch PostgreSQL.

The cache is written inside the transaction that changes the game, while it holds the
game's row lock: writes of one game therefore reach the cache in version order, and the
cached version is never older than the committed one. (Before the commit it may be newer
for a moment, or, if the transaction fails, until the next change: a poll then merely
loads the game for nothing.) A poll that misses fills the cache from the database only if
no write came first (``cache.add``).

That holds only for a cache that every process shares. Where each process has its own
(``settings.POLL_STATE_IN_CACHE`` false: scripts/serve without Redis), the worker's moves
would bump a version the web server never sees, so the state is read from the game's row.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.cache import cache

from games.models import Game

# Only a lost or evicted write could leave the cache behind the database; this bounds how
# long such a rarity could hide a change from a waiting page.
POLL_STATE_SECONDS = 10 * 60

PollState = tuple[int, datetime.datetime | None]


def poll_state_key(game_id: int) -> str:
    """The cache key of a game's poll state."""
    return f"games:poll:{game_id}"


def poll_state_publish(game: Game) -> None:
    """Store the game's current version and deadline for its polls (call under its lock)."""
    poll_state_set(game.pk, game.version, game.deadline)


def poll_state_set(game_id: int, version: int, deadline: datetime.datetime | None) -> None:
    """``poll_state_publish`` for a game written without its row in hand (under its lock)."""
    if not settings.POLL_STATE_IN_CACHE:
        return
    state: PollState = (version, deadline)
    cache.set(poll_state_key(game_id), state, POLL_STATE_SECONDS)


def poll_state(game_id: int) -> PollState | None:
    """The game's version and deadline, from the cache when it has them; None: no game."""
    if not settings.POLL_STATE_IN_CACHE:
        return Game.objects.filter(pk=game_id).values_list("version", "deadline").first()
    key = poll_state_key(game_id)
    cached = cache.get(key)
    if cached is not None:
        version, deadline = cached
        return int(version), deadline
    row = Game.objects.filter(pk=game_id).values_list("version", "deadline").first()
    if row is None:
        return None
    cache.add(key, row, POLL_STATE_SECONDS)
    return row
