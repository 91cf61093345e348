"""The address the site is served on, for links that leave it (emails).

``LIMES_SITE_URL`` when set (production should set it). Otherwise the scheme and host of
the request being answered, so that in development an email points at the address the
developer actually uses; a command run outside any request falls back to
``http://localhost:8000``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse

FALLBACK = "http://localhost:8000"
_request_origin: ContextVar[str | None] = ContextVar("request_origin", default=None)


def site_url() -> str:
    """The site's origin without a trailing slash, e.g. ``https://limes.example.org``."""
    configured: str = getattr(settings, "LIMES_SITE_URL", "")
    return configured or _request_origin.get() or FALLBACK


class SiteUrlMiddleware:
    """Remember the request's origin while it is answered (a context variable, so
    threads and async tasks each see their own)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _request_origin.set(f"{request.scheme}://{request.get_host()}")
        try:
            return self.get_response(request)
        finally:
            _request_origin.reset(token)
