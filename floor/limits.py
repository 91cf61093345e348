"""How many games one person may hold at once: the caps that keep one client from filling
a lobby with its open games, or the computers' queue (``floor.taskqueue.COMPUTERS``, one
for both games) with its computers' turns.

Each game counts its own games (a person may hold the caps in Limes and in Winter); the
counts are made under the person's row lock (``lock_person``), so that two requests at
once cannot both take the last place.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ActionRefused

#: Games one person may have waiting for players: enough for anyone, and no flood of the
#: lobby (it lists the newest).
MAX_OPEN_GAMES = 3
#: Games with computer players one person may have waiting or in play: each keeps the
#: computers' worker busy, and forty of them at once held everyone else's computers back.
MAX_COMPUTER_GAMES = 3


def lock_person(user: User) -> None:
    """Lock ``user``'s row until the transaction ends: their counts below stay exact."""
    User.objects.select_for_update().filter(pk=user.pk).first()


def ensure_open_games_room(waiting: int) -> None:
    """Refuse one more game waiting for players to a person who has ``waiting`` already."""
    if waiting >= MAX_OPEN_GAMES:
        raise ActionRefused(
            _("You have %d games waiting for players: start or cancel one first.") % waiting,
            status=409,
        )


def ensure_computer_games_room(count: int) -> None:
    """Refuse one more game with computer players to a person who has ``count`` already."""
    if count >= MAX_COMPUTER_GAMES:
        raise ActionRefused(
            _("You have %d games with computer players: finish or cancel one first.") % count,
            status=409,
        )
