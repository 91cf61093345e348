"""Computer players by level, turn assessment and the hindsight par of a deal.

Levels (``BOT_LEVELS``):

- ``easy``: the reference player's one-ply greedy with noise: it misjudges each turn by a
  normal error of 2.5 points and, on about a third of its turns, forgets its workers.
  For beginners. Deterministic per seed (the noise is drawn from the seed and position).
- ``reference``: ``rules.reference_turn``, the one-ply greedy player that calibrates the deck.
- ``strong``: one-ply search over every legal turn on an evaluation that estimates the
  *final* score rather than the score as the landscape stands; the best turns of the six
  best placements (two turns each at most) are then ranked again by the expected evaluation
  after the best reply to each of a set of next cards, the same cards for each turn (a
  two-ply expectimax). At least six next cards, more when the round has few placements: as
  many as 1,200 valued placements of a next card buy (``budget``), every unseen card when
  that covers them (the first round and most of rounds 12 to 15). Turns with one placement
  leave one landscape, so their replies share its regions and their worth
  (``_best_values``): a placement's second turn costs little.

Nothing here knows the order of the cards to come: a level sees the board, this round's card
and which cards of the deck are still unseen. ``hindsight_best`` is the exception on purpose:
it knows all 16 cards in order, to set a par for a deal.

How ``strong`` evaluates a position (``_Weights``, ``_worth``): each region is worth its
points now plus, if a worker scores it, the growth it may still expect: per *open* zone
beside it (an empty zone where a card may still lie without the landscape outgrowing 4x4
cards) a weight by terrain, and for a watchman per open zone in its lines of sight; scaled
by the share of the open zones the remaining rounds will fill. A worker still in the
supply is worth ``reserve`` points while a round remains to place it, so workers are no
longer spent on a one-point region in round 2. The last round's evaluation is the exact
score. Regions are analysed once per placement, each worker action then costs a few
additions; a reply of the two-ply is valued without listing its turns (``_best_values``: a
worker's move is worth its target's region, so targets count by region, not zone), and
open zones beside a region are counted on bit masks. That halved the two-ply's time a move.

Measured (``benchmarks/bot_strength.py``, seeded solo deals, standard deck; the reference
player scores 37.4 on the same deals). One-ply: the greedy evaluation without growth or
reserve is the reference player; tuning one weight at a time on 400 deals found the
watchman's sight lines badly overvalued (0.4 a zone: 40.6; 0.2: 43.2); with the weights
below, 43.43 on 1,000 deals (SE 0.09), 6 ms median a move. On the same 300 deals (paired
difference against that, 43.35) none of these helped: reserve 2.5 (-0.33 +/- 0.16) or 3.5
(+0.04 +/- 0.14); ``reserve_end`` 2.0 (-0.38 +/- 0.11) or 4.0 (-0.04 +/- 0.13);
``fill_power`` 0.7 (+0.04 +/- 0.14) or 1.4 (-0.48 +/- 0.13). Two-ply, 4 turns and 6 sampled
cards: 44.70 on the same 300 deals (+1.35 +/- 0.15 paired), 44.99 on seeds 300-449
(+1.63 +/- 0.21 against one-ply), 147 ms CPU median a move before the speed-up (about 80
after it); 2 turns and 4 cards: +0.32 +/- 0.27 on 100 deals.

With ``budget`` 1,200: 44.86 over 1,000 deals (SE 0.09), 139 ms CPU median a move. Sharing
a placement's work between its turns then cut the CPU a move by about a fifth (the same
choices), and that bought a wider shortlist. On the same 300 deals (seeds 0-299), paired
against that default (44.77, 131 ms CPU median): the best turns of the 4 best placements,
3 each, +0.09 +/- 0.12 at 176 ms; of the 6 best placements, 2 each, +0.32 +/- 0.14 at
186 ms (the default now). Over 1,000 deals (seeds 0-999): 45.25 (SE 0.09), the reference
player 37.41, 176 ms CPU median a move (p95 284); ``benchmarks/README.md`` has the runs.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules.board import Board, _MoveCache
from rules.errors import InvalidInputError
from rules.landscape import _EMPTY, _FIELD, _FOREST, _TOWER, _WATER
from rules.model import (
    ROUNDS,
    Card,
    MoveWorker,
    Placement,
    PlaceWorker,
    Point,
    Terrain,
    Turn,
    Variants,
)
from rules.players import reference_turn

BOT_LEVELS: tuple[str, ...] = ("easy", "reference", "strong")


@dataclass(frozen=True, slots=True)
class TurnAssessment:
    """How a played turn compares with the strong bot's own choice.

    Values are final scores the strong bot expects after the turn, playing on itself;
    ``best_value >= played_value`` always (when the played turn is as good, it is ``best``).
    """

    played: Turn
    played_value: float
    best: Turn
    best_value: float


@dataclass(frozen=True, slots=True)
class _Weights:
    """What the strong evaluation adds to the score as it stands, in points.

    ``grow_*``: per open zone beside an occupied region (a zone where a card may still lie),
    by the region's terrain; for a tower, per open zone in its lines of sight. Scaled by how
    much of the open space the remaining rounds will fill. ``reserve``: per worker still in
    the supply that a remaining round can place. ``spare``: per worker sharing a region,
    which may still move away.
    """

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
    #: The best turns on the evaluation that the next card's expectation then ranks (the
    #: best placements, with ``per_placement``).
    candidates: int = 6
    #: How many of the unseen cards that expectation averages over, at least.
    samples: int = 6
    #: More next cards when a round has few placements: as many as this many valued
    #: placements of a next card a move buy (every unseen card at most).
    budget: int = 1200
    #: Only turns within this many points of the best one are ranked again.
    margin: float = float("inf")
    #: If set, ``candidates`` counts placements: the best turns of the best ``candidates``
    #: placements are ranked again, this many of each at most (turns with one placement
    #: share most of the two-ply's work).
    per_placement: int = 2


_STRONG = _Weights()


def bot_turn(
    board: Board,
    card: Card,
    *,
    unseen: Collection[Card],
    variants: Variants = Variants(),
    level: str = "strong",
    seed: int = 0,
) -> Turn:
    """The level's turn for ``card`` on ``board``.

    ``unseen``: the deck's cards not yet revealed (their order unknown to the bot).
    Deterministic for the same inputs and seed. Raises ``InvalidInputError`` for an unknown
    level.
    """
    if level == "reference":
        return reference_turn(board, card, variants)
    if level == "easy":
        return _easy_turn(board, card, variants, _rng(seed, board, card))
    if level == "strong":
        return _strong_choices(board, card, variants, unseen, seed, _STRONG)[0][1]
    raise InvalidInputError(f"unknown bot level {level!r}; the levels are {', '.join(BOT_LEVELS)}")


def assess_turn(
    board: Board,
    card: Card,
    played: Turn,
    *,
    unseen: Collection[Card],
    variants: Variants = Variants(),
    seed: int = 0,
) -> TurnAssessment:
    """For post-game analysis: how ``played`` compares with the strong bot's turn.

    Raises ``IllegalMoveError`` if ``played`` is not legal.
    """
    board.play(card, played, variants)  # raises on an illegal turn
    choices = _strong_choices(board, card, variants, unseen, seed, _STRONG, also=played)
    best_value, best = choices[0]
    played_value = next(value for value, turn in choices if turn == played)
    if played_value >= best_value:
        best, best_value = played, played_value
    return TurnAssessment(played, played_value, best, best_value)


def hindsight_best(
    cards: Sequence[Card],
    *,
    variants: Variants = Variants(),
    seed: int = 0,
    budget: float = 5.0,
) -> tuple[int, tuple[Turn, ...]]:
    """The best final score found, and its turns, knowing every card in order in advance.

    A beam search on the strong evaluation (the cards still to come known exactly), its
    width set from ``budget`` (about that many seconds on a slow machine); the result does
    not depend on the clock. The turns replay legally to the score. Raises
    ``InvalidInputError`` for no cards, more than 16, or a card twice.
    """
    if not cards or len(cards) > ROUNDS:
        raise InvalidInputError(f"a game has 1 to {ROUNDS} cards, not {len(cards)}")
    if len({c.number for c in cards}) != len(cards):
        raise InvalidInputError("a card appears twice in the card sequence")
    width = max(1, int(budget * _BEAM_PER_SECOND))
    beam: list[tuple[Board, tuple[Turn, ...]]] = [(Board(), ())]
    for index, card in enumerate(cards):
        outlook = _Outlook.of(cards[index + 1 :], ROUNDS - index - 1)
        candidates: list[tuple[float, int, int, Turn]] = []
        for b, (board, _) in enumerate(beam):
            for k, (value, turn) in enumerate(_evaluated(board, card, variants, outlook, _STRONG)):
                candidates.append((value, b, k, turn))
        # Best value first; on a tie, the earlier state and turn: deterministic.
        candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
        kept: list[tuple[Board, tuple[Turn, ...]]] = []
        seen: set[tuple[object, ...]] = set()
        for _, b, _, turn in candidates:
            board, turns = beam[b]
            after = board.play(card, turn, variants)
            key = (after.cards, after.workers)
            if key in seen:
                continue
            seen.add(key)
            kept.append((after, (*turns, turn)))
            if len(kept) >= width:
                break
        beam = kept
    finished = [(board.landscape.score().total, turns) for board, turns in beam]
    best_total, best_turns = max(finished, key=lambda f: f[0])
    return best_total, best_turns


#: Beam states a second of budget buys (a state's expansion costs ~10 ms here).
_BEAM_PER_SECOND = 6


# -- easy ------------------------------------------------------------------------------------


def _rng(seed: int, board: Board, card: Card) -> random.Random:
    # A string seed is hashed the same way in every process (unlike ``hash``).
    return random.Random(f"{seed}:{len(board.cards)}:{card.number}:{board.workers}")


def _easy_turn(board: Board, card: Card, variants: Variants, rng: random.Random) -> Turn:
    forgets_workers = rng.random() < 0.35
    best: Turn | None = None
    best_total = float("-inf")
    moves: _MoveCache = {}
    for placement in board.legal_placements(variants):
        after = board._with_card(card, placement)
        actions = [None] if forgets_workers else after._worker_actions(variants, moves)
        workers = after.workers
        landscape = after.landscape
        for action in actions:
            if isinstance(action, PlaceWorker):
                total = landscape.total_with((*workers, action.zone))
            elif isinstance(action, MoveWorker):
                moved = list(workers)
                moved.remove(action.source)
                total = landscape.total_with((*moved, action.target))
            else:
                total = landscape.total_with(workers)
            noisy = total + rng.gauss(0.0, 2.5)
            if noisy > best_total:
                best, best_total = Turn(placement, action), noisy
    assert best is not None
    return best


# -- strong ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Outlook:
    """What the rest of the game holds: rounds left after this one, terrain shares unseen."""

    rounds_left: int
    field: float
    forest: float
    water: float
    hut: float

    @classmethod
    def of(cls, unseen: Collection[Card], rounds_left: int) -> _Outlook:
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


def _strong_choices(
    board: Board,
    card: Card,
    variants: Variants,
    unseen: Collection[Card],
    seed: int,
    weights: _Weights,
    also: Turn | None = None,
) -> list[tuple[float, Turn]]:
    # The best few turns on the evaluation (and ``also``), valued again by the expected
    # evaluation after the best reply to each of a sample of next cards; best first.
    ranked = _strong_ranked(board, card, variants, unseen, weights)
    rounds_left = ROUNDS - len(board.cards) - 1
    if rounds_left <= 0 or weights.candidates <= 1 or not unseen:
        return ranked
    best = ranked[0][0]
    if weights.per_placement:
        taken: Counter[Placement] = Counter()
        shortlist = []
        for entry in ranked:
            placement = entry[1].placement
            if entry[0] < best - weights.margin:
                break
            if placement not in taken and len(taken) == weights.candidates:
                continue
            if taken[placement] < weights.per_placement:
                taken[placement] += 1
                shortlist.append(entry)
    else:
        shortlist = [
            entry for entry in ranked[: weights.candidates] if entry[0] >= best - weights.margin
        ]
    if also is None and len(shortlist) <= 1:
        return ranked
    # As many next cards as the budget buys, the reply's placements being about as many as
    # this round's; counted before ``also`` joins, so an assessment sees the bot's cards.
    placements = len({turn.placement for _, turn in shortlist})
    turns = placements if weights.per_placement else len(shortlist)
    work = turns * len(board.legal_placements(variants))
    count = max(weights.samples, weights.budget // work)
    if also is not None and all(turn != also for _, turn in shortlist):
        shortlist.append(next(entry for entry in ranked if entry[1] == also))
    pool = sorted(unseen, key=lambda c: c.number)
    nexts = _rng(seed, board, card).sample(pool, min(count, len(pool)))
    outlooks = [
        _Outlook.of([c for c in pool if c.number != n.number], rounds_left - 1) for n in nexts
    ]
    # Turns with the same placement leave the same landscape: their replies share its work.
    afters = [board.play(card, turn, variants) for _, turn in shortlist]
    groups: dict[Placement, list[int]] = {}
    for k, (_, turn) in enumerate(shortlist):
        groups.setdefault(turn.placement, []).append(k)
    sums = [0.0] * len(shortlist)
    for group in groups.values():
        boards = [afters[k] for k in group]
        for n, outlook in zip(nexts, outlooks, strict=True):
            values = _best_values(boards, n, variants, outlook, weights)
            for k, value in zip(group, values, strict=True):
                sums[k] += value
    valued = [(total / len(nexts), turn) for total, (_, turn) in zip(sums, shortlist, strict=True)]
    order = sorted(range(len(valued)), key=lambda k: -valued[k][0])
    return [valued[k] for k in order]


def _strong_ranked(
    board: Board,
    card: Card,
    variants: Variants,
    unseen: Collection[Card],
    weights: _Weights,
) -> list[tuple[float, Turn]]:
    # Every legal turn with its value, best first; ties keep ``iter_turns`` order.
    outlook = _Outlook.of(unseen, ROUNDS - len(board.cards) - 1)
    evaluated = _evaluated(board, card, variants, outlook, weights)
    order = sorted(range(len(evaluated)), key=lambda k: -evaluated[k][0])
    return [evaluated[k] for k in order]


def _evaluated(
    board: Board, card: Card, variants: Variants, outlook: _Outlook, weights: _Weights
) -> list[tuple[float, Turn]]:
    # Every legal turn in ``Board.iter_turns`` order with the evaluation after it.
    result: list[tuple[float, Turn]] = []
    moves: _MoveCache = {}
    rounds_left = outlook.rounds_left
    reserve = weights.reserve_end + (weights.reserve - weights.reserve_end) * (rounds_left - 1) / (
        ROUNDS - 2
    )
    for placement in board.legal_placements(variants):
        after = board._with_card(card, placement)
        worth = _worth(after, outlook, weights)
        region_of, _ = after.landscape._region_scorer()
        occupied = Counter(map(region_of, after.workers))
        base = sum(worth[r] for r in occupied)
        supply = after.supply
        spare = len(after.workers) - len(occupied)
        for action in after._worker_actions(variants, moves):
            total = base
            left_supply = supply
            extra = spare
            if isinstance(action, PlaceWorker):
                left_supply -= 1
                if region_of(action.zone) in occupied:
                    extra += 1
                else:
                    total += worth[region_of(action.zone)]
            elif isinstance(action, MoveWorker):
                source = region_of(action.source)
                if occupied[source] == 1:
                    total -= worth[source]
                else:
                    extra -= 1
                if region_of(action.target) in occupied:
                    extra += 1
                else:
                    total += worth[region_of(action.target)]
            if rounds_left:
                total += reserve * min(left_supply, rounds_left)
                total += weights.spare * extra
            result.append((total, Turn(placement, action)))
    return result


def _best_values(
    boards: Sequence[Board], card: Card, variants: Variants, outlook: _Outlook, weights: _Weights
) -> list[float]:
    # For boards with the same cards (their workers may differ), the value of the best turn
    # ``_evaluated`` lists for each, without listing the turns: a worker's move is worth as
    # much as its target's region, so targets count by region, not zone. The landscape
    # after each placement, its regions and their worth are the boards' to share.
    best = [float("-inf")] * len(boards)
    rounds_left = outlook.rounds_left
    reserve = weights.reserve_end + (weights.reserve - weights.reserve_end) * (rounds_left - 1) / (
        ROUNDS - 2
    )
    spare_weight = weights.spare
    ferryman = variants.ferryman
    for placement in boards[0].legal_placements(variants):
        after = boards[0]._with_card(card, placement)
        landscape = after.landscape
        regions = landscape._analysis()
        worth = _worth(after, outlook, weights)
        region_of = regions.region_of
        top, left, width = landscape.top, landscape.left, landscape.width
        new_regions = [
            region_of[(r - top) * width + c - left]
            for (r, c), _ in card.placed_zones(placement.card_at, placement.rotation)
        ]
        for k, board in enumerate(boards):
            workers = board.workers
            occupied = Counter(region_of[(r - top) * width + c - left] for r, c in workers)
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
                targets = regions.neighbours[own]
                if ferryman:
                    targets = set(targets)
                    for water in regions.neighbours[own]:
                        if regions.terrain[water] == _WATER and water in occupied:
                            targets |= regions.neighbours[water]
                    targets.discard(own)
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
                    total += spare_weight * extra
                if total > value:
                    value = total
            best[k] = value
    return best


_STEPS: tuple[Point, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _worth(board: Board, outlook: _Outlook, weights: _Weights) -> list[float]:
    # Each region's points now plus, while rounds remain, the growth it may still expect:
    # by terrain per open zone beside it, for a tower per open zone in its lines of sight.
    landscape = board.landscape
    regions = landscape._analysis()
    worth = [float(v) for v in regions.value]
    rounds_left = outlook.rounds_left
    if not rounds_left:
        return worth
    rows = [placed.card_at[0] for placed in board.cards]
    cols = [placed.card_at[1] for placed in board.cards]
    # Zones where a card may still lie keep the landscape within 4x4 cards. The grid lies
    # inside that window, so its open zones are its empty ones and those just outside it.
    lo_r, hi_r = 2 * (max(rows) - 3), 2 * (min(rows) + 3) + 1
    lo_c, hi_c = 2 * (max(cols) - 3), 2 * (min(cols) + 3) + 1
    top, left, height, width = landscape.top, landscape.left, landscape.height, landscape.width
    empty_cells = (hi_r - lo_r + 1) * (hi_c - lo_c + 1) - 4 * len(rows)
    fill = min(1.0, 4 * rounds_left / max(1, empty_cells)) ** weights.fill_power
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
    growth = {_FIELD: weights.grow_field, _FOREST: weights.grow_forest, _WATER: weights.grow_water}
    grid = landscape._terrain
    for region, kind in enumerate(regions.terrain):
        if kind == _TOWER:
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
                if _TOWER in line:
                    seen += line[: line.index(_TOWER)].count(_EMPTY)
                else:
                    seen += line.count(_EMPTY) + outside
            worth[region] += weights.grow_tower * fill * seen
            continue
        m = masks[region]
        beside = (
            (m >> width) | (m << width) | ((m & not_first) >> 1) | ((m & not_last) << 1)
        ) & empty
        frontier = beside.bit_count()
        for edge in beyond:
            frontier += (m & edge).bit_count()
        worth[region] += growth[kind] * fill * frontier
    return worth


@lru_cache(maxsize=64)
def _edge_masks(height: int, width: int) -> tuple[int, int, int, int, int]:
    # A grid's zones as bits (row-major, as ``_Regions.masks``): all, top row, bottom row,
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
