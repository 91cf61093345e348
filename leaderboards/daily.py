"""Weeks: the weekly boards run Monday to Sunday (UTC)."""

from __future__ import annotations

import datetime


def week_start(moment: datetime.datetime | datetime.date) -> datetime.date:
    """The Monday (UTC) of the week ``moment`` falls in."""
    if isinstance(moment, datetime.datetime):
        moment = moment.astimezone(datetime.UTC).date()
    return moment - datetime.timedelta(days=moment.weekday())
