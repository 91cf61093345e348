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
from typing import Protocol

from django.utils import timezone


class ClockSource(Protocol):
    """Enforce every deadline of one game's kind passed by ``now``; how many games moved."""

    def __call__(self, *, now: datetime.datetime) -> int: ...


_sources: list[ClockSource] = []


def clock_source(source: ClockSource) -> None:
    """Make a game's clocks part of the scheduled job (call in ``AppConfig.ready``)."""
    if source not in _sources:
        _sources.append(source)


def expire_deadlines(*, now: datetime.datetime | None = None) -> int:
    """Enforce every passed deadline of every game; returns how many games moved on."""
    now = now or timezone.now()
    return sum(source(now=now) for source in _sources)
