"""Writes of the open-data app: personal tokens. Keyword-only, one transaction each."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from api.models import ApiToken

TOKEN_PREFIX = "limes_"
# A player needs a handful (a script, a bot, a website); more is a leak waiting to happen.
MAX_TOKENS = 10


@dataclass(frozen=True)
class NewToken:
    """A token just made: ``secret`` is shown to its owner once and never stored."""

    token: ApiToken
    secret: str


def token_digest(secret: str) -> str:
    """The stored form of a token: its SHA-256, hex (tokens are random, so no salt)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def token_create(*, user: User, name: str) -> NewToken:
    """Make a personal token for ``user``; refused to a banned or deleted player, or past
    ``MAX_TOKENS``. Raises ``ValidationError`` for a bad name."""
    # The player's row locked: two tokens made at once still count against the limit.
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.is_banned or user.is_deleted:
        raise PermissionDenied(_("Your account cannot make API tokens."))
    if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
        raise PermissionDenied(
            _("You have %(count)d tokens already: revoke one first.") % {"count": MAX_TOKENS}
        )
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(user=user, name=name.strip(), digest=token_digest(secret), prefix=secret[:12])
    token.full_clean()
    token.save()
    return NewToken(token, secret)


@transaction.atomic
def token_revoke(*, user: User, token_id: int) -> None:
    """Revoke one of ``user``'s tokens; someone else's (or none) raises ``PermissionDenied``."""
    deleted, _rows = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise PermissionDenied(_("No such token."))


def token_mark_used(*, token: ApiToken) -> None:
    """Note when a token was last used, at most once a minute (no write per request)."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


def tokens_delete_on_user_delete(*, user: User, **kwargs: object) -> None:
    """Receiver of ``accounts.signals.user_deleting``: a deleted account's tokens go with it."""
    ApiToken.objects.filter(user=user).delete()
