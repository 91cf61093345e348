"""Tournaments of the winter computer players, seats swapped, with CPU per move.

    python benchmarks/winter_bots.py [--games 500] [--pairs strong:normal,normal:easy]

Run by hand (``nice -n 10``: it is long). Each pair plays ``--games`` two-player games on
seeded deals, each deal twice with the seats swapped. Prints, for each pair, the first
level's wins (a tie counts half), the mean scores and the CPU time per move
(``time.process_time``) of each level, p50 and p95.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from winter import Game, deal
from winter.bot import BOT_LEVELS, bot_turn


def play(levels: tuple[str, str], seed: int, cpu: dict[str, list[float]]) -> tuple[int, ...]:
    """The final totals of one game of ``levels`` (by seat) on the deal ``seed``."""
    game = Game(["first", "second"], order=deal(seed))
    while game.drawn is not None:
        level = levels[game.to_move]
        start = time.process_time()
        turn = bot_turn(level, game)
        cpu[level].append(time.process_time() - start)
        game.play(turn)
    return game.totals()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def tournament(a: str, b: str, games: int, first_seed: int) -> None:
    cpu: dict[str, list[float]] = {a: [], b: []}
    wins = 0.0
    points: dict[str, list[int]] = {a: [], b: []}
    for number in range(games):
        seed = first_seed + number // 2
        seats = (a, b) if number % 2 == 0 else (b, a)
        totals = play(seats, seed, cpu)
        mine = totals[seats.index(a)]
        theirs = totals[seats.index(b)]
        points[a].append(mine)
        points[b].append(theirs)
        wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    print(
        f"{a} vs {b}: {games} games, {a} wins {wins / games:.1%} (ties half); "
        f"mean scores {a} {statistics.mean(points[a]):.1f}, {b} {statistics.mean(points[b]):.1f}"
    )
    for level in (a, b):
        times = cpu[level]
        print(
            f"  {level:>6} CPU a move: p50 {percentile(times, 0.5) * 1000:.1f} ms, "
            f"p95 {percentile(times, 0.95) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
            f"({len(times)} moves)"
        )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games a pair (even)")
    parser.add_argument("--pairs", default="strong:normal,normal:easy")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    args = parser.parse_args()
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        assert a in BOT_LEVELS and b in BOT_LEVELS, pair
        tournament(a, b, args.games, args.seed)


if __name__ == "__main__":
    main()
