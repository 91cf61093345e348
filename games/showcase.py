"""The front page's finished landscape, drawn once and kept in the shared cache.

The anonymous front page is the page most visitors see first and most often; drawing the
showcase means a query over the solo results, a replay of the game's moves and sixteen
cards of markup. It changes rarely, so the drawn figure is kept per language for
``SECONDS`` in the shared cache (every app server sees the same one). A moderator's action
and a deleted account forget it at once (``showcase_forget_on_commit``, a receiver
connected in ``games/apps.py`` and ``moderation/apps.py``); a better game or a player's
own new name shows within ``SECONDS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games import rebuild, selectors
from games.boardview import landscape_view

SECONDS = 300


@dataclass(frozen=True, slots=True)
class Showcase:
    game_id: int
    figure: SafeString


def _key(language: str) -> str:
    return f"games:showcase:{language}"


def showcase() -> Showcase | None:
    """The showcase game's id and its drawn figure, or ``None`` when there is none yet."""
    key = _key(get_language())
    cached = cache.get(key)
    if cached is None:
        cached = _draw() or ()
        cache.set(key, cached, SECONDS)
    if not cached:
        return None
    game_id, figure = cached
    # Drawn by our own templates (autoescaped) before it was cached.
    return Showcase(game_id, mark_safe(figure))


def _draw() -> tuple[int, str] | None:
    game = selectors.showcase_game()
    if game is None:
        return None
    state = rebuild.rules_game(game)
    (board,) = state.boards.values()
    context = {"game": game, "board": landscape_view(board), "score": board.landscape.score()}
    figure = render_to_string("games/_showcase.html", {"showcase": context})
    return game.pk, figure


def showcase_forget() -> None:
    """Draw the showcase afresh on the next visit (a game or a player was hidden or renamed)."""
    cache.delete_many([_key(code) for code, _name in settings.LANGUAGES])


def showcase_forget_on_commit(**kwargs: object) -> None:
    """A receiver: the showcase is drawn afresh once the sender's transaction commits (a
    deleted account, a moderator's action)."""
    transaction.on_commit(showcase_forget)
