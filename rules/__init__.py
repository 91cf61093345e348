"""The game of Limes: cards, landscapes, legal moves, scoring and whole games.

Pure Python: no Django, no I/O outside ``python -m rules``, no global randomness (pass a
seeded ``random.Random``). One import gives the public API::

    from rules import Game, Landscape, Turn, Placement, PlaceWorker, Variants

The computer players by level, hints, turn assessment and the hindsight par are
``rules.bot``, which this import does not load (nor their learned weights): ``import
rules.bot`` where a bot plays, as ``import chess`` leaves ``chess.engine`` out. The reference
player (``reference_turn``), the deck's yardstick, is here.
"""

from __future__ import annotations

from rules.board import Board, PlacedCard
from rules.deck import DEFAULT_DECK_PATH, Deck, load_deck
from rules.drafting import Ending, PlacementOutcomes, iter_draft_outcomes
from rules.errors import IllegalMoveError, InvalidInputError, RulesError
from rules.game import Game, Outcome, Standing, rank
from rules.landscape import Landscape, Score, WorkerScore
from rules.model import (
    MAX_SPAN,
    ROTATIONS,
    ROUNDS,
    WORKERS_PER_PLAYER,
    Card,
    MoveWorker,
    Placement,
    PlaceWorker,
    Point,
    Profession,
    Terrain,
    Turn,
    Variants,
    WorkerAction,
    Zone,
)
from rules.players import reference_turn
from rules.record import (
    RECORD_FORMAT,
    game_from_record,
    game_to_record,
    turn_from_json,
    turn_to_json,
)
from rules.solo import SoloRating, solo_rating

__all__ = [
    "DEFAULT_DECK_PATH",
    "MAX_SPAN",
    "RECORD_FORMAT",
    "ROTATIONS",
    "ROUNDS",
    "WORKERS_PER_PLAYER",
    "Board",
    "Card",
    "Deck",
    "Ending",
    "Game",
    "IllegalMoveError",
    "InvalidInputError",
    "Landscape",
    "MoveWorker",
    "Outcome",
    "PlaceWorker",
    "PlacedCard",
    "Placement",
    "PlacementOutcomes",
    "Point",
    "Profession",
    "RulesError",
    "Score",
    "SoloRating",
    "Standing",
    "Terrain",
    "Turn",
    "Variants",
    "WorkerAction",
    "WorkerScore",
    "Zone",
    "game_from_record",
    "game_to_record",
    "iter_draft_outcomes",
    "load_deck",
    "rank",
    "reference_turn",
    "solo_rating",
    "turn_from_json",
    "turn_to_json",
]
