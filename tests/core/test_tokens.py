"""The tokens a page gives its polls: one scheme, worth nothing for another thing polled."""

from __future__ import annotations

from django.utils.crypto import salted_hmac

from core import tokens


def test_a_token_is_worth_nothing_for_another_game_session_or_scope() -> None:
    token = tokens.poll_token(7, "session-a")
    assert tokens.is_valid(token, tokens.Scope.GAME, "session-a", 7)
    assert not tokens.is_valid(token, tokens.Scope.GAME, "session-a", 8)
    assert not tokens.is_valid(token, tokens.Scope.GAME, "session-b", 7)
    assert not tokens.is_valid(token, tokens.Scope.INBOX, "session-a", 7)
    assert not tokens.is_valid("", tokens.Scope.GAME, "session-a", 7)


def test_the_chat_token_names_its_reader() -> None:
    token = tokens.chat_token(7, "session-a", 3)
    assert tokens.is_valid(token, tokens.Scope.CHAT, "session-a", 7, 3)
    assert not tokens.is_valid(token, tokens.Scope.CHAT, "session-a", 7, 4)


def test_pages_drawn_before_the_move_to_core_keep_polling() -> None:
    # The tokens of pages open while the site is updated: the same digits as before.
    assert tokens.poll_token(7, "s") == salted_hmac("games.poll", "7:s").hexdigest()[:32]
    assert tokens.inbox_token(3, "s") == salted_hmac("social.inbox", "3:s").hexdigest()[:32]
    assert tokens.chat_token(7, "s", 3) == salted_hmac("social.chat", "7:s:3").hexdigest()[:32]


def test_a_cookie_with_a_colon_forges_no_token_of_another_kind() -> None:
    # "7:s:3" signed for a chat reader 3 in session "s" would read as session "s:3".
    token = tokens.mint(tokens.Scope.CHAT, "s", 7, 3)
    assert tokens.is_valid(token, tokens.Scope.CHAT, "s", 7, 3)
    assert not tokens.is_valid(
        tokens.mint(tokens.Scope.GAME, "s:3", 7), tokens.Scope.GAME, "s:3", 7
    )
    # A Winter game's token is of a scope of its own: no Limes game's of that number.
    winter = tokens.mint(tokens.Scope.WINTER_GAME, "s", 7)
    assert not tokens.is_valid(winter, tokens.Scope.GAME, "s", 7)
    assert tokens.is_valid(winter, tokens.Scope.WINTER_GAME, "s", 7)
