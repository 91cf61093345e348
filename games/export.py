"""A player's data as one zip: their profile as JSON and each of their games as a record.

Built by the task worker (``services.data_export_build``), never in a request: a record
costs a few milliseconds, and a player with thousands of games would hold an app server
for seconds each time they asked. Games are read a batch at a time.
"""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from collections.abc import Callable
from typing import Any

import rules
from accounts.models import User
from accounts.selectors import notification_preferences
from games.models import Game, Move
from games.rebuild import game_moves, rules_game

#: How long a zip stays to be downloaded; how often a player may ask for a new one; after
#: how long one still in the making is taken for lost (its task failed for good).
KEEP = datetime.timedelta(days=2)
INTERVAL = datetime.timedelta(hours=1)
STALE = datetime.timedelta(hours=1)

#: What apps above this one add to the export: each callable gives, for a player, the
#: members to write as ``(name, JSON-ready value)``; their ``AppConfig.ready`` appends it.
export_sections: list[Callable[[User], list[tuple[str, Any]]]] = []


def profile_data(user: User) -> dict[str, Any]:
    """What the account holds about the player, as JSON-ready values."""
    return {
        "username": user.username,
        "email": user.email,
        "date_joined": user.date_joined.isoformat(),
        "bio": user.bio,
        "notifications": {
            f"{event} {channel}": on
            for (event, channel), on in notification_preferences(user).items()
        },
    }


def game_record_for(game: Game) -> dict[str, Any] | None:
    """The game's ``limes-game/1`` record as far as its player may know it; None if empty.

    A multiplayer game in play stops at its last complete round: the others' choices of
    the round in play stay hidden until it ends, here as on the game page.
    """
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
        return None
    seats = list(game.seats.select_related("user"))
    moves: list[Move] = game_moves(game)
    if game.mode == Game.Mode.MULTI and game.is_active:
        moves = [move for move in moves if move.round < game.round]
    return rules.game_to_record(rules_game(game, seats, moves))


def build_archive(
    user: User, *, progress: Callable[[int], None] | None = None, batch: int = 200
) -> bytes:
    """The bytes of the player's zip; ``progress`` is told the games written, a batch at a
    time."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("profile.json", json.dumps(profile_data(user), indent=1))
        for section in export_sections:
            for name, value in section(user):
                archive.writestr(name, json.dumps(value, indent=1))
        games = Game.objects.filter(seats__user=user).order_by("pk")
        for done, game in enumerate(games.iterator(chunk_size=batch), start=1):
            record = game_record_for(game)
            if record is not None:
                archive.writestr(f"games/limes-game-{game.pk}.json", json.dumps(record, indent=1))
            if progress is not None and done % batch == 0:
                progress(done)
    return out.getvalue()
