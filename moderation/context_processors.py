from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest

from moderation.selectors import notifications_unread_count


def notifications(request: HttpRequest) -> dict[str, Any]:
    """``unread_notifications`` for the account menu: counted once, and only if shown."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Templates call a callable they are given; cache makes a second mention free.
    return {"unread_notifications": cache(lambda: notifications_unread_count(user=user))}
