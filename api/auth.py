"""Who asks the API: a personal token's player, or a visitor. Never the session cookie."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from ninja.errors import HttpError
from ninja.security import HttpBearer

from accounts.models import User
from api import selectors
from api.services import token_mark_used


class TokenAuth(HttpBearer):
    """A personal token; a banned or deleted player's, or a revoked one, opens nothing."""

    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        found = selectors.token_owner(token)
        if found is None:
            return None
        api_token, user = found
        token_mark_used(token=api_token)
        request.api_token_name = api_token.name  # type: ignore[attr-defined]
        return user


token_auth = TokenAuth()


def viewer(request: HttpRequest) -> User | AnonymousUser:
    """The token's player, or a visitor; a token that opens nothing is refused (401)."""
    if "Authorization" not in request.headers:
        return AnonymousUser()
    user = token_auth(request)
    if not isinstance(user, User):
        raise HttpError(401, "The token is not valid (revoked, mistyped or not a Bearer token).")
    return user
