"""Request types for views: what the middleware adds to ``HttpRequest``, typed once.

``HtmxMiddleware`` sets ``request.htmx``; ``login_required`` guarantees a real ``User``.
Annotate a view's request with the class that says what it may rely on (as django-htmx's
``HtmxHttpRequest``), instead of asserting on ``request.user`` inside it.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    """Any request of the site: signed in or not, from htmx or not."""

    htmx: HtmxDetails
    user: User | AnonymousUser


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a ``login_required`` view (or the admin): ``user`` is a real ``User``."""

    user: User


def read_numbers_cookie(request: HttpRequest, name: str) -> list[int]:
    """The numbers a signed cookie keeps for a visitor; none if it is missing or tampered.

    State a visitor builds up without an account lives in such a cookie, not the session,
    so that a POST without cookies (a script's, in a loop) adds no row to the session table.
    """
    # With a default, a missing, expired or badly signed cookie reads as that default.
    raw = request.get_signed_cookie(
        name, default="", salt=name, max_age=settings.SESSION_COOKIE_AGE
    )
    if not raw:
        return []
    try:
        numbers = [int(part) for part in raw.split(",") if part]
    except ValueError:
        return []
    return [n for n in numbers if n > 0]


def write_numbers_cookie(response: HttpResponse, name: str, numbers: list[int]) -> None:
    """Keep ``numbers`` (the caller caps how many) in the signed cookie ``name``."""
    response.set_signed_cookie(
        name,
        ",".join(str(n) for n in numbers),
        salt=name,
        max_age=settings.SESSION_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
