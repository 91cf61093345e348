"""Reads about players shared by several apps."""

from __future__ import annotations

from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from accounts.models import User


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
