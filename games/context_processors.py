"""Values every page's menu shows."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games import selectors


def my_games(request: HttpRequest) -> dict[str, object]:
    """``games_waiting``: multiplayer games waiting for the signed-in player's move.

    Lazy, so a page that does not show the menu (an htmx fragment) costs no query.
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"games_waiting": SimpleLazyObject(lambda: selectors.waiting_count(user))}
