"""Computer players. The reference player calibrates the deck; it is deliberately simple."""

from __future__ import annotations

from rules.board import Board
from rules.model import Card, MoveWorker, PlaceWorker, Turn, Variants


def reference_turn(board: Board, card: Card, variants: Variants = Variants()) -> Turn:
    """The reference player's turn: one-ply greedy on the score preview.

    Every legal turn is scored as the landscape would then stand; the best wins. Ties go
    to the first in a fixed order: placements by position then rotation, and for each,
    doing nothing before placing a worker before moving one (``Board.iter_turns`` order).
    Deterministic: the same board and card always give the same turn.
    """
    best: Turn | None = None
    best_total = -1
    for placement in board.legal_placements(variants):
        after = board.place(card, placement, variants)
        landscape = after.landscape
        workers = list(after.workers)
        for action in after.legal_worker_actions(variants):
            if action is None:
                total = landscape.total_with(workers)
            elif isinstance(action, PlaceWorker):
                total = landscape.total_with([*workers, action.zone])
            else:
                assert isinstance(action, MoveWorker)
                moved = list(workers)
                moved.remove(action.source)
                total = landscape.total_with([*moved, action.target])
            if total > best_total:
                best, best_total = Turn(placement, action), total
    assert best is not None  # a legal placement always exists (RULINGS: 4x4 bound)
    return best
