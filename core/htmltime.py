"""The ``html_time`` filter, built into every template (settings ``TEMPLATES``).

A time as a ``<time datetime>`` (or a page's ``data-*`` clock) carries it: to the
millisecond, which HTML allows (one to three digits; Python's microseconds are not), so a
countdown read from it ends when the server's clock does, not up to a second early.
"""

from __future__ import annotations

import datetime

from django import template

register = template.Library()


@register.filter
def html_time(value: datetime.datetime | None) -> str:
    """``2026-06-10T12:00:00.123+0000`` for an aware datetime; "" for none."""
    if value is None:
        return ""
    return f"{value:%Y-%m-%dT%H:%M:%S}.{value.microsecond // 1000:03d}{value:%z}"
