"""Reads for the Winter pages."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from wintergames.models import WinterGame

OPEN_SHOWN = 30
MINE_SHOWN = 30


def games_open() -> QuerySet[WinterGame]:
    """Games waiting for people, newest first, with how many seats are still open.

    Not those a moderator hid, nor those a banned player sits at: nobody could play
    them out.
    """
    return (
        WinterGame.objects.filter(status=WinterGame.Status.OPEN, hidden=False, listed=True)
        .exclude(seats__user__banned_until__gt=timezone.now())
        .annotate(
            seats_open=Count("seats", filter=Q(seats__user__isnull=True, seats__bot_level="")),
            seats_all=Count("seats"),
        )
        .select_related("created_by")
        .order_by("-created_at")[:OPEN_SHOWN]
    )


def games_of(user: User) -> QuerySet[WinterGame]:
    """The player's games, running first, then the newest (hidden ones too: theirs)."""
    return WinterGame.objects.filter(seats__user=user).order_by("status", "-created_at")[
        :MINE_SHOWN
    ]


def games_in_play_of(user: User) -> QuerySet[WinterGame]:
    """The games in play where ``user`` still plays their seat (has not resigned)."""
    return WinterGame.objects.filter(
        status=WinterGame.Status.RUNNING, seats__user=user, seats__resigned=False
    ).order_by("pk")
