"""The reference player, and the loop that values every turn of a round.

The reference player calibrates the deck (``rules/decks/README.md``); it is deliberately
simple. The computer players by level are ``rules.bot``, which ``import rules`` does not
load (nor their evaluation and its weights): import it where a bot plays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from rules.board import Board, MoveCache
from rules.model import Card, MoveWorker, PlaceWorker, Turn, Variants

#: A board's worth per region (``Landscape.regions()`` order), if a worker scores it.
Worth = Callable[[Board], Sequence[float]]
#: No worker terms: a worker still in the supply, or sharing a region, is worth nothing.
NO_TERMS = (0.0, 0.0, 0.0)


def reference_turn(board: Board, card: Card, variants: Variants = Variants()) -> Turn:
    """The reference player's turn: one-ply greedy on the score preview.

    Every legal turn is scored as the landscape would then stand; the best wins. Ties go
    to the first in a fixed order: placements by position then rotation, and for each,
    doing nothing before placing a worker before moving one (``Board.iter_turns`` order).
    Deterministic: the same board and card always give the same turn.
    """
    best: Turn | None = None
    best_total = -1.0
    for total, turn in value_turns_on(board, card, variants, score_now):
        if total > best_total:
            best, best_total = turn, total
    assert best is not None  # a legal placement always exists (docs/rules.md: the 4x4 bound)
    return best


def score_now(board: Board) -> list[float]:
    """Each region's points as the landscape stands: the score a worker there makes."""
    return [float(v) for v in board.landscape.regions().value]


def value_turns_on(
    board: Board,
    card: Card,
    variants: Variants,
    worth: Worth,
    rounds_left: int = 0,
    terms: tuple[float, float, float] = NO_TERMS,
) -> list[tuple[float, Turn]]:
    """Every legal turn in ``Board.iter_turns`` order with its value: the ``worth`` of each
    region a worker then scores, plus, with ``rounds_left``, the workers' ``terms``
    (``reserve`` per worker in the supply that a remaining round can place, ``spare`` per
    worker sharing a region, and a ``bias``).

    Each region's worth is computed once per placement, and each worker action costs a few
    additions.
    """
    result: list[tuple[float, Turn]] = []
    moves: MoveCache = {}
    reserve, spare_weight, bias = terms
    for placement in board.legal_placements(variants):
        after = board.with_card(card, placement)
        worths = worth(after)
        region_at = after.landscape.regions().region_at
        occupied = Counter(map(region_at, after.workers))
        base = sum(worths[r] for r in occupied)
        supply = after.supply
        spare = len(after.workers) - len(occupied)
        for action in after.worker_actions(variants, moves):
            total = base
            left_supply = supply
            extra = spare
            if isinstance(action, PlaceWorker):
                left_supply -= 1
                if region_at(action.zone) in occupied:
                    extra += 1
                else:
                    total += worths[region_at(action.zone)]
            elif isinstance(action, MoveWorker):
                source = region_at(action.source)
                if occupied[source] == 1:
                    total -= worths[source]
                else:
                    extra -= 1
                if region_at(action.target) in occupied:
                    extra += 1
                else:
                    total += worths[region_at(action.target)]
            if rounds_left:
                total += reserve * min(left_supply, rounds_left)
                total += spare_weight * extra + bias
            result.append((total, Turn(placement, action)))
    return result
