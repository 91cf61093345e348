from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest

from moderation.selectors import menu_counts


def menu(request: HttpRequest) -> dict[str, Any]:
    """The menu's badges: ``games_waiting`` (multiplayer games waiting for the signed-in
    player's move) and ``unread_notifications``.

    Counted together in one query, and only if a page shows them: an htmx fragment that
    does not draw the menu costs no query.
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Templates call a callable they are given; cache makes later mentions free.
    counts = cache(lambda: menu_counts(user=user))
    return {
        "games_waiting": lambda: counts().games_waiting,
        "unread_notifications": lambda: counts().unread_notifications,
    }
