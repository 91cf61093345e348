"""Games named in a list as their own pages name them (``games.framing``).

``{% game_titles running finished as titles %}`` reads the titles of every game listed at
once; ``{{ titles|title_of:game }}`` gives one of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from games.framing import titles_of
from games.models import Game

register = template.Library()


@register.simple_tag
def game_titles(*lists: Iterable[Any]) -> dict[int, str]:
    """The titles of the games of these lists (of games, or of rows with a ``game``):
    ``{game id: title}``, in a few queries however many games."""
    return titles_of(row if isinstance(row, Game) else row.game for rows in lists for row in rows)


@register.filter
def title_of(titles: dict[int, str], game: Game) -> str:
    """The game's title from ``game_titles`` (its own name if it was not listed)."""
    return titles.get(game.pk) or str(game)
