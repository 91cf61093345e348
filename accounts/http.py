"""Request types for views: what the middleware adds to ``HttpRequest``, typed once.

``HtmxMiddleware`` sets ``request.htmx``; ``login_required`` guarantees a real ``User``.
Annotate a view's request with the class that says what it may rely on (as django-htmx's
``HtmxHttpRequest``), instead of asserting on ``request.user`` inside it.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    """Any request of the site: signed in or not, from htmx or not."""

    htmx: HtmxDetails
    user: User | AnonymousUser


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a ``login_required`` view (or the admin): ``user`` is a real ``User``."""

    user: User
