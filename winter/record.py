"""The ``winter-game/1`` record (FORMATS.md): a game as JSON and back."""

from __future__ import annotations

from typing import Any

from winter.errors import InvalidInputError
from winter.game import Game, Options, Placement, SetAside, Turn
from winter.tiles import FOLLOWER_PLACES, tile_kind

RECORD_FORMAT = "winter-game/1"


def turn_to_json(turn: Turn) -> dict[str, Any]:
    """One entry of a record's ``turns``."""
    if isinstance(turn, SetAside):
        return {"tile": turn.tile, "set_aside": True}
    return {
        "tile": turn.tile,
        "at": [turn.at[0], turn.at[1]],
        "rotation": turn.rotation,
        "follower": turn.follower,
    }


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def turn_from_json(data: object, number: int = 1) -> Turn:
    """Read one entry of a record's ``turns``; raises InvalidInputError if malformed."""
    where = f"turn {number}"
    if not isinstance(data, dict):
        raise InvalidInputError(f"{where}: not an object")
    if "tile" not in data:
        raise InvalidInputError(f"{where}: the field 'tile' is missing")
    tile = data["tile"]
    if not isinstance(tile, str):
        raise InvalidInputError(f"{where}: 'tile' is not a tile name")
    try:
        tile_kind(tile)
    except InvalidInputError as error:
        raise InvalidInputError(f"{where}: {error}") from None
    if "set_aside" in data:
        if data["set_aside"] is not True:
            raise InvalidInputError(f"{where}: 'set_aside' may only be true")
        return SetAside(tile)
    for name in ("at", "rotation"):
        if name not in data:
            raise InvalidInputError(f"{where}: the field {name!r} is missing")
    at = data["at"]
    if not (isinstance(at, list) and len(at) == 2 and all(_int(v) for v in at)):
        raise InvalidInputError(f"{where}: 'at' is not [row, col] in whole numbers")
    rotation = data["rotation"]
    if not _int(rotation) or rotation % 90:
        raise InvalidInputError(f"{where}: rotation {rotation!r} is not a multiple of 90")
    follower = data.get("follower")
    if follower is not None and follower not in FOLLOWER_PLACES:
        raise InvalidInputError(f"{where}: follower {follower!r} names no place for a follower")
    return Placement(tile, (at[0], at[1]), rotation % 360, follower)


def game_to_record(game: Game) -> dict[str, Any]:
    """The game as a ``winter-game/1`` record."""
    return {
        "format": RECORD_FORMAT,
        "players": list(game.players),
        "farmers": game.options.farmers,
        "turns": [turn_to_json(turn) for turn in game.turns],
    }


def read_record(data: object) -> tuple[list[str], Options, list[Turn]]:
    """The players, options and turns of a record, unchecked against the rules.

    Raises InvalidInputError when the record is malformed."""
    if not isinstance(data, dict):
        raise InvalidInputError("a record is a JSON object")
    for name in ("format", "players", "turns"):
        if name not in data:
            raise InvalidInputError(f"the field {name!r} is missing")
    if data["format"] != RECORD_FORMAT:
        raise InvalidInputError(f"the format is {data['format']!r}, not {RECORD_FORMAT!r}")
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidInputError("'players' is not a list of names")
    farmers = data.get("farmers", True)
    if not isinstance(farmers, bool):
        raise InvalidInputError("'farmers' is not true or false")
    turns = data["turns"]
    if not isinstance(turns, list):
        raise InvalidInputError("'turns' is not a list")
    return (
        players,
        Options(farmers=farmers),
        [turn_from_json(turn, number) for number, turn in enumerate(turns, 1)],
    )


def game_from_record(data: object) -> Game:
    """Replay a record turn by turn.

    Raises InvalidInputError if it is malformed, IllegalMoveError (naming the turn and the
    rule) at the first turn that breaks a rule.
    """
    players, options, turns = read_record(data)
    game = Game(players, options)
    for turn in turns:
        game.play(turn)
    return game
