"""The master level against the strong level on the same deals: strength and CPU a move.

    python benchmarks/lab/master_strength.py --out PATH [--games 200] [--seed 53000]
        [--budget 0.9] [--replies N]
    python benchmarks/lab/master_strength.py --out PATH --report

Deal ``i`` is ``random.Random(seed + i)`` (as ``bot_strength.py``), standard rules; each is
played by the strong level and by the master (``rules.bot.bot_turn(level="master")``) with
a budget of ``--budget`` CPU seconds a move (``time.process_time``), or, deterministic, of
``--replies`` replies. One process: the budget is CPU time, so a shared machine slows the
run, not the player.

Every finished deal is appended to ``--out`` as one JSON line (seed, both totals, the CPU
seconds of each move of each level), so a run can stop at any time and go on where it
stopped: the deals already in the file are skipped. The report (printed at the end, or
alone with ``--report``) covers whatever the file holds: each level's mean ± standard
error, the paired difference master − strong, and the CPU ms a move (median, p95, mean).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import Board, Variants, load_deck
from rules.bot import Budget, bot_turn


def play_deal(seed: int, budget: Budget) -> dict[str, object]:
    """Deal ``seed`` played by strong and by the master: totals and CPU seconds a move."""
    deck = load_deck()
    variants = Variants()
    numbers = deck.deal(random.Random(seed))
    boards = {"strong": Board(), "master": Board()}
    cpu: dict[str, list[float]] = {"strong": [], "master": []}
    for k, number in enumerate(numbers):
        card = deck.card(number)
        unseen = [c for c in deck if c.number not in numbers[: k + 1]]
        for level, board in boards.items():
            started = time.process_time()
            turn = bot_turn(
                board, card, unseen=unseen, variants=variants, level=level, seed=seed, budget=budget
            )
            cpu[level].append(time.process_time() - started)
            boards[level] = board.play(card, turn, variants)  # raises on an illegal turn
    return {
        "seed": seed,
        "strong": boards["strong"].landscape.score().total,
        "master": boards["master"].landscape.score().total,
        "cpu": cpu,
    }


def _mean_se(values: list[float]) -> str:
    se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):6.2f} ± {se:.2f}"


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(rows: list[dict[str, object]]) -> str:
    """The summary of the deals played so far."""
    if not rows:
        return "no deals played yet"
    strong = [float(row["strong"]) for row in rows]  # type: ignore[arg-type]
    master = [float(row["master"]) for row in rows]  # type: ignore[arg-type]
    paired = [m - s for m, s in zip(master, strong, strict=True)]
    lines = [
        f"{len(rows)} standard deals, seeds {min(r['seed'] for r in rows)}–"  # type: ignore[type-var]
        f"{max(r['seed'] for r in rows)}",  # type: ignore[type-var]
        f"strong   {_mean_se(strong)}",
        f"master   {_mean_se(master)}",
        f"paired   master − strong {_mean_se(paired).strip()} "
        f"({sum(p != 0 for p in paired)} deals differ, master ahead on "
        f"{sum(p > 0 for p in paired)})",
    ]
    for level in ("master", "strong"):
        cpu = [1000 * c for row in rows for c in row["cpu"][level]]  # type: ignore[index]
        lines.append(
            f"{level} CPU ms a move: median {_percentile(cpu, 50):.0f}, "
            f"p95 {_percentile(cpu, 95):.0f}, max {max(cpu):.0f}, mean {statistics.fmean(cpu):.0f}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="the deals' JSON lines (resumed)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=53_000)
    parser.add_argument("--budget", type=float, default=0.9, help="CPU seconds a move")
    parser.add_argument("--replies", type=int, default=None, help="a deterministic budget")
    parser.add_argument("--report", action="store_true", help="only summarise --out")
    args = parser.parse_args()
    path = Path(args.out)
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    if not args.report:
        budget = Budget(seconds=None if args.replies else args.budget, replies=args.replies)
        done = {row["seed"] for row in rows}
        with path.open("a") as out:
            for seed in range(args.seed, args.seed + args.games):
                if seed in done:
                    continue
                row = play_deal(seed, budget)
                out.write(json.dumps(row) + "\n")
                out.flush()
                rows.append(row)
    print(report(rows))


if __name__ == "__main__":
    main()
