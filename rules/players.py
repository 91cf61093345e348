"""Computer players. The reference player calibrates the deck; it is deliberately simple."""

from __future__ import annotations

from collections import Counter

from rules.board import Board, _MoveCache
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
    moves: _MoveCache = {}
    for placement in board.legal_placements(variants):
        after = board._with_card(card, placement)  # legal by construction
        # What one action changes, rather than the whole total again: the same numbers
        # as ``Landscape.total_with``, many times faster.
        region_of, value = after.landscape._region_scorer()
        occupied = Counter(map(region_of, after.workers))
        base = sum(value[region] for region in occupied)
        for action in after._worker_actions(variants, moves):
            total = base
            if isinstance(action, PlaceWorker):
                if region_of(action.zone) not in occupied:
                    total += value[region_of(action.zone)]
            elif isinstance(action, MoveWorker):
                left = region_of(action.source)
                if occupied[left] == 1:
                    total -= value[left]
                # A move always leaves its region, so the target's is never ``left``.
                if region_of(action.target) not in occupied:
                    total += value[region_of(action.target)]
            if total > best_total:
                best, best_total = Turn(placement, action), total
    assert best is not None  # a legal placement always exists (docs/rules.md: the 4x4 bound)
    return best
