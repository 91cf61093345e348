"""Reads about players shared by several apps."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone


def not_banned(prefix: str = "") -> Q:
    """A filter for users without a ban in force; ``prefix`` reaches them ("user__")."""
    field = f"{prefix}banned_until"
    return Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__lte": timezone.now()})
