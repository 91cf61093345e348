"""Every game in the shared lists drawn by lower apps (My games, the lobby).

``games``' templates load this library by name: the template, not ``games``' code, meets
the Winter games (``leaderboards.gamelists``), so the layers stay as they are.
"""

from __future__ import annotations

from django import template

from accounts.models import User
from leaderboards import gamelists

register = template.Library()


@register.simple_tag
def game_kind(value: object) -> gamelists.GameKind:
    """The game filter of an address (``request.GET.game``): limes, winter or "" (all)."""
    return gamelists.game_kind(value)


@register.simple_tag
def winter_games_of(user: User) -> gamelists.WinterLists:
    """The player's Winter games, in play and finished."""
    return gamelists.winter_games_of(user)


@register.simple_tag
def winter_lobby() -> gamelists.WinterLobby:
    """Winter games waiting for players, and their signature for the lobby's poll."""
    return gamelists.winter_lobby()
