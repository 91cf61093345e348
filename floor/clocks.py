"""Turn clocks every game keeps, enforced by one scheduled job.

Each game whose turns have deadlines registers, in its ``AppConfig.ready``, the service
that enforces every deadline passed by ``now`` (``clock_source``: Limes'
``games.services.expire_deadlines``, Winter's ``wintergames.services.expire_deadlines``).
``manage.py expire_deadlines``, run every minute by a scheduler, runs them all: a game
nobody opens still moves on. Each source takes one transaction per game under its row lock,
so running the job twice, or beside a page that enforces the same clock, does no harm.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

from django.utils import timezone

logger = logging.getLogger(__name__)
T = TypeVar("T")


class ClockSource(Protocol):
    """Enforce every deadline of one game's kind passed by ``now``; how many games moved."""

    def __call__(self, *, now: datetime.datetime) -> int: ...


_sources: list[ClockSource] = []


def clock_source(source: ClockSource) -> None:
    """Make a game's clocks part of the scheduled job (call in ``AppConfig.ready``)."""
    if source not in _sources:
        _sources.append(source)


def expire_deadlines(*, now: datetime.datetime | None = None) -> int:
    """Enforce every passed deadline of every game; returns how many games moved on.

    A source that fails is logged and the others still run: one game's fault must not
    stop every other game's clock (nor the turn mails the job sends after them).
    """
    now = now or timezone.now()
    moved = 0
    for source in _sources:
        try:
            moved += source(now=now)
        except Exception:
            logger.exception("clocks: %s failed", getattr(source, "__qualname__", source))
    return moved


def each_due(items: Iterable[T], enforce: Callable[[T], bool]) -> int:
    """``enforce`` each item a source found due (a game, a table), in turn; how many moved.

    An item whose enforcement raises (its own transaction rolled back) is logged and
    skipped: the next run tries it again, and the items after it are not held up.
    """
    moved = 0
    for item in items:
        try:
            moved += bool(enforce(item))
        except Exception:
            logger.exception("clocks: enforcing %r failed", item)
    return moved
