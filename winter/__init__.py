"""Carcassonne: Winter Edition: tiles, the board, legal moves, scoring and whole games.

Pure Python: no Django, no I/O outside ``python -m winter``, no global randomness (a deal
is ``deal(seed)``). One import gives the public API::

    from winter import Game, Placement, SetAside, deal, game_from_record

The computer players are ``winter.bot``, which this import does not load.
"""

from __future__ import annotations

from winter.errors import IllegalMoveError, InvalidInputError, WinterError
from winter.game import (
    FOLLOWERS_PER_PLAYER,
    Feature,
    Follower,
    Game,
    LegalMove,
    Options,
    Placement,
    Point,
    Scoring,
    SetAside,
    Turn,
    deal,
    rank,
)
from winter.record import (
    RECORD_FORMAT,
    game_from_record,
    game_to_record,
    read_record,
    turn_from_json,
    turn_to_json,
)
from winter.tiles import (
    FOLLOWER_PLACES,
    HALF_SIDES,
    ROTATIONS,
    SIDES,
    START_TILE,
    TILE_KINDS,
    TILE_NAMES,
    FeatureKind,
    Orientation,
    Segment,
    Terrain,
    TileKind,
    bag_counts,
    distinct_rotations,
    orientation,
    tile_kind,
)

__all__ = [
    "FOLLOWERS_PER_PLAYER",
    "FOLLOWER_PLACES",
    "HALF_SIDES",
    "RECORD_FORMAT",
    "ROTATIONS",
    "SIDES",
    "START_TILE",
    "TILE_KINDS",
    "TILE_NAMES",
    "Feature",
    "FeatureKind",
    "Follower",
    "Game",
    "IllegalMoveError",
    "InvalidInputError",
    "LegalMove",
    "Options",
    "Orientation",
    "Placement",
    "Point",
    "Scoring",
    "Segment",
    "SetAside",
    "Terrain",
    "TileKind",
    "Turn",
    "WinterError",
    "bag_counts",
    "deal",
    "distinct_rotations",
    "game_from_record",
    "game_to_record",
    "orientation",
    "rank",
    "read_record",
    "tile_kind",
    "turn_from_json",
    "turn_to_json",
]
