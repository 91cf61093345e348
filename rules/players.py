"""Computer players. The reference player calibrates the deck; it is deliberately simple."""

from __future__ import annotations

from rules.board import Board
from rules.evaluation import value_turns
from rules.model import Card, Turn, Variants


def reference_turn(board: Board, card: Card, variants: Variants = Variants()) -> Turn:
    """The reference player's turn: one-ply greedy on the score preview.

    Every legal turn is scored as the landscape would then stand; the best wins. Ties go
    to the first in a fixed order: placements by position then rotation, and for each,
    doing nothing before placing a worker before moving one (``Board.iter_turns`` order).
    Deterministic: the same board and card always give the same turn.
    """
    best: Turn | None = None
    best_total = -1.0
    for total, turn in value_turns(board, card, variants):
        if total > best_total:
            best, best_total = turn, total
    assert best is not None  # a legal placement always exists (docs/rules.md: the 4x4 bound)
    return best
