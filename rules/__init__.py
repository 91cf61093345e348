"""The game of Limes: cards, landscapes, legal moves, scoring and whole games.

Pure Python: no Django, no I/O outside ``python -m rules``, no global randomness (pass a
seeded ``random.Random``). One import gives the public API::

    from rules import Game, Landscape, Turn, Placement, PlaceWorker, Variants
"""

from __future__ import annotations

from rules.board import Board, PlacedCard
from rules.bot import (
    BOT_LEVELS,
    BotLevel,
    TurnAssessment,
    assess_turn,
    bot_turn,
    hindsight_best,
    hint_turn,
)
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
    "BOT_LEVELS",
    "DEFAULT_DECK_PATH",
    "MAX_SPAN",
    "RECORD_FORMAT",
    "ROTATIONS",
    "ROUNDS",
    "WORKERS_PER_PLAYER",
    "Board",
    "BotLevel",
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
    "TurnAssessment",
    "Variants",
    "WorkerAction",
    "WorkerScore",
    "Zone",
    "assess_turn",
    "bot_turn",
    "game_from_record",
    "game_to_record",
    "hindsight_best",
    "hint_turn",
    "iter_draft_outcomes",
    "load_deck",
    "rank",
    "reference_turn",
    "solo_rating",
    "turn_from_json",
    "turn_to_json",
]
