"""What one more ply would give the strong level: a probe, not a level (issue #24).

    python benchmarks/lab/deeper_search.py [--games 100] [--seed 40000] [--jobs 2]
        [--samples 4] [--margin 2.0] [--rounds-left 15] [--totals PATH]

The strong level ranks its best turns by the expected evaluation after the best reply to a
few next cards (a two-ply). The *three-ply* (``three_ply_choices``, here: no level uses it)
ranks them by the expected value of the strong level's own two-ply choice for each of
``--samples`` next cards: the evaluation one card further on. Its
shortlist: the best two turns of the best four placements within ``--margin`` points of the
best turn; rounds 15 and 16 are the strong level's (round 15 is exact already); with
``--rounds-left N``, only the moves with N rounds left or fewer look further, the others
are the strong level's. Blind to the order of the cards, like every level.

Both play the same deals (deal ``i``: ``random.Random(seed + i)``, as bot_strength.py);
the report gives each mean, the paired difference and the three-ply's CPU a move. If it
gains, a better evaluation has that much to find; what it costs says whether a level could
afford the search itself.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from collections.abc import Collection
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import ROUNDS, Board, Card, Turn, Variants, load_deck

# The lab builds on the strong level's own steps, private to it: the three-ply is the
# strong level's search looking one card further, not a search of its own.
from rules.bot import (
    BotLevel,
    Search,
    _rng,
    _shortlist,
    _strong_choices,
    _strong_ranked,
    _two_ply,
    bot_turn,
    search_of,
)


def three_ply_choices(
    board: Board,
    card: Card,
    variants: Variants,
    unseen: Collection[Card],
    seed: int,
    search: Search,
    *,
    deepest: int,
    margin: float = 2.0,
    also: Turn | None = None,
) -> list[tuple[float, Turn]]:
    """``search``'s choices (``rules.bot._strong_choices``: value and turn, best first),
    except with ``deepest`` rounds left or fewer (and more than ``search.endgame``): then
    each shortlisted turn (within ``margin`` points of the best) is valued by the mean, over
    ``search.samples`` next cards, of the two-ply's value of the best reply (the reply's own
    shortlist valued on the two-ply even when it has one turn, so every value is on the
    same footing)."""
    rounds_left = ROUNDS - len(board.cards) - 1
    if (
        rounds_left <= 0
        or search.candidates <= 1
        or not unseen
        or not max(1, search.endgame) < rounds_left <= deepest
    ):
        return _strong_choices(board, card, variants, unseen, seed, search, also)
    ranked = _strong_ranked(board, card, variants, unseen, search)
    shortlist = _shortlist(ranked, search, margin)
    if also is not None and all(turn != also for _, turn in shortlist):
        shortlist.append(next(entry for entry in ranked if entry[1] == also))
    if len(shortlist) <= 1:
        return ranked
    pool = sorted(unseen, key=lambda c: c.number)
    nexts = _rng(seed, board, card).sample(pool, min(search.samples, len(pool)))
    valued = []
    for _, turn in shortlist:
        after = board.play(card, turn, variants)
        total = 0.0
        for following in nexts:
            rest = [c for c in pool if c.number != following.number]
            replies = _strong_ranked(after, following, variants, rest, search)
            two_ply = _two_ply(
                after, following, variants, rest, seed, search, replies, replies[0][1]
            )
            total += two_ply[0][0]
        valued.append((total / len(nexts), turn))
    valued.sort(key=lambda entry: -entry[0])
    return valued


def play_deal(args: tuple[int, int, float, int]) -> tuple[int, int, list[float]]:
    """Deal ``seed`` played by the strong level and the three-ply: their totals and the
    three-ply's CPU seconds a move."""
    seed, samples, margin, deepest = args
    three_ply = dataclasses.replace(search_of(BotLevel.STRONG), samples=samples)
    deck = load_deck()
    variants = Variants()
    numbers = deck.deal(random.Random(seed))
    strong, deeper = Board(), Board()
    cpu = []
    for k, number in enumerate(numbers):
        card = deck.card(number)
        unseen = [c for c in deck if c.number not in numbers[: k + 1]]
        turn = bot_turn(strong, card, unseen=unseen, variants=variants, seed=seed)
        strong = strong.play(card, turn, variants)
        started = time.process_time()
        choices = three_ply_choices(
            deeper, card, variants, unseen, seed, three_ply, deepest=deepest, margin=margin
        )
        turn = choices[0][1]
        cpu.append(time.process_time() - started)
        deeper = deeper.play(card, turn, variants)
    return strong.landscape.score().total, deeper.landscape.score().total, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=40_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--margin", type=float, default=2.0)
    parser.add_argument("--rounds-left", type=int, default=ROUNDS - 1)
    parser.add_argument("--totals", default="", help="write every deal's totals as JSON")
    args = parser.parse_args()
    work = [(args.seed + i, args.samples, args.margin, args.rounds_left) for i in range(args.games)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play_deal, work))
    strong = [r[0] for r in results]
    deeper = [r[1] for r in results]
    gains = [d - s for s, d in zip(strong, deeper, strict=True)]
    cpu = sorted(1000 * c for r in results for c in r[2])
    print(f"{args.games} standard deals from seed {args.seed}")
    print(f"strong      {statistics.fmean(strong):6.2f}")
    print(f"three-ply   {statistics.fmean(deeper):6.2f}")
    error = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
    print(f"paired      {statistics.fmean(gains):+6.2f} ± {error:.2f}")
    print(
        f"three-ply CPU ms a move: median {statistics.median(cpu):.0f}, "
        f"p95 {cpu[int(0.95 * (len(cpu) - 1))]:.0f}, "
        f"mean {statistics.fmean(cpu):.0f}; {time.perf_counter() - started:.0f} s"
    )
    if args.totals:
        Path(args.totals).write_text(json.dumps({"strong": strong, "deeper": deeper}))


if __name__ == "__main__":
    main()
