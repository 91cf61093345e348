from __future__ import annotations

import re
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.mfa.adapter import DefaultMFAAdapter
from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.models import User

DELETED_USERNAME_PREFIX = "deleted-"
# Where a ban's reason and end wait, after the sign-out, for the page that explains it.
BAN_SESSION_KEY = "moderation_ban"

# Digits that stand in for letters in names like "h1tl3r".
_LOOKALIKES = str.maketrans("013457@$", "oieastas")


def normalise_for_words(text: str) -> str:
    """``text`` lowercased, look-alike digits read as letters, everything but letters dropped.

    >>> normalise_for_words("B-a_D.w0rd 2")
    'badword'
    """
    return re.sub(r"[^a-z]", "", text.lower().translate(_LOOKALIKES))


def forbidden_word_in(username: str) -> str | None:
    """The first word of ``LIMES_FORBIDDEN_USERNAME_WORDS`` the name contains, if any."""
    plain = normalise_for_words(username)
    for word in settings.LIMES_FORBIDDEN_USERNAME_WORDS:
        if normalise_for_words(word) and normalise_for_words(word) in plain:
            return str(word)
    return None


# allauth ships no types, so its base class is Any to the type checker.
class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    """allauth hooks for Limes Online."""

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # Failed sign-ins are counted per account *and* address: someone guessing from one
        # address locks only themselves out of it, never the player from their own.
        account = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{account}:{self.get_client_ip(request)}"

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """Refuse reserved and offensive names, then allauth's checks."""
        if username.lower().startswith(DELETED_USERNAME_PREFIX):
            raise self.validation_error("username_blacklisted")
        if forbidden_word_in(username):
            raise ValidationError(
                _("This username contains a word that is not allowed here. Please choose another."),
                code="username_forbidden_word",
            )
        cleaned: str = super().clean_username(username, shallow=shallow)
        return cleaned

    def save_user(
        self, request: HttpRequest, user: AbstractBaseUser, form: Form, commit: bool = True
    ) -> AbstractBaseUser:
        """Keep the language the player signed up in, for their emails and notifications."""
        language = translation.get_language()
        if language in dict(settings.LANGUAGES):
            user.language = language  # type: ignore[attr-defined]
        return super().save_user(request, user, form, commit=commit)  # type: ignore[no-any-return]

    def pre_login(
        self, request: HttpRequest, user: AbstractBaseUser, **kwargs: Any
    ) -> HttpResponse | None:
        """Turn a banned player away with the page that says why and until when."""
        if isinstance(user, User) and user.is_banned:
            remember_ban(request, user)
            return redirect("moderation:banned")
        response: HttpResponse | None = super().pre_login(request, user, **kwargs)
        return response


class MFAAdapter(DefaultMFAAdapter):  # type: ignore[misc]
    """allauth.mfa hooks: where staff need a second factor, they cannot switch it off."""

    def can_delete_authenticator(self, authenticator: Authenticator) -> bool:
        user = authenticator.user
        if not (settings.LIMES_STAFF_NEED_MFA and user.is_staff):
            return True
        # Another way in (an app or a passkey) may stay; recovery codes alone do not count.
        others = Authenticator.objects.filter(user=user).exclude(pk=authenticator.pk)
        return bool(others.exclude(type=Authenticator.Type.RECOVERY_CODES).exists())


def ban_memo(user: User) -> dict[str, str | None]:
    """What the banned page shows of a ban: its reason and its end."""
    return {
        "reason": user.ban_reason,
        "until": user.banned_until.isoformat() if user.banned_until else None,
    }


def remember_ban(request: HttpRequest, user: User) -> None:
    """Sign the banned player out, keeping the ban's reason and end for the page that follows."""
    logout(request)
    # After logout, which flushes the session.
    request.session[BAN_SESSION_KEY] = ban_memo(user)


#: A session ended by a ban leaves, under its old key, what its browser is to be told.
FAREWELL_PREFIX = "session-farewell:"
FAREWELL_SECONDS = 30 * 24 * 3600


def farewell_take(request: HttpRequest) -> dict[str, str | None] | None:
    """The ban memo left for this browser's ended session (``user_sessions_end``), once."""
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if not key or len(key) > 64 or not key.isalnum():
        return None
    memo = cache.get(FAREWELL_PREFIX + key)
    if memo is None:
        return None
    cache.delete(FAREWELL_PREFIX + key)
    return memo if isinstance(memo, dict) else None
