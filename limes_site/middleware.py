"""Requests the site turns away at the door, before any other middleware reads them."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.translation import gettext as _

FORM = "application/x-www-form-urlencoded"


class RejectUndecodableFormsMiddleware:
    """Answers 400 to a form posted in another charset than UTF-8.

    Django refuses to read such a body (``BadRequest``), but its own error pages check the
    CSRF token, which reads the body again: the refusal became a 500.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The same test as Django's: a charset named in the header that is not "utf-8".
        encoding = request.encoding
        if request.content_type == FORM and encoding is not None and encoding.lower() != "utf-8":
            return HttpResponseBadRequest(
                _("Forms must be sent as UTF-8."), content_type="text/plain; charset=utf-8"
            )
        return self.get_response(request)
