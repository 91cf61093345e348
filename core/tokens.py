"""The tokens a page gives its polls and streams, in one scheme.

A poll that finds nothing new must not load the session, yet must not tell anyone else
that the thing polled exists or how far it is. So the view that draws the page, after
its permission check, mints a token from what is polled and the browser's session
cookie; the poll checks it without a query. A token is an HMAC of the site's secret
(``salted_hmac``, salted by its scope) over the first subject, the session cookie and
the other subjects, joined by ``:``, its first 32 hexadecimal digits: a page drawn for
one session, or for one game, is worth nothing for another.
"""

from __future__ import annotations

import enum

from django.conf import settings
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare, salted_hmac


class Scope(enum.StrEnum):
    """What a token lets its page poll (the HMAC's salt: a token of one is none of another)."""

    GAME = "games.poll"
    """A game's board poll and stream: subject the game."""
    INBOX = "social.inbox"
    """A signed-in player's challenge stream and poll: subject the player."""
    CHAT = "social.chat"
    """A game's chat panel: subjects the game, then the reader."""
    WINTER_GAME = "wintergames.poll"
    """A Winter game's board poll and stream: subject the game."""
    WINTER_CHAT = "social.winter_chat"
    """A Winter game's chat panel: subjects the game, then the reader."""


def session_cookie(request: HttpRequest) -> str:
    """The browser's session cookie as it came ("" without one): read, never loaded."""
    return request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")


def mint(scope: Scope, session: str, subject: int, *others: int) -> str:
    """The token of ``scope`` for ``subject`` (and ``others``) in the session ``session``."""
    value = ":".join([str(subject), session, *map(str, others)])
    return salted_hmac(scope.value, value).hexdigest()[:32]


def is_valid(given: str, scope: Scope, session: str, subject: int, *others: int) -> bool:
    """Whether ``given`` is the token ``mint`` gives for these (compared in constant time).

    A cookie with a ``:`` is no session Django makes, and would let the text signed for
    one set of subjects read as another's ("7:s:3" is game 7 in session "s" with reader 3,
    or game 7 in session "s:3"): it validates nothing.
    """
    if ":" in session:
        return False
    return constant_time_compare(given, mint(scope, session, subject, *others))


def poll_token(game_id: int, session: str) -> str:
    """What a game page gives its polls and its stream (``Scope.GAME``)."""
    return mint(Scope.GAME, session, game_id)


def inbox_token(user_id: int, session: str) -> str:
    """What a signed-in player's pages give their challenge stream and poll."""
    return mint(Scope.INBOX, session, user_id)


def chat_token(game_id: int, session: str, user_id: int) -> str:
    """What a game's chat panel gives its polls: whose panel, and that it may read."""
    return mint(Scope.CHAT, session, game_id, user_id)


def inbox_query(request: HttpRequest, user_id: int) -> str:
    """The query string of the player's challenge stream and poll (``u`` and ``t``)."""
    return f"u={user_id}&t={inbox_token(user_id, session_cookie(request))}"


def inbox_user(request: HttpRequest) -> int | None:
    """The player whose pages ask (``u``), if the token ``t`` is this session's for them."""
    raw = request.GET.get("u", "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
        return None
    user_id = int(raw)
    given = request.GET.get("t", "")
    return user_id if is_valid(given, Scope.INBOX, session_cookie(request), user_id) else None
