"""How the bots value a position: an estimate of the final score, and every turn valued on it.

An evaluation values a board after a turn (an *afterstate*) as the sum of the ``worth`` of
each region a worker scores, plus terms for the workers: ``reserve`` per worker still in the
supply that a remaining round can place, ``spare`` per worker sharing a region (it may still
move away) and a constant ``bias``. With no round left it is the exact score. Two
evaluations have that shape:

- ``HandWeights``: a region's points now plus, if a worker scores it, the growth it may
  still expect, per *open* zone beside it (where a card may still lie without the landscape
  outgrowing 4x4 cards) a weight by terrain, and for a watchman per open zone in its lines
  of sight; scaled by the share of the open zones the remaining rounds will fill. Tuned by
  hand (benchmarks/lab/NOTEBOOK.md has the runs).
- ``LearnedWeights``: the same terms and a few more (the deck's unseen terrain shares), one
  coefficient each per terrain and per number of rounds left, learned by self-play
  (``benchmarks/lab/train_evaluator.py``); shipped in ``rules/weights/evaluator.json``.

Because the value is a sum over regions, each region's worth is computed once per placement
and each worker action costs a few additions (``value_turns``, on the reference player's
loop ``rules.players.value_turns_on``); the best reply to a next
card is valued without listing its turns (``best_values``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from rules.board import Board
from rules.errors import InvalidInputError
from rules.landscape import EMPTY, FIELD, FOREST, TOWER, WATER
from rules.model import ROUNDS, Card, Terrain, Turn, Variants
from rules.players import NO_TERMS, value_turns_on

WEIGHTS_PATH = Path(__file__).resolve().parent / "weights" / "evaluator.json"
WEIGHTS_FORMAT = "limes-evaluator/2"
#: The features of a scored region, one block per terrain (``Landscape`` terrain codes):
#: its points, its open zones times the share the rounds left fill (``filled``), that times
#: the unseen cards' share that grows it, its open zones, ``filled`` squared (growth
#: saturates) and its points times the fill share.
REGION_FEATURES: tuple[str, ...] = (
    "points",
    "open_filled",
    "open_filled_share",
    "open",
    "open_filled_squared",
    "points_fill",
)
BLOCK = len(REGION_FEATURES)
#: The afterstate's other features, after the four terrains' blocks.
WORKER_FEATURES: tuple[str, ...] = ("reserve", "spare", "bias")
FEATURES = len(REGION_FEATURES) * 4 + len(WORKER_FEATURES)


@dataclass(frozen=True, slots=True)
class Outlook:
    """What the rest of the game holds: rounds left after this one, terrain shares unseen."""

    rounds_left: int
    field: float
    forest: float
    water: float
    hut: float

    @classmethod
    def of(cls, unseen: Collection[Card], rounds_left: int) -> Outlook:
        """The outlook with ``unseen`` cards still to come and ``rounds_left`` rounds."""
        counts: Counter[Terrain] = Counter()
        huts = 0
        for card in unseen:
            for zone in card.zones:
                counts[zone.terrain] += 1
                huts += zone.hut
        total = max(1, 4 * len(unseen))
        return cls(
            max(0, rounds_left),
            counts[Terrain.FIELD] / total,
            counts[Terrain.FOREST] / total,
            counts[Terrain.WATER] / total,
            huts / total,
        )

    def share(self, kind: int) -> float:
        """How likely the unseen cards grow a region of terrain code ``kind``: fields by
        field, forests by other terrains (more neighbours), water by huts, a watchman by
        forests."""
        if kind == FIELD:
            return self.field
        if kind == FOREST:
            return 1.0 - self.forest
        if kind == WATER:
            return self.hut
        return self.forest


class Evaluation(Protocol):
    """What values an afterstate: each region's worth and the workers' terms."""

    def worth(self, board: Board, outlook: Outlook) -> list[float]:
        """Each region's worth if a worker scores it (``Landscape.regions()`` order)."""
        ...

    def workers(self, rounds_left: int) -> tuple[float, float, float]:
        """``reserve``, ``spare`` and ``bias`` with ``rounds_left`` rounds left (> 0)."""
        ...


@dataclass(frozen=True, slots=True)
class Growth:
    """Per region: its points now, its terrain code and its open zones (for a watchman,
    those in its lines of sight); ``fill``: the share of open zones the rounds left fill."""

    points: list[int]
    kinds: list[int]
    open: list[int]
    fill: float


@dataclass(frozen=True, slots=True)
class HandWeights:
    """The hand-tuned evaluation, in points (see the module docstring)."""

    grow_field: float = 0.6
    grow_forest: float = 1.1
    grow_water: float = 0.5
    grow_tower: float = 0.2
    reserve: float = 3.0
    #: ``reserve`` with one round left; it goes linearly to ``reserve`` at 15 rounds left.
    reserve_end: float = 3.0
    #: The growth is scaled by the share of open zones filled, to this power.
    fill_power: float = 1.0
    spare: float = 1.0

    def worth(self, board: Board, outlook: Outlook) -> list[float]:
        """Each region's points now plus the growth it may still expect."""
        if not outlook.rounds_left:
            return [float(v) for v in board.landscape.regions().value]
        growth = region_growth(board, outlook.rounds_left)
        fill = growth.fill**self.fill_power
        weight = {
            FIELD: self.grow_field,
            FOREST: self.grow_forest,
            WATER: self.grow_water,
            TOWER: self.grow_tower,
        }
        return [
            float(points) + weight[kind] * fill * zones
            for points, kind, zones in zip(growth.points, growth.kinds, growth.open, strict=True)
        ]

    def workers(self, rounds_left: int) -> tuple[float, float, float]:
        """The reserve (linear in the rounds left), the spare weight and no bias."""
        reserve = self.reserve_end + (self.reserve - self.reserve_end) * (rounds_left - 1) / (
            ROUNDS - 2
        )
        return reserve, self.spare, 0.0


@dataclass(frozen=True, slots=True, repr=False)
class LearnedWeights:
    """A learned evaluation: ``stages[k]`` the ``FEATURES`` coefficients with ``k`` rounds
    left (``stages[0]`` unused: the last round's value is the exact score)."""

    stages: tuple[tuple[float, ...], ...]

    def __repr__(self) -> str:
        return f"LearnedWeights(<{len(self.stages)} stages of {FEATURES} coefficients>)"

    def worth(self, board: Board, outlook: Outlook) -> list[float]:
        """Each region's learned worth if a worker scores it."""
        if not outlook.rounds_left:
            return [float(v) for v in board.landscape.regions().value]
        coefficients = self.stages[outlook.rounds_left]
        growth = region_growth(board, outlook.rounds_left)
        fill = growth.fill
        blocks = [coefficients[BLOCK * kind : BLOCK * kind + BLOCK] for kind in range(4)]
        shares = [outlook.share(kind) for kind in range(4)]
        worth = []
        for points, kind, zones in zip(growth.points, growth.kinds, growth.open, strict=True):
            a, b, c, d, e, f = blocks[kind]
            filled = zones * fill
            worth.append(
                (a + f * fill) * points + (b + c * shares[kind] + e * filled) * filled + d * zones
            )
        return worth

    def workers(self, rounds_left: int) -> tuple[float, float, float]:
        """The learned reserve, spare and bias coefficients."""
        coefficients = self.stages[rounds_left]
        return coefficients[-3], coefficients[-2], coefficients[-1]

    @classmethod
    def from_hand(cls, hand: HandWeights = HandWeights()) -> LearnedWeights:
        """The hand-tuned evaluation in this shape (with ``fill_power`` 1): where
        training starts."""
        grow = (hand.grow_field, hand.grow_water, hand.grow_forest, hand.grow_tower)
        stages = []
        for rounds_left in range(ROUNDS):
            reserve, spare, bias = hand.workers(max(1, rounds_left))
            row: list[float] = []
            for kind in (FIELD, WATER, FOREST, TOWER):
                row += [1.0, grow[kind], 0.0, 0.0, 0.0, 0.0]
            stages.append((*row, reserve, spare, bias))
        return cls(tuple(stages))

    def to_json(self) -> dict[str, object]:
        """The shape of ``rules/weights/evaluator.json``."""
        return {
            "format": WEIGHTS_FORMAT,
            "features": [
                *(f"{t.name.lower()}_{f}" for t in Terrain for f in REGION_FEATURES),
                *WORKER_FEATURES,
            ],
            "stages": [[round(x, 6) for x in row] for row in self.stages],
        }

    @classmethod
    def from_json(cls, data: object) -> LearnedWeights:
        """Parse ``to_json``'s shape; raises ``InvalidInputError``."""
        if not isinstance(data, dict) or data.get("format") != WEIGHTS_FORMAT:
            raise InvalidInputError(f"not {WEIGHTS_FORMAT} weights")
        stages = data.get("stages")
        if not isinstance(stages, list) or len(stages) != ROUNDS:
            raise InvalidInputError(f"the weights need {ROUNDS} stages")
        rows = []
        for row in stages:
            if not isinstance(row, list) or len(row) != FEATURES:
                raise InvalidInputError(f"each stage has {FEATURES} coefficients")
            rows.append(tuple(float(x) for x in row))
        return cls(tuple(rows))


_NOW = Outlook(0, 0.0, 0.0, 0.0, 0.0)


@lru_cache(maxsize=4)
def load_weights(path: Path = WEIGHTS_PATH) -> LearnedWeights:
    """The learned evaluation shipped with the rules, read once per process."""
    return LearnedWeights.from_json(json.loads(path.read_text(encoding="utf-8")))


def afterstate_features(board: Board, outlook: Outlook) -> list[float]:
    """The learned evaluation's features of ``board`` (its value is their dot product with
    ``stages[outlook.rounds_left]``); for training."""
    growth = region_growth(board, max(1, outlook.rounds_left))
    regions = board.landscape.regions()
    scored = {regions.region_at(point) for point in board.workers}
    features = [0.0] * FEATURES
    for region in scored:
        kind, zones = growth.kinds[region], growth.open[region]
        filled = zones * growth.fill
        base = BLOCK * kind
        features[base] += growth.points[region]
        features[base + 1] += filled
        features[base + 2] += filled * outlook.share(kind)
        features[base + 3] += zones
        features[base + 4] += filled * filled
        features[base + 5] += growth.points[region] * growth.fill
    features[-3] = min(board.supply, outlook.rounds_left)
    features[-2] = len(board.workers) - len(scored)
    features[-1] = 1.0
    return features


# -- every turn valued -----------------------------------------------------------------------


def value_turns(
    board: Board,
    card: Card,
    variants: Variants,
    outlook: Outlook | None = None,
    evaluation: Evaluation | None = None,
) -> list[tuple[float, Turn]]:
    """Every legal turn in ``Board.iter_turns`` order with the evaluation after it.

    Without an outlook (or with no round left), the value is the score as the landscape
    would then stand: the reference player's.
    """
    seen = outlook if outlook is not None and evaluation is not None else _NOW
    valued = evaluation if outlook is not None and evaluation is not None else HandWeights()
    rounds_left = seen.rounds_left
    terms = valued.workers(rounds_left) if rounds_left else NO_TERMS
    return value_turns_on(
        board, card, variants, lambda after: valued.worth(after, seen), rounds_left, terms
    )


def best_values(
    boards: Sequence[Board],
    card: Card,
    variants: Variants,
    outlook: Outlook,
    evaluation: Evaluation,
) -> list[float]:
    """For boards with the same cards (their workers may differ), the value of the best
    turn ``value_turns`` lists for each, without listing the turns.

    A worker's move is worth as much as its target's region, so targets count by region,
    not zone. The landscape after each placement, its regions and their worth are the
    boards' to share.
    """
    best = [float("-inf")] * len(boards)
    rounds_left = outlook.rounds_left
    reserve, spare_weight, bias = evaluation.workers(rounds_left) if rounds_left else NO_TERMS
    ferryman = variants.ferryman
    for placement in boards[0].legal_placements(variants):
        after = boards[0].with_card(card, placement)
        regions = after.landscape.regions()
        worth = evaluation.worth(after, outlook)
        region_at = regions.region_at
        new_regions = [
            region_at(point)
            for point, _ in card.placed_zones(placement.card_at, placement.rotation)
        ]
        for k, board in enumerate(boards):
            workers = board.workers
            occupied = Counter(map(region_at, workers))
            base = sum(worth[r] for r in occupied)
            supply = board.supply
            spare = len(workers) - len(occupied)
            # (points gained, left supply, workers sharing a region) of each kind of action
            options: list[tuple[float, int, int]] = [(base, supply, spare)]
            if supply > 0:
                for region in new_regions:
                    if region in occupied:
                        options.append((base, supply - 1, spare + 1))
                    else:
                        options.append((base + worth[region], supply - 1, spare))
            for own in occupied:
                if occupied[own] == 1:
                    total, extra = base - worth[own], spare
                else:
                    total, extra = base, spare - 1
                targets = regions.targets(own, occupied, ferryman)
                # To a region of its own, or to join a worker (that one then may move on).
                free = [worth[target] for target in targets if target not in occupied]
                if free:
                    options.append((total + max(free), supply, extra))
                if len(free) < len(targets):
                    options.append((total, supply, extra + 1))
            value = best[k]
            for total, left_supply, extra in options:
                if rounds_left:
                    total += reserve * min(left_supply, rounds_left)
                    total += spare_weight * extra + bias
                if total > value:
                    value = total
            best[k] = value
    return best


# -- growth ----------------------------------------------------------------------------------


def region_growth(board: Board, rounds_left: int) -> Growth:
    """Each region's points, terrain and open zones beside it, and the fill share."""
    landscape = board.landscape
    regions = landscape.regions()
    rows = [placed.card_at[0] for placed in board.cards]
    cols = [placed.card_at[1] for placed in board.cards]
    # Zones where a card may still lie keep the landscape within 4x4 cards. The grid lies
    # inside that window, so its open zones are its empty ones and those just outside it.
    lo_r, hi_r = 2 * (max(rows) - 3), 2 * (min(rows) + 3) + 1
    lo_c, hi_c = 2 * (max(cols) - 3), 2 * (min(cols) + 3) + 1
    top, left, height, width = landscape.top, landscape.left, landscape.height, landscape.width
    empty_cells = (hi_r - lo_r + 1) * (hi_c - lo_c + 1) - 4 * len(rows)
    fill = min(1.0, 4 * rounds_left / max(1, empty_cells))
    full, top_row, bottom_row, first_col, last_col = _edge_masks(height, width)
    masks = regions.masks
    empty = full & ~sum(masks)
    # Zones on an edge of the grid have an open zone beyond it where the window goes on.
    beyond = [
        edge
        for edge, is_open in (
            (top_row, top > lo_r),
            (bottom_row, top + height - 1 < hi_r),
            (first_col, left > lo_c),
            (last_col, left + width - 1 < hi_c),
        )
        if is_open
    ]
    not_first, not_last = full & ~first_col, full & ~last_col
    grid = landscape.terrain_codes()
    open_zones = []
    for region, kind in enumerate(regions.terrain):
        if kind == TOWER:
            i, j = divmod(regions.cells[region][0], width)
            row, column = grid[i * width : (i + 1) * width], grid[j::width]
            seen = 0
            # Each line of sight: the zones up to the next tower, or to the window's edge.
            for line, outside in (
                (row[j + 1 :], hi_c - left - width + 1),
                (row[j - 1 :: -1] if j else [], left - lo_c),
                (column[i + 1 :], hi_r - top - height + 1),
                (column[i - 1 :: -1] if i else [], top - lo_r),
            ):
                if TOWER in line:
                    seen += line[: line.index(TOWER)].count(EMPTY)
                else:
                    seen += line.count(EMPTY) + outside
            open_zones.append(seen)
            continue
        m = masks[region]
        beside = (
            (m >> width) | (m << width) | ((m & not_first) >> 1) | ((m & not_last) << 1)
        ) & empty
        frontier = beside.bit_count()
        for edge in beyond:
            frontier += (m & edge).bit_count()
        open_zones.append(frontier)
    return Growth(regions.value, regions.terrain, open_zones, fill)


@lru_cache(maxsize=64)
def _edge_masks(height: int, width: int) -> tuple[int, int, int, int, int]:
    # A grid's zones as bits (row-major, as ``Regions.masks``): all, top row, bottom row,
    # first column, last column.
    row = (1 << width) - 1
    column = sum(1 << (r * width) for r in range(height))
    return (
        (1 << (height * width)) - 1,
        row,
        row << (width * (height - 1)),
        column,
        column << (width - 1),
    )
