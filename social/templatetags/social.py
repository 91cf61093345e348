"""Social things on pages drawn by lower apps: a profile's relation, My games' unread chat.

The pages load this library by name: the template, not the lower app's code, meets
``social``, so the layers stay as they are (as ``leaderboards.templatetags.ratings``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from accounts.models import User
from games.models import Game
from social.selectors import Relation, chat_unread_counts, relation

register = template.Library()


@register.simple_tag(takes_context=True)
def relation_to(context: dict[str, Any], other: User) -> Relation | None:
    """How the signed-in player stands to ``other``; None when signed out."""
    viewer = context["request"].user
    if not isinstance(viewer, User) or not viewer.is_authenticated:
        return None
    return relation(viewer, other)


@register.simple_tag(takes_context=True)
def chat_unread(context: dict[str, Any], *lists: Iterable[Any]) -> dict[int, int]:
    """Unread chat messages per game of these lists (of games, or of rows with a
    ``game``), for the signed-in player, counted in one query: ``{game id: count}``."""
    viewer = context["request"].user
    if not isinstance(viewer, User) or not viewer.is_authenticated:
        return {}
    ids = set()
    for rows in lists:
        for row in rows:
            game = row if isinstance(row, Game) else row.game
            if game.mode == Game.Mode.MULTI:
                ids.add(game.pk)
    return chat_unread_counts(viewer, ids)


@register.filter
def unread_in(counts: dict[int, int], game: Game) -> int:
    """The game's count from ``chat_unread`` (0 if none)."""
    return counts.get(game.pk, 0)
