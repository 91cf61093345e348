"""The admin site: one "Accounts" section for everything about players, signed into
through the site's own sign-in.

Django's groups (the Moderators group) and allauth's email addresses would otherwise
sit in sections of their own, one of them also called "Accounts".
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.core.exceptions import PermissionDenied
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
    QueryDict,
)
from django.http.response import HttpResponseBase
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _

_View = TypeVar("_View", bound=Callable[..., HttpResponseBase])

#: Apps whose models the admin lists under the ``accounts`` app.
MERGED_INTO_ACCOUNTS = ("auth", "account")

# The date hierarchy's parts, and the values Python's dates (and the month or year after,
# which the admin computes for the range) can hold.
_DATE_PARTS = {"year": (1, datetime.MAXYEAR - 1), "month": (1, 12), "day": (1, 31)}
_DATE_PART = re.compile(r"^(?P<field>.+)__(?P<part>year|month|day)$")
_ASCII_NUMBER = re.compile(r"^[0-9]{1,5}$")


def hostile_filter(query: QueryDict) -> str | None:
    """Why an admin list's filters cannot be run (a NUL byte, an impossible date), or None.

    The database refuses a NUL byte in text, and Python a date outside its years: either
    would be a 500 deep in the list's query rather than a 400 here.
    """
    dates: dict[str, dict[str, int]] = {}
    for key, values in query.lists():
        if "\x00" in key or any("\x00" in value for value in values):
            return _("A filter holds a NUL byte.")
        match = _DATE_PART.match(key)
        if match is None:
            continue
        value = values[-1]
        low, high = _DATE_PARTS[match["part"]]
        if not _ASCII_NUMBER.match(value) or not low <= int(value) <= high:
            return _("That date does not exist.")
        dates.setdefault(match["field"], {})[match["part"]] = int(value)
    for parts in dates.values():
        try:
            datetime.date(parts.get("year", 2000), parts.get("month", 1), parts.get("day", 1))
        except ValueError:
            return _("That date does not exist.")
    return None


class LimesAdminSite(admin.AdminSite):
    def admin_view(self, view: _View, cacheable: bool = False) -> _View:
        """Every admin page, list filters checked first (see ``hostile_filter``)."""
        wrapped = super().admin_view(view, cacheable)

        @wraps(wrapped)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            refusal = hostile_filter(request.GET)
            if refusal is not None:
                return HttpResponseBadRequest(refusal, content_type="text/plain; charset=utf-8")
            return wrapped(request, *args, **kwargs)

        return cast(_View, checked)

    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Send everyone to the site's sign-in (allauth: second factor, throttles).

        The admin's own form would take the password alone, unthrottled, even from staff
        who set up a second factor.
        """
        target = request.GET.get(REDIRECT_FIELD_NAME, "")
        if not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            target = reverse("admin:index")
        if request.user.is_authenticated:
            if self.has_permission(request):
                return HttpResponseRedirect(target)
            # Signed in, but not staff: the sign-in page would only send them back here.
            raise PermissionDenied
        query = urlencode({REDIRECT_FIELD_NAME: target})
        return HttpResponseRedirect(f"{resolve_url(settings.LOGIN_URL)}?{query}")

    def get_app_list(
        self, request: HttpRequest, app_label: str | None = None
    ) -> list[dict[str, Any]]:
        apps = super().get_app_list(request, app_label)
        accounts = next((app for app in apps if app["app_label"] == "accounts"), None)
        if accounts is None:
            return apps
        kept = []
        for app in apps:
            if app["app_label"] in MERGED_INTO_ACCOUNTS:
                accounts["models"].extend(app["models"])
            else:
                kept.append(app)
        accounts["models"].sort(key=lambda model: str(model["name"]))
        return kept


class LimesAdminConfig(AdminConfig):
    default_site = "limes_site.admin.LimesAdminSite"

    def ready(self) -> None:
        super().ready()
        # The site package's one app config: it registers the check of the cache's Django
        # (which otherwise loads with the first use of the cache).
        from limes_site import cache  # noqa: F401
