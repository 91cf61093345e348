"""Keeps banned players out, holds renamed ones at the choose-a-name page, and keeps staff
without a second factor out of the admin where that is required (production)."""

from __future__ import annotations

from collections.abc import Callable

from allauth.account.authentication import get_authentication_records
from allauth.mfa.utils import is_mfa_enabled
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from accounts.adapter import BAN_SESSION_KEY, farewell_take, remember_ban
from accounts.models import User
from core.polls import is_poll


class ModerationMiddleware:
    """Signs out a banned player on their next request; sends renamed players to rename."""

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
    ) -> HttpResponse | None:
        if is_poll(view_func):
            # A poll that finds nothing new must cost one query: it does not even load the
            # session. It shows nothing but what changed; the next page load meets this.
            return None
        user = getattr(request, "user", None)
        if isinstance(user, User) and user.is_authenticated:
            if user.is_banned:
                remember_ban(request, user)
                return _redirect(request, reverse("moderation:banned"))
            if user.must_rename and not _may_pass_while_renaming(request.path):
                return _redirect(request, reverse("moderation:rename"))
            if (
                user.is_staff
                and settings.LIMES_STAFF_NEED_MFA
                and request.path.startswith(reverse("admin:index"))
            ):
                return _staff_second_factor(request, user)
        elif request.COOKIES.get(settings.SESSION_COOKIE_NAME):
            # A session a ban ended (``user_sessions_end``): its browser is told why, once.
            memo = farewell_take(request)
            if memo is not None:
                request.session[BAN_SESSION_KEY] = memo
                return _redirect(request, reverse("moderation:banned"))
        return None


def _staff_second_factor(request: HttpRequest, user: User) -> HttpResponse | None:
    """The admin bans, hides and renames: only with a second factor, used in this session."""
    if not is_mfa_enabled(user):
        messages.warning(
            request,
            _("Set up two-factor authentication before opening the moderation pages."),
        )
        return _redirect(request, reverse("mfa_index"))
    records = get_authentication_records(request, user)
    if not any(record.get("method") == "mfa" for record in records):
        # Signed in by password alone (before the factor was set up, or by another way in):
        # the code is asked for now, as allauth asks it before a sensitive change.
        query = urlencode({REDIRECT_FIELD_NAME: request.get_full_path()})
        return _redirect(request, f"{reverse('mfa_reauthenticate')}?{query}")
    return None


def _may_pass_while_renaming(path: str) -> bool:
    allowed = (
        reverse("moderation:rename"),
        reverse("account_logout"),
        reverse("moderation:banned"),
        reverse("set_language"),
    )
    return path in allowed or path.startswith("/static/")


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    # An htmx request would swap the page into a fragment; make the browser go there instead.
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return redirect(url)
