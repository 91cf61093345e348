"""How the bots value a position: an estimate of the final score, and every turn valued on it.

An evaluation values a board after a turn (an *afterstate*) as the sum of the ``worth`` of
each region a worker scores, plus terms for the workers: ``reserve`` per worker still in the
supply that a remaining round can place (and per such worker squared), ``spare`` per worker
sharing a region (it may still move away) and a constant ``bias``; while a worker is in
reserve, also what the best unscored region of each terrain offers it (``free``). With no
round left it is the exact score. Two evaluations have that shape:

- ``HandWeights``: a region's points now plus, if a worker scores it, the growth it may
  still expect, per *open* zone beside it (where a card may still lie without the landscape
  outgrowing 4x4 cards) a weight by terrain, and for a watchman per open zone in its lines
  of sight; scaled by the share of the open zones the remaining rounds will fill. Tuned by
  hand (benchmarks/README.md has the runs).
- ``LearnedWeights``: the same terms and a few more (the deck's unseen terrain shares, the
  free regions), one coefficient each per terrain and per number of rounds left, learned by
  self-play
  (``benchmarks/train_evaluator.py``); shipped in ``rules/weights/evaluator.json``.

Because the value is a sum over regions, each region's worth is computed once per placement
and each worker action costs a few additions (``value_turns``); a turn takes one region at
most, so each terrain's best two free regions tell the free term after it. The best reply to
a next card is valued without listing its turns (``best_values``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, Protocol

from rules.board import Board, MoveCache
from rules.errors import InvalidInputError
from rules.landscape import EMPTY, FIELD, FOREST, TOWER, WATER
from rules.model import (
    ROUNDS,
    WORKERS_PER_PLAYER,
    Card,
    MoveWorker,
    PlaceWorker,
    Terrain,
    Turn,
    Variants,
)

WEIGHTS_PATH = Path(__file__).resolve().parent / "weights" / "evaluator.json"
WEIGHTS_FORMAT = "limes-evaluator/3"
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
#: What a worker still in reserve may yet score, one pair per terrain after the regions'
#: blocks: the best unscored region's points and open zones times ``filled`` (the best by
#: their sum, then by points), while a worker is in reserve and a round left to place it.
FREE_FEATURES: tuple[str, ...] = ("free_points", "free_open_filled")
FREE = BLOCK * 4
#: The best free region's rank: its points and ``filled``, on a tie the more points (two
#: different sums differ by 1/200 or more: ``filled`` is a multiple of 4/(empty zones)).
_RANK_POINTS = 1.000001
#: The afterstate's other features, after the free regions': the workers in reserve that
#: the rounds left can place, their square (each one more is worth less), the workers
#: sharing a region, a constant.
WORKER_FEATURES: tuple[str, ...] = ("reserve", "reserve_squared", "spare", "bias")
FEATURES = FREE + len(FREE_FEATURES) * 4 + len(WORKER_FEATURES)


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


@dataclass(frozen=True, slots=True)
class RegionTerms:
    """An evaluation's terms for the regions of a board (``Landscape.regions()`` order).

    ``worth``: each region's if a worker scores it. ``free``: what a region adds as the best
    unscored region of its terrain while a worker is in reserve (``None``: the evaluation has
    no such term), the best being the one of highest ``rank``.
    """

    worth: list[float]
    kinds: list[int]
    free: list[float] | None = None
    rank: list[float] | None = None


class Workers(NamedTuple):
    """An evaluation's terms for the workers, with a round or more left."""

    #: Per worker in reserve that the rounds left can place, and per such worker squared.
    reserve: float
    reserve_squared: float
    #: Per worker sharing a region with another (it may still move away).
    spare: float
    bias: float


class Evaluation(Protocol):
    """What values an afterstate: its regions' terms and the workers'."""

    def regions(self, board: Board, outlook: Outlook, free: bool = True) -> RegionTerms:
        """The terms of each region of ``board`` (``free`` only if asked)."""
        ...

    def workers(self, rounds_left: int) -> Workers:
        """The workers' terms with ``rounds_left`` rounds left (> 0)."""
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

    def regions(self, board: Board, outlook: Outlook, free: bool = True) -> RegionTerms:
        """Each region's points now plus the growth it may still expect."""
        if not outlook.rounds_left:
            return _exact(board)
        growth = region_growth(board, outlook.rounds_left)
        fill = growth.fill**self.fill_power
        weight = {
            FIELD: self.grow_field,
            FOREST: self.grow_forest,
            WATER: self.grow_water,
            TOWER: self.grow_tower,
        }
        worth = [
            float(points) + weight[kind] * fill * zones
            for points, kind, zones in zip(growth.points, growth.kinds, growth.open, strict=True)
        ]
        return RegionTerms(worth, growth.kinds)

    def workers(self, rounds_left: int) -> Workers:
        """The reserve (linear in the rounds left), the spare weight and no bias."""
        reserve = self.reserve_end + (self.reserve - self.reserve_end) * (rounds_left - 1) / (
            ROUNDS - 2
        )
        return Workers(reserve, 0.0, self.spare, 0.0)


@dataclass(frozen=True, slots=True, repr=False)
class LearnedWeights:
    """A learned evaluation: ``stages[k]`` the ``FEATURES`` coefficients with ``k`` rounds
    left (``stages[0]`` unused: the last round's value is the exact score)."""

    stages: tuple[tuple[float, ...], ...]

    def __repr__(self) -> str:
        return f"LearnedWeights(<{len(self.stages)} stages of {FEATURES} coefficients>)"

    def regions(self, board: Board, outlook: Outlook, free: bool = True) -> RegionTerms:
        """Each region's learned worth if a worker scores it, and with ``free`` what it adds
        as its terrain's best unscored region."""
        if not outlook.rounds_left:
            return _exact(board)
        coefficients = self.stages[outlook.rounds_left]
        growth = region_growth(board, outlook.rounds_left)
        fill = growth.fill
        blocks = [coefficients[BLOCK * kind : BLOCK * kind + BLOCK] for kind in range(4)]
        shares = [outlook.share(kind) for kind in range(4)]
        worth = []
        if not free:
            for points, kind, zones in zip(growth.points, growth.kinds, growth.open, strict=True):
                a, b, c, d, e, f = blocks[kind]
                filled = zones * fill
                worth.append(
                    (a + f * fill) * points
                    + (b + c * shares[kind] + e * filled) * filled
                    + d * zones
                )
            return RegionTerms(worth, growth.kinds)
        frees = [coefficients[FREE + 2 * kind : FREE + 2 * kind + 2] for kind in range(4)]
        values = []
        rank = []
        for points, kind, zones in zip(growth.points, growth.kinds, growth.open, strict=True):
            a, b, c, d, e, f = blocks[kind]
            filled = zones * fill
            worth.append(
                (a + f * fill) * points + (b + c * shares[kind] + e * filled) * filled + d * zones
            )
            g, h = frees[kind]
            values.append(g * points + h * filled)
            rank.append(_RANK_POINTS * points + filled)
        return RegionTerms(worth, growth.kinds, values, rank)

    def workers(self, rounds_left: int) -> Workers:
        """The learned reserve, reserve squared, spare and bias coefficients."""
        return Workers(*self.stages[rounds_left][-len(WORKER_FEATURES) :])

    @classmethod
    def from_hand(cls, hand: HandWeights = HandWeights()) -> LearnedWeights:
        """The hand-tuned evaluation in this shape (with ``fill_power`` 1): where
        training starts."""
        grow = (hand.grow_field, hand.grow_water, hand.grow_forest, hand.grow_tower)
        stages = []
        for rounds_left in range(ROUNDS):
            terms = hand.workers(max(1, rounds_left))
            row: list[float] = []
            for kind in (FIELD, WATER, FOREST, TOWER):
                row += [1.0, grow[kind], 0.0, 0.0, 0.0, 0.0]
            row += [0.0] * (len(FREE_FEATURES) * 4)
            stages.append((*row, *terms))
        return cls(tuple(stages))

    def to_json(self) -> dict[str, object]:
        """The shape of ``rules/weights/evaluator.json``."""
        return {
            "format": WEIGHTS_FORMAT,
            "features": [
                *(f"{t.name.lower()}_{f}" for t in Terrain for f in REGION_FEATURES),
                *(f"{t.name.lower()}_{f}" for t in Terrain for f in FREE_FEATURES),
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


_NO_TERMS = Workers(0.0, 0.0, 0.0, 0.0)
_NOW = Outlook(0, 0.0, 0.0, 0.0, 0.0)


def _exact(board: Board) -> RegionTerms:
    # With no round left, a region is worth its points, and nothing is to come.
    regions = board.landscape.regions()
    return RegionTerms([float(v) for v in regions.value], regions.terrain)


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
    reserve = min(board.supply, outlook.rounds_left)
    if reserve > 0:
        best: dict[int, tuple[float, int]] = {}
        for region, kind in enumerate(growth.kinds):
            if region in scored:
                continue
            rank = _RANK_POINTS * growth.points[region] + growth.open[region] * growth.fill
            if kind not in best or rank > best[kind][0]:
                best[kind] = (rank, region)
        for kind, (_, region) in best.items():
            features[FREE + 2 * kind] = growth.points[region]
            features[FREE + 2 * kind + 1] = growth.open[region] * growth.fill
    features[-4] = reserve
    features[-3] = reserve * reserve
    features[-2] = len(board.workers) - len(scored)
    features[-1] = 1.0
    return features


class _FreeRegions:
    """The best unscored region of each terrain for one set of scored regions, and how the
    free term changes when a worker takes a region or leaves one (the best two of each
    terrain are enough: a turn takes one region at most)."""

    __slots__ = ("first", "free", "kinds", "rank", "second", "total")

    def __init__(self, terms: RegionTerms, ranked: list[list[int]], scored: Collection[int]):
        assert terms.free is not None and terms.rank is not None
        self.free, self.kinds, self.rank = terms.free, terms.kinds, terms.rank
        self.first = [-1, -1, -1, -1]
        self.second = [-1, -1, -1, -1]
        total = 0.0
        for kind, regions in enumerate(ranked):
            # Workers score as many regions at most: two more hold the best two free ones.
            found = [r for r in regions[: WORKERS_PER_PLAYER + 2] if r not in scored]
            if found:
                self.first[kind] = found[0]
                total += self.free[found[0]]
                if len(found) > 1:
                    self.second[kind] = found[1]
        self.total = total

    def change(self, taken: int, freed: int) -> float:
        """How the free term changes when a worker takes region ``taken`` (unscored before)
        and region ``freed`` loses its last worker; -1 for neither."""
        delta = 0.0
        kind = after = -1
        if taken >= 0:
            kind = self.kinds[taken]
            after = self.first[kind]
            if after == taken:
                after = self.second[kind]
                delta -= self.free[taken] - (self.free[after] if after >= 0 else 0.0)
        if freed >= 0:
            other = self.kinds[freed]
            best = after if other == kind else self.first[other]
            if best < 0 or self.rank[freed] > self.rank[best]:
                delta += self.free[freed] - (self.free[best] if best >= 0 else 0.0)
        return delta


def _ranked_by_kind(terms: RegionTerms) -> list[list[int]]:
    # Each terrain's regions, the best free one first.
    assert terms.rank is not None
    ranked: list[list[int]] = [[], [], [], []]
    for region in sorted(range(len(terms.kinds)), key=terms.rank.__getitem__, reverse=True):
        ranked[terms.kinds[region]].append(region)
    return ranked


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
    if outlook is None or evaluation is None:
        outlook, evaluation = _NOW, HandWeights()
    result: list[tuple[float, Turn]] = []
    moves: MoveCache = {}
    rounds_left = outlook.rounds_left
    reserve, reserve_squared, spare_weight, bias = (
        evaluation.workers(rounds_left) if rounds_left else _NO_TERMS
    )
    for placement in board.legal_placements(variants):
        after = board.with_card(card, placement)
        supply = after.supply
        # The free term counts only while a worker is in reserve.
        terms = evaluation.regions(after, outlook, free=supply > 0)
        worth = terms.worth
        region_at = after.landscape.regions().region_at
        occupied = Counter(map(region_at, after.workers))
        base = sum(worth[r] for r in occupied)
        spare = len(after.workers) - len(occupied)
        free = None
        if rounds_left and terms.free is not None:
            free = _FreeRegions(terms, _ranked_by_kind(terms), occupied)
        for action in after.worker_actions(variants, moves):
            total = base
            left_supply = supply
            extra = spare
            taken = freed = -1
            if isinstance(action, PlaceWorker):
                left_supply -= 1
                target = region_at(action.zone)
                if target in occupied:
                    extra += 1
                else:
                    total += worth[target]
                    taken = target
            elif isinstance(action, MoveWorker):
                source = region_at(action.source)
                if occupied[source] == 1:
                    total -= worth[source]
                    freed = source
                else:
                    extra -= 1
                target = region_at(action.target)
                if target in occupied:
                    extra += 1
                else:
                    total += worth[target]
                    taken = target
            if rounds_left:
                in_reserve = min(left_supply, rounds_left)
                total += (reserve + reserve_squared * in_reserve) * in_reserve
                total += spare_weight * extra + bias
                if free is not None and in_reserve > 0:
                    total += free.total + free.change(taken, freed)
            result.append((total, Turn(placement, action)))
    return result


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
    not zone. The landscape after each placement, its regions and their terms are the
    boards' to share.
    """
    best = [float("-inf")] * len(boards)
    rounds_left = outlook.rounds_left
    reserve, reserve_squared, spare_weight, bias = (
        evaluation.workers(rounds_left) if rounds_left else _NO_TERMS
    )
    ferryman = variants.ferryman
    # The free term counts only while a worker is in reserve.
    need_free = rounds_left > 0 and max(board.supply for board in boards) > 0
    for placement in boards[0].legal_placements(variants):
        after = boards[0].with_card(card, placement)
        regions = after.landscape.regions()
        terms = evaluation.regions(after, outlook, free=need_free)
        worth = terms.worth
        ranked = _ranked_by_kind(terms) if need_free and terms.free is not None else None
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
            free = None
            if ranked is not None and supply > 0:
                free = _FreeRegions(terms, ranked, occupied)
            # (value gained, left supply, workers sharing a region, free term if a worker
            # stays in reserve) of each kind of action
            options: list[tuple[float, int, int, float]] = [
                (base, supply, spare, free.total if free else 0.0)
            ]
            if supply > 0:
                for region in new_regions:
                    if region in occupied:
                        options.append((base, supply - 1, spare + 1, options[0][3]))
                    elif free is None:
                        options.append((base + worth[region], supply - 1, spare, 0.0))
                    else:
                        change = free.change(region, -1)
                        options.append(
                            (base + worth[region], supply - 1, spare, free.total + change)
                        )
            for own in occupied:
                if occupied[own] == 1:
                    total, extra, freed = base - worth[own], spare, own
                else:
                    total, extra, freed = base, spare - 1, -1
                targets = regions.neighbours[own]
                if ferryman:
                    targets = set(targets)
                    for water in regions.neighbours[own]:
                        if regions.terrain[water] == WATER and water in occupied:
                            targets |= regions.neighbours[water]
                    targets.discard(own)
                # To a region of its own, or to join a worker (that one then may move on).
                if free is None:
                    values = [worth[target] for target in targets if target not in occupied]
                    if values:
                        options.append((total + max(values), supply, extra, 0.0))
                    if len(values) < len(targets):
                        options.append((total, supply, extra + 1, 0.0))
                    continue
                # Taking a region may take its terrain's best free one: each target valued
                # with the free term it leaves. Only a terrain's best free region changes it.
                stay = free.change(-1, freed)
                plain = [target for target in targets if target not in occupied]
                if plain:
                    others = [worth[t] for t in plain if t not in free.first]
                    value, term = (max(others), stay) if others else (float("-inf"), 0.0)
                    for first in free.first:
                        if first in plain:
                            change = free.change(first, freed)
                            if worth[first] + change > value + term:
                                value, term = worth[first], change
                    options.append((total + value, supply, extra, free.total + term))
                if len(plain) < len(targets):
                    options.append((total, supply, extra + 1, free.total + stay))
            value = best[k]
            for total, left_supply, extra, term in options:
                if rounds_left:
                    in_reserve = min(left_supply, rounds_left)
                    total += (reserve + reserve_squared * in_reserve) * in_reserve
                    total += spare_weight * extra + bias
                    if in_reserve > 0:
                        total += term
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
