"""Cheap polls: the mark on their views that middleware reads, and the state they compare.

A waiting page polls every few seconds; almost every poll finds nothing new. Its answer
then needs only two values of the game, its version and its turn's deadline, so they live
in the cache (``PollStates``: Redis in production, shared by every app server) and such a
poll does not touch PostgreSQL.

The cache is written inside the transaction that changes the game, while it holds the
game's row lock: writes of one game therefore reach the cache in version order, and the
cached version is never older than the committed one. (Before the commit it may be newer
for a moment, or, if the transaction fails, until the next change: a poll then merely
loads the game for nothing.) A poll that misses fills the cache from the database only if
no write came first (``cache.add``). While Redis is away a read is a miss and a skipped
write's key is deleted once it is back (``limes_site.cache``): the polls read the row.

That holds only for a cache that every process shares. Where each process has its own
(``settings.POLL_STATE_IN_CACHE`` false: scripts/serve without Redis), the worker's moves
would bump a version the web server never sees, so the state is read from the game's row.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import models

View = TypeVar("View", bound=Callable[..., object])

PollState = tuple[int, datetime.datetime | None]
"""A game's version and its turn's (or round's) deadline: what its polls compare."""

POLL_STATE_SECONDS = 10 * 60
"""Only a lost or evicted write could leave the cache behind the database; this bounds how
long such a rarity could hide a change from a waiting page."""


def poll(view: View) -> View:
    """Mark a view as a cheap poll: per-request checks that load the session skip it.

    Only for views that reveal nothing a signed-out visitor could not see when they find
    nothing new, and that check permissions themselves before showing anything else.
    """
    view.is_poll = True  # type: ignore[attr-defined]
    return view


def is_poll(view: Callable[..., object]) -> bool:
    """Whether ``view`` is marked a cheap poll (``poll``): middleware that would load the
    session or the user for it skips it."""
    return bool(getattr(view, "is_poll", False))


class PollStates:
    """The poll states of one kind of game: rows of ``model`` (with a ``version`` and a
    ``deadline``), cached under ``prefix:<pk>``."""

    def __init__(self, model: type[models.Model], prefix: str) -> None:
        self.model = model
        self.prefix = prefix

    def key(self, pk: int) -> str:
        """The cache key of one game's poll state."""
        return f"{self.prefix}:{pk}"

    def publish(self, pk: int, version: int, deadline: datetime.datetime | None) -> None:
        """Store a game's new version and deadline for its polls (call under its row lock,
        in the transaction that wrote them)."""
        if not settings.POLL_STATE_IN_CACHE:
            return
        state: PollState = (version, deadline)
        cache.set(self.key(pk), state, POLL_STATE_SECONDS)

    def get(self, pk: int) -> PollState | None:
        """A game's version and deadline, from the cache when it has them; None: no game."""
        if not settings.POLL_STATE_IN_CACHE:
            return self._row(pk)
        key = self.key(pk)
        cached = cache.get(key)
        if cached is not None:
            version, deadline = cached
            return int(version), deadline
        row = self._row(pk)
        if row is None:
            return None
        cache.add(key, row, POLL_STATE_SECONDS)
        return row

    def _row(self, pk: int) -> PollState | None:
        rows = self.model._default_manager.filter(pk=pk).values_list("version", "deadline")
        row: PollState | None = rows.first()
        return row
