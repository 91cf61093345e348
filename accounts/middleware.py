"""Makes a signed-in player's chosen language win over the browser's."""

from __future__ import annotations

from collections.abc import Callable

from allauth.core.exceptions import ReauthenticationRequired
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from core.polls import is_poll


class PlayerLanguageMiddleware:
    """Activates the language stored on the account, and mirrors it into the cookie.

    The cookie matters for the htmx polls, which never load the session or the user (they
    must cost one query): LocaleMiddleware reads their language from it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        language = getattr(request, "_player_language", None)
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            set_language_cookie(response, language)
        return response

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: tuple[object, ...],
        view_kwargs: dict[str, object],
    ) -> None:
        if is_poll(view_func):
            return
        user = getattr(request, "user", None)
        if isinstance(user, User) and user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
            request._player_language = user.language  # type: ignore[attr-defined]


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """Remember ``language`` in the browser, with Django's cookie settings."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class SignedOutConfirmationMiddleware:
    """Sends a signed-out visitor who posts to a page that asks for the password again
    (allauth's two-factor pages) to sign in, keeping nothing of the request.

    allauth's own answer (``AccountMiddleware``, listed before this one) keeps the whole
    POST in a new session to replay it after the sign-in: a session row for every
    anonymous POST, which anyone could send without end.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        user = getattr(request, "user", None)
        if isinstance(exception, ReauthenticationRequired) and not (
            isinstance(user, User) and user.is_authenticated
        ):
            return redirect_to_login(request.get_full_path(), reverse("account_login"))
        return None
