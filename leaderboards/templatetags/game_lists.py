"""Every game in the shared lists drawn by lower apps (My games, the lobby).

``games``' templates load this library by name: the template, not ``games``' code, meets
the Winter games (``leaderboards.gamelists``), so the layers stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.translation import gettext as _

from accounts.models import User
from leaderboards import gamelists
from wintergames.models import WinterSeat

register = template.Library()


@register.simple_tag
def game_kind(value: object) -> gamelists.GameKind:
    """The game filter of an address (``request.GET.game``): limes, winter or "" (all)."""
    return gamelists.game_kind(value)


@register.simple_tag
def winter_games_of(user: User, page: object = None) -> gamelists.WinterLists:
    """The player's own Winter games (those hidden too: theirs), in play and one page of
    the finished (``page`` as read from the address: the first for anything but a number)."""
    return gamelists.winter_games_of(user, gamelists.page_number(page), with_hidden=True)


@register.simple_tag
def winter_lobby() -> gamelists.WinterLobby:
    """Winter games waiting for players, and their signature for the lobby's poll."""
    return gamelists.winter_lobby()


@register.filter
def winter_players(seats: Iterable[WinterSeat]) -> str:
    """The seats of a Winter game as one line: names, computers by level, open seats, and
    each finished player's place ("ana (1.), computer (strong) (2.)")."""
    shown = []
    for seat in seats:
        if seat.user is not None:
            name = seat.user.display_name
        elif seat.bot_level:
            name = _("computer (%(level)s)") % {"level": seat.get_bot_level_display()}
        else:
            name = _("open seat")
        shown.append(f"{name} ({seat.place}.)" if seat.place else name)
    return ", ".join(shown) if shown else _("solo")
