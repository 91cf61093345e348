"""A player's data as one zip: their profile as JSON and each of their games as a record.

Streamed: games are read a batch at a time and the zip is sent as it is written, so an
account with thousands of games costs no more memory than one with a few.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

import rules
from accounts.models import User
from games.models import Game, Move
from games.rebuild import game_moves, rules_game

#: What apps above this one add to the export: each callable gives, for a player, the
#: members to write as ``(name, JSON-ready value)``; their ``AppConfig.ready`` appends it.
export_sections: list[Callable[[User], list[tuple[str, Any]]]] = []


class _Chunks:
    """A write-only file whose bytes are taken out after each member of the zip."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes, /) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass

    def take(self) -> bytes:
        data, self.parts = b"".join(self.parts), []
        return data


def profile_data(user: User) -> dict[str, Any]:
    """What the account holds about the player, as JSON-ready values."""
    return {
        "username": user.username,
        "email": user.email,
        "date_joined": user.date_joined.isoformat(),
        "bio": user.bio,
        "notify_by_email": user.notify_by_email,
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


def iter_data_export(user: User, *, batch: int = 200) -> Iterator[bytes]:
    """The bytes of the player's zip, a member at a time."""
    out = _Chunks()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("profile.json", json.dumps(profile_data(user), indent=1))
        yield out.take()
        for section in export_sections:
            for name, value in section(user):
                archive.writestr(name, json.dumps(value, indent=1))
            yield out.take()
        games = Game.objects.filter(seats__user=user).order_by("pk")
        for game in games.iterator(chunk_size=batch):
            record = game_record_for(game)
            if record is not None:
                archive.writestr(f"games/limes-game-{game.pk}.json", json.dumps(record, indent=1))
                yield out.take()
    yield out.take()
