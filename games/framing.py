"""What made a game, as its page shows it (a tournament's deal): the apps above say.

The games app imports none of them: a game's page sends ``game_framing`` and an app that
made the game answers with a ``GameFrame`` (``tournaments`` for its deals); every other
game is framed by nobody and keeps its own title and Play again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.dispatch import Signal

from games.models import Game

game_framing = Signal()
"""Sent with ``sender=Game`` and ``game`` when a game's page is drawn. A receiver returns a
``GameFrame`` for a game its app made, else None. Connect in ``AppConfig.ready``."""

games_titling = Signal()
"""Sent with ``sender=Game`` and ``games`` (a list) when a list of games is drawn. A receiver
returns ``{game pk: title}`` for the games its app made, the title its ``GameFrame`` has,
read in a few queries however many games. Connect in ``AppConfig.ready``."""


@dataclass(frozen=True)
class GameFrame:
    """A game's title and way back, and what its finished page offers next."""

    title: str
    back_url: str
    back_label: str
    # After the end: what comes next, as a POST form (``next_post``) or a link.
    next_label: str = ""
    next_url: str = ""
    next_post: bool = False
    # A fragment the finished page loads and keeps fresh: a live tournament's next deal.
    follow_url: str = ""


def frame_of(game: Game) -> GameFrame | None:
    """The frame an app gives ``game``, or None for a game of its own."""
    for _receiver, frame in game_framing.send(sender=Game, game=game):
        if isinstance(frame, GameFrame):
            return frame
    return None


def titles_of(games: Iterable[Game]) -> dict[int, str]:
    """Each game's title by pk, as its own page gives it: its frame's title (``frame_of``),
    else the game's own name. For lists: the apps answer for all the games at once."""
    games = list(games)
    titles = {game.pk: str(game) for game in games}
    for _receiver, found in games_titling.send(sender=Game, games=games):
        if isinstance(found, dict):
            titles.update(found)
    return titles
