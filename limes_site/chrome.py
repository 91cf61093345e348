"""The site chrome every page shares: the menu's badges.

``games_waiting`` (multiplayer games waiting for the signed-in player's move) and
``unread_notifications`` are counted together in one query, and only if a page shows
them. The counts are reads of the apps below; the menu that shows them is the site's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.models import Notification, User
from core import tokens
from floor.internals import CountsById
from games.models import Seat
from games.selectors import seats_waiting
from moderation.selectors import notifications_unread


@dataclass(frozen=True)
class MenuCounts:
    """The numbers on the menu's badges."""

    games_waiting: int
    unread_notifications: int


def menu_counts(*, user: User) -> MenuCounts:
    """Games waiting for the user's move and their unread notifications, in one query."""
    waiting, unread = _menu_counts(user.pk)
    return MenuCounts(waiting, unread)


def _menu_queries(user_id: int) -> tuple[QuerySet[Seat], QuerySet[Notification]]:
    user = User(pk=user_id)
    return seats_waiting(user), notifications_unread(user=user)


# Every page a player sees shows the badges: the two counts are compiled once per process,
# from the selectors' own querysets; each page then only puts in the player's id.
_menu_counts = CountsById(_menu_queries)


def menu(request: HttpRequest) -> dict[str, Any]:
    """A context processor: the menu's badges as callables, so that an htmx fragment
    that does not draw the menu costs no query."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Templates call a callable they are given; cache makes later mentions free.
    counts = cache(lambda: menu_counts(user=user))
    return {
        "games_waiting": lambda: counts().games_waiting,
        "unread_notifications": lambda: counts().unread_notifications,
        # The player's challenge stream and poll (social.streams): a token, no query.
        "challenge_inbox": lambda: tokens.inbox_query(request, user.pk),
    }
