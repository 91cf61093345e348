"""The daily challenge's day and card sequence (UTC days, one seed per day)."""

from __future__ import annotations

import datetime
import hashlib
import hmac

from django.conf import settings
from django.utils import timezone

# The first day of the daily challenge: pages of earlier days do not exist (and a day
# like 0001-01-01 would have no day before it to link to).
FIRST_DAY = datetime.date(2020, 1, 1)


def daily_secret() -> bytes:
    """The key of the daily sequences: ``LIMES_DAILY_SECRET``, or one derived from SECRET_KEY."""
    if settings.LIMES_DAILY_SECRET:
        return str(settings.LIMES_DAILY_SECRET).encode()
    # A derived key rather than SECRET_KEY itself, so the two uses never share a value.
    return hmac.new(settings.SECRET_KEY.encode(), b"limes-daily-challenge", hashlib.sha256).digest()


def daily_seed(day: datetime.date) -> int:
    """The seed the day's cards are dealt from: the same for everyone, unknowable in advance.

    An HMAC of the date under a server secret: earlier days' sequences say nothing about
    the next one, and neither does the code without the secret.
    """
    digest = hmac.new(daily_secret(), day.isoformat().encode(), hashlib.sha256).digest()
    # 62 bits: a positive value for Game.seed (a signed 64-bit column), as games get.
    return int.from_bytes(digest[:8], "big") >> 2


def today() -> datetime.date:
    """The challenge's current day: days change at midnight UTC for everyone."""
    return timezone.now().astimezone(datetime.UTC).date()
