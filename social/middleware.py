"""Marks a signed-in player online (``social.presence``) on each request but the polls."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.models import User
from core.polls import is_poll
from social import presence


class PresenceMiddleware:
    """After ``ModerationMiddleware``, which loads the user of every request but a poll's:
    this costs one read of the cache, and no query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: tuple[object, ...],
        view_kwargs: dict[str, object],
    ) -> None:
        if is_poll(view_func):
            # A poll loads no session: it must not load one to say who asks.
            return
        user = getattr(request, "user", None)
        if isinstance(user, User) and user.is_authenticated:
            presence.mark_seen(user.pk)
