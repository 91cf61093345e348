"""Social things on pages drawn by lower apps: a profile's relation, My games' unread chat.

The pages load this library by name: the template, not the lower app's code, meets
``social``, so the layers stay as they are (as ``leaderboards.templatetags.ratings``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.urls import reverse

from accounts.models import User
from games.models import Game
from social.models import GameKind
from social.selectors import Relation, chat_unread_counts, relation
from wintergames.models import WinterGame, WinterSeat

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


@register.simple_tag(takes_context=True)
def winter_chat_unread(context: dict[str, Any], games: Iterable[Any]) -> dict[int, int]:
    """``chat_unread`` for a list of Winter games (or of rows with a ``game``, as My games'
    lists): ``{game id: count}``, in one query."""
    viewer = context["request"].user
    if not isinstance(viewer, User) or not viewer.is_authenticated:
        return {}
    ids = [(row if isinstance(row, WinterGame) else row.game).pk for row in games]
    return chat_unread_counts(viewer, ids, kind=GameKind.WINTER)


@register.simple_tag
def chat_url_of(game: Game | WinterGame) -> str:
    """The address of the game's chat panel if the game may have a chat, else "".

    A Limes page costs no query for it; a Winter page one (a table of people, not one
    person against the computer). Who may read it is the panel's own request to decide.
    """
    if isinstance(game, WinterGame):
        seats = WinterSeat.objects.filter(game=game)
        people = seats.exclude(user__isnull=True, bot_level__gt="").count()
        return reverse("social:winter_chat", kwargs={"pk": game.pk}) if people >= 2 else ""
    if game.mode == Game.Mode.MULTI and not game.daily:
        return reverse("social:chat", kwargs={"pk": game.pk})
    return ""


@register.filter
def game_page(game: Game | WinterGame) -> str:
    """The page of a game of either kind."""
    name = "winter:detail" if isinstance(game, WinterGame) else "games:detail"
    return reverse(name, kwargs={"pk": game.pk})


@register.filter
def unread_in(counts: dict[int, int], game: Game | WinterGame) -> int:
    """The game's count from ``chat_unread`` (0 if none)."""
    return counts.get(game.pk, 0)
