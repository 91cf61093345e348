"""Reads for the Winter pages."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from wintergames.models import WinterGame

OPEN_SHOWN = 30
MINE_SHOWN = 30


def games_open() -> QuerySet[WinterGame]:
    """Games waiting for people, newest first, with how many seats are still open."""
    return (
        WinterGame.objects.filter(status=WinterGame.Status.OPEN)
        .annotate(
            seats_open=Count("seats", filter=Q(seats__user__isnull=True, seats__bot_level="")),
            seats_all=Count("seats"),
        )
        .select_related("created_by")
        .order_by("-created_at")[:OPEN_SHOWN]
    )


def games_of(user: User) -> QuerySet[WinterGame]:
    """The player's games, running first, then the newest."""
    return WinterGame.objects.filter(seats__user=user).order_by("status", "-created_at")[
        :MINE_SHOWN
    ]
