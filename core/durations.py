"""How long a turn or a round may take, in words every game shows the same way."""

from __future__ import annotations

from django.utils.translation import ngettext

MINUTE, DAY = 60, 86400


def duration_label(seconds: int) -> str:
    """ "30 seconds", "3 minutes", "2 days": a clock's length, in the active language."""
    if seconds >= DAY:
        days = seconds // DAY
        return ngettext("%d day", "%d days", days) % days
    if seconds < MINUTE:
        return ngettext("%d second", "%d seconds", seconds) % seconds
    minutes = seconds // MINUTE
    return ngettext("%d minute", "%d minutes", minutes) % minutes
