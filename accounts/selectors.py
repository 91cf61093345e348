"""Reads about players shared by several apps."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from accounts.models import NotificationPreference, PushSubscription, User, Vacation
from accounts.notifications import CHANNELS, CHOOSABLE, Channel, Event, on_by_default


def not_banned(prefix: str = "") -> Q:
    """A filter for users without a ban in force; ``prefix`` reaches them ("user__")."""
    field = f"{prefix}banned_until"
    return Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__lte": timezone.now()})


#: How many names a search shows; a longer prefix narrows it.
SEARCH_LIMIT = 30
#: No name is longer (``AbstractUser.username``).
NAME_MAX_LENGTH = 150


def players_named(prefix: str) -> list[User]:
    """Players whose name starts with ``prefix`` (case-insensitive), in name order, at most
    ``SEARCH_LIMIT``: those who can be found (no deleted account, no ban in force)."""
    found = (
        User.objects.filter(username__istartswith=prefix, is_active=True, deleted_at__isnull=True)
        .filter(not_banned())
        .order_by(Lower("username"), "pk")
    )
    return list(found[:SEARCH_LIMIT])


def vacation_current(user: User, now: datetime.datetime | None = None) -> Vacation | None:
    """The player's vacation in progress, if any."""
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()


def vacation_days_used(user: User, year: int) -> int:
    """The days of ``year``'s allowance the player's vacations took (or are booked to take):
    the days begun within that year (one over New Year counts in each of its two years)."""
    if not datetime.MINYEAR < year < datetime.MAXYEAR:
        return 0
    begins = datetime.datetime(year, 1, 1, tzinfo=datetime.UTC)
    ends = datetime.datetime(year + 1, 1, 1, tzinfo=datetime.UTC)
    rows = Vacation.objects.filter(user=user, starts_at__lt=ends, ends_at__gt=begins)
    day = datetime.timedelta(days=1)
    return sum(
        -(-(min(stop, ends) - max(start, begins)) // day)
        for start, stop in rows.values_list("starts_at", "ends_at")
    )


def vacations_until(
    user_ids: Iterable[int], now: datetime.datetime | None = None
) -> dict[int, datetime.datetime]:
    """Who of these players is on vacation now, and until when (one query)."""
    now = now or timezone.now()
    ids = {pk for pk in user_ids if pk is not None}
    if not ids:
        return {}
    rows = Vacation.objects.filter(user_id__in=ids, starts_at__lte=now, ends_at__gt=now)
    return dict(rows.values_list("user_id", "ends_at"))


def vacation_paused(
    user_id: int, since: datetime.datetime, now: datetime.datetime
) -> datetime.timedelta:
    """How long the player's vacations stopped their clock between ``since`` and ``now``."""
    rows = Vacation.objects.filter(user_id=user_id, starts_at__lt=now, ends_at__gt=since)
    paused = datetime.timedelta()
    for starts_at, ends_at in rows.values_list("starts_at", "ends_at"):
        paused += min(ends_at, now) - max(starts_at, since)
    return paused


# Notifications: the player's choices and devices


def notification_channels(user: User, event: Event) -> set[Channel]:
    """The channels ``event`` reaches ``user`` by, as they chose (or by default)."""
    chosen = dict(
        NotificationPreference.objects.filter(user=user, event=event).values_list(
            "channel", "enabled"
        )
    )
    return {
        channel
        for channel in CHANNELS[event]
        if chosen.get(channel.value, on_by_default(event, channel))
    }


def notification_preferences(user: User) -> dict[tuple[str, str], bool]:
    """Every choosable (event, channel) pair's choice, the default where none was made."""
    chosen = {
        (event, channel): enabled
        for event, channel, enabled in NotificationPreference.objects.filter(user=user).values_list(
            "event", "channel", "enabled"
        )
    }
    return {
        (event.value, channel.value): chosen.get(
            (event.value, channel.value), on_by_default(event, channel)
        )
        for event in CHOOSABLE
        for channel in CHANNELS[event]
    }


def push_subscriptions(user: User) -> list[PushSubscription]:
    """The devices ``user`` gets pushes on, oldest first."""
    return list(PushSubscription.objects.filter(user=user).order_by("created_at", "pk"))
