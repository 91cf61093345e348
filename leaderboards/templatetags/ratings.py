"""Ratings on pages drawn by lower apps: a finished game's seats show what it did to theirs.

Limes' game page (templates/games/game.html) loads this library by name, and Winter's
(templates/wintergames/game.html) includes ``leaderboards/_winter_rating_changes.html``,
which does: the template, not the game's code, meets the leaderboards' rating scale, so
the layers stay as they are.
"""

from __future__ import annotations

from django import template

from games.models import Seat
from leaderboards import gamelists
from leaderboards.rating import display_change, display_rating
from wintergames.models import WinterGame

register = template.Library()


@register.filter
def rating_change(seat: Seat) -> str:
    """The seat's rating change on the shown scale (``+12``, ``-7``, ``±0``); "" if unrated."""
    if seat.rating_before is None or seat.rating_after is None:
        return ""
    return display_change(seat.rating_before, seat.rating_after)


@register.filter
def rating_after(seat: Seat) -> int | None:
    """The seat's rating after the game on the shown scale; None if unrated."""
    return None if seat.rating_after is None else display_rating(seat.rating_after)


@register.simple_tag
def winter_rating_changes(game: WinterGame) -> list[gamelists.WinterRatingShown]:
    """What a finished, rated Winter game did to each person's rating, by place."""
    return gamelists.winter_rating_changes(game)
