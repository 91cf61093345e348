"""Screen features for the learned evaluation in minutes, before an hour of training (#24).

    python benchmarks/lab/evaluator_screen.py collect [--deals 720] [--seed 910000] [--jobs 2]
        [--out afterstates.json]
    python benchmarks/lab/evaluator_screen.py screen [afterstates.json ...] [--ridge 0.001]

``collect`` plays standard deals one-ply on the shipped evaluation (a random turn among the
best four on a tenth of the moves, as training does) and keeps, for each move, the chosen
afterstate and three others of the best ten turns, each with its *exact* one-step target:
the mean over every unseen next card of the best reply's value on the shipped evaluation
(with no round left, the final score). About 2.4 s of CPU a deal.

``screen`` fits each feature family per stage (rounds left) by ridge regression *within
moves*: features and targets less the mean of their move, since only the differences
between the turns of one move decide which is played. It fits on the deals whose seed is
not a multiple of 5 and reports, on the others, the within-move RMSE of the target and the
regret: the target's points lost by playing the afterstate the fit ranks first among those
kept, summed over the 15 stages (points a game, on these shortlists).

A family that leaves the within-move RMSE where ``base`` has it cannot change the play;
one that lowers it may still not (benchmarks/lab/NOTEBOOK.md, fifth pass: the free-region
features lowered it 4 % here and measured nothing in play). Add a family to ``FAMILIES``:
a function of the afterstate and its outlook, no recollection needed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.lab.train_evaluator import Move, one_ply, solve
from rules import ROUNDS, Board, Variants, load_deck
from rules.board import PlacedCard
from rules.evaluation import (
    Outlook,
    _edge_masks,
    afterstate_features,
    best_values,
    load_weights,
    region_growth,
)
from rules.landscape import TOWER, Regions

#: A kept afterstate: its cards (number, card position, rotation), its workers, its target.
Afterstate = tuple[list[tuple[int, tuple[int, int], int]], list[tuple[int, int]], float]
#: A move: its deal's seed, the rounds left after it, the unseen cards, its afterstates.
Record = tuple[int, int, list[int], list[Afterstate]]

DECK = load_deck()
OTHERS = 3


def collect_deal(seed: int) -> list[Record]:
    """Deal ``seed`` played one-ply on the shipped evaluation: each move's kept afterstates
    with their exact one-step targets."""
    weights = load_weights()
    variants = Variants()
    records: list[Record] = []

    def visit(move: Move) -> None:
        stage = move.outlook.rounds_left
        if not stage:
            return
        best = move.order[1:10]
        kept: list[Afterstate] = []
        for i in dict.fromkeys([move.pick, *move.explore.sample(best, min(OTHERS, len(best)))]):
            after = move.after(i, variants)
            total = 0.0
            for following in move.unseen:
                later = Outlook.of([c for c in move.unseen if c != following], stage - 1)
                total += best_values([after], following, variants, later, weights)[0]
            kept.append((placed_cards(after), list(after.workers), total / len(move.unseen)))
        records.append((seed, stage, [c.number for c in move.unseen], kept))

    one_ply(weights, variants, seed, 0.1, visit)
    return records


def collect(args: argparse.Namespace) -> None:
    seeds = range(args.seed, args.seed + args.deals)
    records: list[Record] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for k, found in enumerate(pool.map(collect_deal, seeds), 1):
            records += found
            if k % 20 == 0:
                print(f"{k} deals", flush=True)
    Path(args.out).write_text(json.dumps(records))
    print(f"{len(records)} moves, {sum(len(r[3]) for r in records)} afterstates: {args.out}")


# -- feature families ------------------------------------------------------------------------


def _beside(regions: Regions, region: int, width: int, height: int) -> int:
    # The empty zones of the grid beside ``region`` (bits, as ``Regions.masks``).
    full, _, _, first, last = _edge_masks(height, width)
    mask = regions.masks[region]
    empty = full & ~sum(regions.masks)
    spread = (mask >> width) | (mask << width)
    spread |= ((mask & ~first) >> 1) | ((mask & ~last) << 1)
    return spread & full & empty


def grid(board: Board, outlook: Outlook) -> list[float]:
    """Per terrain, over the scored regions: open zones inside the grid (a card will lie
    there) and beyond it (one may), each scaled by the fill share, and the card positions
    they lie in; the grid's empty card positions and how close it is to 4x4 cards."""
    landscape = board.landscape
    regions = landscape.regions()
    growth = region_growth(board, max(1, outlook.rounds_left))
    rows = [p.card_at[0] for p in board.cards]
    cols = [p.card_at[1] for p in board.cards]
    high, wide = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
    features = [0.0] * 16
    for region in {regions.region_at(point) for point in board.workers}:
        kind = growth.kinds[region]
        if kind == TOWER:
            continue
        inside = _beside(regions, region, landscape.width, landscape.height)
        zones = inside.bit_count()
        positions = set()
        while inside:
            low = inside & -inside
            inside ^= low
            row, col = divmod(low.bit_length() - 1, landscape.width)
            positions.add(((landscape.top + row) // 2, (landscape.left + col) // 2))
        beyond = growth.open[region] - zones
        features[4 * kind] += zones * growth.fill
        features[4 * kind + 1] += beyond * growth.fill
        features[4 * kind + 2] += len(positions)
        features[4 * kind + 3] += beyond * (8 - high - wide) / 6
    features += [high * wide - len(board.cards), (high == 4) + (wide == 4)]
    return features


def free(board: Board, outlook: Outlook) -> list[float]:
    """While a worker is in reserve, per terrain the best unscored region's points and open
    zones times the fill share; the reserve squared (``limes-evaluator/3`` of commit
    36b4f5e, trained and measured worthless in play: the screen's calibration)."""
    regions = board.landscape.regions()
    growth = region_growth(board, max(1, outlook.rounds_left))
    scored = {regions.region_at(point) for point in board.workers}
    reserve = min(board.supply, outlook.rounds_left)
    features = [0.0] * 8
    if reserve:
        best: dict[int, tuple[float, int]] = {}
        for region, kind in enumerate(growth.kinds):
            rank = 1.000001 * growth.points[region] + growth.open[region] * growth.fill
            if region not in scored and (kind not in best or rank > best[kind][0]):
                best[kind] = (rank, region)
        for kind, (_, region) in best.items():
            features[2 * kind] = growth.points[region]
            features[2 * kind + 1] = growth.open[region] * growth.fill
    return [*features, reserve * reserve]


_POINTS_BIN = (0, 1, 2, 3, 3, 4, 4, 5, 5, 5)
_OPEN_BIN = (0, 1, 2, 3, 3, 4, 4, 4)


def table(board: Board, outlook: Outlook) -> list[float]:
    """A scored region's worth as a table, not a line: per terrain, the scored regions
    counted by (points, open zones), each in one of 7 x 6 bins."""
    regions = board.landscape.regions()
    growth = region_growth(board, max(1, outlook.rounds_left))
    features = [0.0] * (4 * 42)
    for region in {regions.region_at(point) for point in board.workers}:
        points, zones = growth.points[region], growth.open[region]
        p = _POINTS_BIN[points] if points < len(_POINTS_BIN) else 6
        o = _OPEN_BIN[zones] if zones < len(_OPEN_BIN) else 5
        features[42 * growth.kinds[region] + 6 * p + o] += 1
    return features


def contention(board: Board, outlook: Outlook) -> list[float]:
    """Per terrain, the open zones of the grid beside a scored region that another scored
    region borders too (one card there cannot grow both the same way), times the fill."""
    landscape = board.landscape
    regions = landscape.regions()
    growth = region_growth(board, max(1, outlook.rounds_left))
    besides = {
        region: _beside(regions, region, landscape.width, landscape.height)
        for region in {regions.region_at(point) for point in board.workers}
        if growth.kinds[region] != TOWER
    }
    features = [0.0] * 4
    for region, mask in besides.items():
        others = 0
        for other, beside in besides.items():
            if other != region:
                others |= beside
        features[growth.kinds[region]] += (mask & others).bit_count() * growth.fill
    return features


Family = Callable[[Board, Outlook], list[float]]
FAMILIES: dict[str, tuple[Family, ...]] = {
    "base": (),
    "+grid": (grid,),
    "+free": (free,),
    "+table": (table,),
    "+contention": (contention,),
    "+all": (grid, free, table, contention),
}


# -- the screen ------------------------------------------------------------------------------


def _base(board: Board, outlook: Outlook) -> list[float]:
    # The shipped features without the constant (it cancels within a move).
    return afterstate_features(board, outlook)[:-1]


def placed_cards(board: Board) -> list[tuple[int, tuple[int, int], int]]:
    """A board's cards as the label files keep them: number, card position, rotation."""
    return [(p.card.number, p.card_at, p.rotation) for p in board.cards]


def _board(cards: list[tuple[int, tuple[int, int], int]], workers: list[tuple[int, int]]) -> Board:
    # ``placed_cards`` and the workers back into a board (JSON made the tuples lists).
    placed = (PlacedCard(DECK.card(n), (at[0], at[1]), rotation) for n, at, rotation in cards)
    return Board(tuple(placed), tuple((r, c) for r, c in workers))


#: Per move: each kept afterstate's features (within the move, less their mean) and target.
Rows = list[tuple[list[float], float]]
#: Per move: each kept afterstate's base features and every family's, and its target.
Blocks = list[tuple[list[float], dict[Family, list[float]], float]]


def _blocks(record: Record) -> Blocks:
    # Each afterstate's features, every family's computed once for all the sets using it.
    _, stage, unseen, kept = record
    outlook = Outlook.of([DECK.card(n) for n in unseen], stage)
    families = {family for chosen in FAMILIES.values() for family in chosen}
    blocks = []
    for cards, workers, target in kept:
        board = _board(cards, workers)
        extra = {family: family(board, outlook) for family in families}
        blocks.append((_base(board, outlook), extra, target))
    return blocks


def _move_rows(blocks: Blocks, families: tuple[Family, ...]) -> Rows:
    xs = [[*base, *(v for family in families for v in extra[family])] for base, extra, _ in blocks]
    ys = [target for _, _, target in blocks]
    means = [statistics.fmean(column) for column in zip(*xs, strict=True)]
    mean_y = statistics.fmean(ys)
    return [
        ([a - m for a, m in zip(x, means, strict=True)], y - mean_y)
        for x, y in zip(xs, ys, strict=True)
    ]


def fit(moves: list[Rows], ridge: float) -> list[float]:
    """Ridge regression on the within-move rows, the features scaled to unit spread first
    (so ``ridge`` means the same for every family); the coefficients of unscaled rows."""
    rows = [row for move in moves for row in move]
    size = len(rows[0][0])
    spread = [max(1e-9, statistics.fmean(x[i] * x[i] for x, _ in rows) ** 0.5) for i in range(size)]
    a = [[0.0] * size for _ in range(size)]
    b = [0.0] * size
    for x, y in rows:
        z = [v / s for v, s in zip(x, spread, strict=True)]
        for i, zi in enumerate(z):
            if zi:
                b[i] += zi * y
                row = a[i]
                for j, zj in enumerate(z):
                    row[j] += zi * zj
    for i in range(size):
        a[i][i] += ridge * len(rows)
    return [c / s for c, s in zip(solve(a, b), spread, strict=True)]


def screen(args: argparse.Namespace) -> None:
    records: list[Record] = []
    for path in args.data:
        records += json.loads(Path(path).read_text())
    deals = len({r[0] for r in records})
    print(f"{len(records)} moves of {deals} deals; fit on 4/5 of the deals, scored on 1/5")
    print("within-move RMSE / regret a move, by rounds left")
    print("stage " + "".join(f"{name:>17}" for name in FAMILIES))
    totals = {name: [0.0, 0.0] for name in FAMILIES}
    for stage in range(1, ROUNDS):
        moves = [(r[0], _blocks(r)) for r in records if r[1] == stage and len(r[3]) > 1]
        line = f"{stage:5d} "
        for name, families in FAMILIES.items():
            train = [_move_rows(blocks, families) for seed, blocks in moves if seed % 5]
            test = [_move_rows(blocks, families) for seed, blocks in moves if not seed % 5]
            coefficients = fit(train, args.ridge)
            squares, count, regret = 0.0, 0, 0.0
            for rows in test:
                guess = [sum(c * v for c, v in zip(coefficients, x, strict=True)) for x, _ in rows]
                truth = [y for _, y in rows]
                squares += sum((g - t) ** 2 for g, t in zip(guess, truth, strict=True))
                count += len(rows)
                regret += max(truth) - truth[guess.index(max(guess))]
            rmse = (squares / count) ** 0.5
            totals[name][0] += rmse / (ROUNDS - 1)
            totals[name][1] += regret / len(test)
            line += f"    {rmse:.3f} / {regret / len(test):.3f}"
        print(line, flush=True)
    print("mean  " + "".join(f"    {rmse:.3f} / {regret:.2f}" for rmse, regret in totals.values()))
    print("(the regret's last figure: summed over the 15 stages, points a game)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="play deals and keep afterstates with targets")
    gather.add_argument("--deals", type=int, default=720)
    gather.add_argument("--seed", type=int, default=910_000)
    gather.add_argument("--jobs", type=int, default=2)
    gather.add_argument("--out", default="afterstates.json")
    check = commands.add_parser("screen", help="fit each feature family and score it")
    check.add_argument("data", nargs="*", default=["afterstates.json"], help="collected files")
    check.add_argument("--ridge", type=float, default=0.001)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args)
    else:
        screen(args)


if __name__ == "__main__":
    main()
