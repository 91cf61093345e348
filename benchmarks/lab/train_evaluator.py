"""Learn the evaluation of ``rules.evaluation.LearnedWeights`` by self-play.

    python benchmarks/lab/train_evaluator.py --backward [--minutes 55] [--games 150] [--width 3]
        [--nexts 3] [--window 2] [--ridge 0.01] [--epsilon 0.1] [--out PATH] [--log PATH]
    python benchmarks/lab/train_evaluator.py [--minutes 60] [--games 24] [--out PATH] [--log PATH]
    python benchmarks/lab/train_evaluator.py --plot [--logs PATH ...] [--svg PATH]

The value of an afterstate (the board after a turn) is linear in a few features per scored
region and per worker (``rules.evaluation.FEATURES``), with its own coefficients for each
number of rounds left (a *stage*). Training starts from the hand-tuned evaluation in that
shape and repeats *generations* of ``--games`` solo deals (fresh seeds from 1,000,000,
never the benchmark's 0-999; standard half of them, each other variant a sixth) played
one-ply on the current coefficients, exploring on ``--epsilon`` of the moves.

``--backward`` (fitted value iteration): each move keeps the chosen afterstate and
``--width`` others of the best ten turns; after a generation every stage is fitted again,
from one round left up to fifteen, by ridge regression (pulled towards the current
coefficients) on the last ``--window`` generations' afterstates of that stage, each with
the target: the mean over ``--nexts`` of its unseen cards of the best reply's value on the
stages already fitted (with no round left, the exact score). No target leans on a
coefficient still to be fitted.

Without it (the first runs): the best ``--width`` turns of each move get the mean over
``--nexts`` next cards of the best reply's value on the current coefficients, and every
stage is refitted at once.

Pure Python, one process, deterministic for the same arguments; the weights are written
after every generation (``*.last.json`` beside ``--out``, and with ``--backward`` each
generation's as ``*.g<N>.json``, to compare them on more deals), so a stopped run leaves its
last ones. The coefficients play 96 held-out standard deals (seeds 5,000-5,095) one-ply,
greedily: the training curve; ``--out`` gets the coefficients that scored best there.

``--plot`` draws that curve from one or more logs as an SVG.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import ROUNDS, Board, Card, Turn, Variants, load_deck
from rules.evaluation import (
    FEATURES,
    WEIGHTS_PATH,
    LearnedWeights,
    Outlook,
    afterstate_features,
    best_values,
    value_turns,
)

HERE = Path(__file__).resolve().parent
CYCLE = (
    Variants(),
    Variants(diagonal=True),
    Variants(),
    Variants(ferryman=True),
    Variants(),
    Variants(diagonal=True, ferryman=True),
)
HELD_OUT = range(5000, 5096)

#: Per stage: (features, target) of the afterstates of a generation.
Samples = list[list[tuple[list[float], float]]]


@dataclass
class Move:
    """One move of a deal played one-ply: the position, every turn valued, the one chosen."""

    board: Board
    card: Card
    unseen: list[Card]
    outlook: Outlook
    valued: list[tuple[float, Turn]]
    #: Indexes of ``valued``, best first; ``pick`` the one played.
    order: list[int]
    pick: int
    #: The deal's own random draws for exploring (and for what the caller samples).
    explore: random.Random

    def after(self, i: int, variants: Variants) -> Board:
        return self.board.play(self.card, self.valued[i][1], variants)


def one_ply(
    weights: LearnedWeights,
    variants: Variants,
    seed: int,
    epsilon: float,
    visit: Callable[[Move], None] = lambda _move: None,
) -> int:
    """Deal ``seed`` played one-ply on ``weights``, a random turn among the best four on an
    ``epsilon`` share of moves; ``visit`` sees each move before it is played. Returns the
    final score."""
    deck = load_deck()
    numbers = deck.deal(random.Random(seed))
    explore = random.Random(f"explore:{seed}")
    board = Board()
    for k, number in enumerate(numbers):
        card = deck.card(number)
        unseen = [c for c in deck if c.number not in numbers[: k + 1]]
        outlook = Outlook.of(unseen, ROUNDS - k - 1)
        valued = value_turns(board, card, variants, outlook, weights)
        order = sorted(range(len(valued)), key=lambda i: -valued[i][0])
        pick = order[0]
        if epsilon and explore.random() < epsilon:
            pick = explore.choice(order[:4])
        visit(Move(board, card, unseen, outlook, valued, order, pick, explore))
        board = board.play(card, valued[pick][1], variants)
    return board.landscape.score().total


def play(
    weights: LearnedWeights,
    variants: Variants,
    seed: int,
    epsilon: float,
    width: int = 0,
    nexts: int = 0,
) -> tuple[int, Samples]:
    """One deal played one-ply on ``weights``: its final score and, with ``width``, the
    targets of the ``width`` best afterstates of each move (the expected value of the best
    reply to ``nexts`` sampled next cards)."""
    samples: Samples = [[] for _ in range(ROUNDS)]

    def visit(move: Move) -> None:
        outlook = move.outlook
        if not width or not outlook.rounds_left:
            return
        # The best turns and as many others at random: the fit must also hold where
        # the one-ply's maximum looks, not only where the policy goes.
        order, explore = move.order, move.explore
        rest = order[width // 2 :]
        others = explore.sample(rest, min(len(rest), width - width // 2))
        shortlist = dict.fromkeys([move.pick, *order[: width // 2], *others])
        afters = [move.after(i, variants) for i in shortlist]
        cards = explore.sample(move.unseen, min(nexts, len(move.unseen)))
        sums = [0.0] * len(afters)
        for following in cards:
            later = Outlook.of([c for c in move.unseen if c != following], outlook.rounds_left - 1)
            for j, after in enumerate(afters):
                sums[j] += best_values([after], following, variants, later, weights)[0]
        for j, after in enumerate(afters):
            features = afterstate_features(after, outlook)
            samples[outlook.rounds_left].append((features, sums[j] / len(cards)))

    return one_ply(weights, variants, seed, epsilon, visit), samples


#: Per stage: the afterstates to fit, each with the cards still unseen and the variants.
States = list[list[tuple[Board, list[Card], Variants]]]


def collect(
    weights: LearnedWeights, variants: Variants, seed: int, epsilon: float, extra: int
) -> tuple[int, States]:
    """One deal played one-ply on ``weights`` (a random turn among the best four on an
    ``epsilon`` share of moves): its final score and, per stage, the chosen afterstates and
    ``extra`` others from the best ten turns of each move (where the one-ply's maximum
    looks, so the fit must hold there too)."""
    states: States = [[] for _ in range(ROUNDS)]

    def visit(move: Move) -> None:
        if not move.outlook.rounds_left:
            return
        best = move.order[1:10]
        others = move.explore.sample(best, min(extra, len(best)))
        for i in dict.fromkeys([move.pick, *others]):
            states[move.outlook.rounds_left].append(
                (move.after(i, variants), move.unseen, variants)
            )

    return one_ply(weights, variants, seed, epsilon, visit), states


def fit_backwards(
    weights: LearnedWeights, states: States, nexts: int, ridge: float, seed: int
) -> LearnedWeights:
    """Each stage's coefficients fitted in turn from the last round back: an afterstate's
    target is the mean over ``nexts`` of its unseen cards (drawn at random) of the best
    reply's value on the stages already fitted (with no round left, the exact score), so
    no target leans on a coefficient still to be fitted."""
    stages = list(weights.stages)
    draw = random.Random(f"targets:{seed}")
    for stage in range(1, ROUNDS):
        fitted = LearnedWeights(tuple(stages))
        rows = []
        for after, unseen, variants in states[stage]:
            cards = draw.sample(unseen, min(nexts, len(unseen)))
            total = 0.0
            for following in cards:
                later = Outlook.of([c for c in unseen if c != following], stage - 1)
                total += best_values([after], following, variants, later, fitted)[0]
            outlook = Outlook.of(unseen, stage)
            rows.append((afterstate_features(after, outlook), total / len(cards)))
        if rows:
            stages[stage] = tuple(_ridge(rows, list(stages[stage]), ridge))
    return LearnedWeights(tuple(stages))


def refit(weights: LearnedWeights, history: list[Samples], ridge: float) -> LearnedWeights:
    """Each stage's coefficients by ridge regression towards the current ones."""
    stages = [weights.stages[0]]
    for stage in range(1, ROUNDS):
        rows = [row for samples in history for row in samples[stage]]
        prior = list(weights.stages[stage])
        stages.append(tuple(_ridge(rows, prior, ridge)) if rows else tuple(prior))
    return LearnedWeights(tuple(stages))


def _ridge(rows: list[tuple[list[float], float]], prior: list[float], ridge: float) -> list[float]:
    # (X'X + ridge I) w = X'y + ridge prior, scaled by the number of rows.
    n = len(rows)
    a = [[0.0] * FEATURES for _ in range(FEATURES)]
    b = [0.0] * FEATURES
    for x, y in rows:
        for i, xi in enumerate(x):
            if xi:
                b[i] += xi * y / n
                ai = a[i]
                for j, xj in enumerate(x):
                    if xj:
                        ai[j] += xi * xj / n
    for i in range(FEATURES):
        a[i][i] += ridge
        b[i] += ridge * prior[i]
    return solve(a, b)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    # Gaussian elimination with partial pivoting; ``a`` is positive definite (ridge).
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def held_out(weights: LearnedWeights) -> float:
    return statistics.fmean(play(weights, Variants(), seed, 0.0)[0] for seed in HELD_OUT)


def write_weights(weights: LearnedWeights, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(weights.to_json(), indent=1) + "\n", encoding="utf-8")
    temporary.replace(path)


def train(args: argparse.Namespace) -> None:
    weights = LearnedWeights.from_hand()
    if args.start:
        weights = LearnedWeights.from_json(json.loads(Path(args.start).read_text()))
    log = Path(args.log)
    log.write_text("")
    deadline = time.monotonic() + args.minutes * 60
    history: list[Samples] = []
    games = 0
    generation = 0
    cpu = time.process_time()

    def record(entry: dict[str, object]) -> None:
        entry = {"generation": generation, "games": games} | entry
        entry["cpu_s"] = round(time.process_time() - cpu)
        with log.open("a") as out:
            out.write(json.dumps(entry) + "\n")
        print(json.dumps(entry), flush=True)

    best = held_out(weights)
    record({"held_out": best})
    if args.backward:
        backward(args, weights, best, record)
        return
    while time.monotonic() < deadline and generation < args.generations:
        generation += 1
        finals: dict[str, list[int]] = {"standard": [], "all": []}
        merged: Samples = [[] for _ in range(ROUNDS)]
        for g in range(args.games):
            seed = args.seed + games + g
            variants = CYCLE[(games + g) % len(CYCLE)]
            final, samples = play(weights, variants, seed, args.epsilon, args.width, args.nexts)
            finals["all"].append(final)
            if variants == Variants():
                finals["standard"].append(final)
            for stage in range(ROUNDS):
                merged[stage] += samples[stage]
        games += args.games
        history = [*history, merged][-args.window :]
        weights = refit(weights, history, args.ridge)
        write_weights(weights, Path(args.out).with_suffix(".last.json"))
        entry: dict[str, object] = {
            "self_play_standard": round(statistics.fmean(finals["standard"]), 3),
            "self_play_all": round(statistics.fmean(finals["all"]), 3),
        }
        if generation % args.eval_every == 0:
            entry["held_out"] = score = held_out(weights)
            if score > best:
                best = score
                write_weights(weights, Path(args.out))
        record(entry)


def backward(
    args: argparse.Namespace,
    weights: LearnedWeights,
    best: float,
    record: Callable[[dict[str, object]], None],
) -> None:
    """Generations of ``--games`` deals collected on the current coefficients, then every
    stage fitted again from the last round back on the last ``--window`` generations'
    afterstates (``fit_backwards``)."""
    deadline = time.monotonic() + args.minutes * 60
    window: list[States] = []
    games = 0
    for generation in range(1, args.generations + 1):
        if time.monotonic() >= deadline:
            break
        finals: list[int] = []
        states: States = [[] for _ in range(ROUNDS)]
        for g in range(args.games):
            variants = CYCLE[(games + g) % len(CYCLE)]
            seed = args.seed + games + g
            final, found = collect(weights, variants, seed, args.epsilon, args.width)
            if variants == Variants():
                finals.append(final)
            for stage in range(ROUNDS):
                states[stage] += found[stage]
        games += args.games
        window = [*window, states][-args.window :]
        merged: States = [[s for w in window for s in w[stage]] for stage in range(ROUNDS)]
        weights = fit_backwards(weights, merged, args.nexts, args.ridge, generation)
        write_weights(weights, Path(args.out).with_suffix(".last.json"))
        write_weights(weights, Path(args.out).with_suffix(f".g{generation}.json"))
        score = held_out(weights)
        if score > best:
            best = score
            write_weights(weights, Path(args.out))
        record(
            {
                "generation": generation,
                "games": games,
                "afterstates": sum(map(len, merged)),
                "self_play_standard": round(statistics.fmean(finals), 3),
                "held_out": score,
            }
        )


def plot(args: argparse.Namespace) -> None:
    """The held-out mean against games of self-play, one line a log, as a small SVG."""
    series = {}
    for log in args.logs or [args.log]:
        entries = [json.loads(line) for line in Path(log).read_text().splitlines() if line]
        series[Path(log).stem] = [(e["games"], e["held_out"]) for e in entries if "held_out" in e]
    points = [p for s in series.values() for p in s]
    x_max = max(1, max(x for x, _ in points))
    y_lo = min(y for _, y in points) // 1 - 1
    y_hi = max(y for _, y in points) // 1 + 2
    w, h, pad = 640, 360, 50

    def at(x: float, y: float) -> str:
        return (
            f"{pad + (w - 2 * pad) * x / x_max:.1f},"
            f"{h - pad - (h - 2 * pad) * (y - y_lo) / (y_hi - y_lo):.1f}"
        )

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2}" y="20" text-anchor="middle">Learned evaluation: held-out mean '
        "score (one-ply, 96 deals) against games of self-play</text>",
        f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="black"/>',
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="black"/>',
        f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">games of self-play '
        f"(0 to {x_max})</text>",
    ]
    for y in range(int(y_lo), int(y_hi) + 1):
        x0, y0 = at(0, y).split(",")
        parts.append(f'<text x="{pad - 6}" y="{y0}" text-anchor="end">{y}</text>')
        parts.append(f'<line x1="{x0}" y1="{y0}" x2="{w - pad}" y2="{y0}" stroke="#ddd"/>')
    colours = ("#c0392b", "#2471a3", "#7f8c8d", "#229954", "#8e44ad", "#d68910")
    for row, (name, values) in enumerate(series.items()):
        colour = colours[row % len(colours)]
        if values:
            path = " ".join(at(x, y) for x, y in values)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}"/>')
        parts.append(
            f'<text x="{w - pad}" y="{pad + 14 * row}" fill="{colour}" '
            f'text-anchor="end">{name}</text>'
        )
    parts.append("</svg>")
    Path(args.svg).write_text("\n".join(parts) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--generations", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--width", type=int, default=6)
    parser.add_argument("--nexts", type=int, default=3)
    parser.add_argument("--epsilon", type=float, default=0.05)
    parser.add_argument("--window", type=int, default=8)
    parser.add_argument("--ridge", type=float, default=30.0)
    parser.add_argument("--eval-every", type=int, default=2)
    parser.add_argument("--start", default="", help="weights JSON to start from")
    parser.add_argument("--out", default=str(WEIGHTS_PATH))
    parser.add_argument("--log", default=str(HERE / "training" / "train_evaluator.log"))
    parser.add_argument(
        "--backward", action="store_true", help="fit the stages from the last round back"
    )
    parser.add_argument("--plot", action="store_true")
    parser.add_argument("--logs", nargs="*", default=[], help="logs to plot (default --log)")
    parser.add_argument("--svg", default=str(HERE / "training_curve.svg"))
    args = parser.parse_args()
    if args.plot:
        plot(args)
    else:
        train(args)


if __name__ == "__main__":
    main()
