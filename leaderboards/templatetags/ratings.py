"""Ratings on pages drawn by lower apps: a finished game's seats show what it did to theirs.

The game page (templates/games/game.html) loads this library by name: the template, not
games' code, meets the leaderboards' rating scale, so the layers stay as they are.
"""

from __future__ import annotations

from django import template

from games.models import Seat
from leaderboards.rating import display_rating

register = template.Library()


@register.filter
def rating_change(seat: Seat) -> str:
    """The seat's rating change on the shown scale (``+12``, ``-7``, ``±0``); "" if unrated."""
    if seat.rating_before is None or seat.rating_after is None:
        return ""
    change = display_rating(seat.rating_after) - display_rating(seat.rating_before)
    return f"{change:+d}" if change else "±0"


@register.filter
def rating_after(seat: Seat) -> int | None:
    """The seat's rating after the game on the shown scale; None if unrated."""
    return None if seat.rating_after is None else display_rating(seat.rating_after)
