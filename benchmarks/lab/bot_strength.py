"""How well and how fast a bot level plays: seeded solo deals, the reference player beside.

    python benchmarks/lab/bot_strength.py [--games 1000] [--level strong]
        [--variants standard,diagonal,ferryman,both] [--jobs 2] [--seed 0]
        [--weights candidates=4,samples=8] [--evaluation PATH] [--totals PATH]
    python benchmarks/lab/bot_strength.py --protocol [--games 20] [--level strong] ...
    python benchmarks/lab/bot_strength.py --analysis [--games 50]

Game ``i`` deals its 16 cards with ``random.Random(seed + i)``, as
``calibrate_deck.py`` does, so the reference figures of the standard deck match its table.
For each variant the level and the reference player play the same deals; the report gives
the mean with its standard error, the share of each band of the solo table and the
milliseconds per move (wall clock around ``bot_turn``, median and p95; with ``--jobs 2``
the jobs share the machine's cores, so the figures include that contention) and the CPU
milliseconds per move (``time.process_time``, median, p95 and p99), which other load on the
machine does not inflate. ``--weights`` overrides fields of a searching level's ``Search``
or of its evaluation (a ``HandWeights``'s fields, when it plays on that) for the run,
``--evaluation`` its learned weights (a file ``benchmarks/lab/train_evaluator.py`` wrote), to
compare settings on the same deals;
``--totals`` writes every deal's totals as JSON, for paired comparisons between runs.

``--analysis`` times the post-game analysis of a seat (CPU seconds), on the reference
player's games of the deals.

``--protocol`` plays the deals through ``python -m rules bot`` instead, one subprocess per
variant, and times each line from written to answer read (FORMATS.md section 4); every
game's answers are replayed and scored, so an illegal answer would stop the run.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import (
    Board,
    SoloRating,
    Variants,
    load_deck,
    reference_turn,
    solo_rating,
    turn_from_json,
)
from rules.bot import BotLevel, Search, assess_turn, bot_turn, search_of, search_turn

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = {
    "standard": Variants(),
    "diagonal": Variants(diagonal=True),
    "ferryman": Variants(ferryman=True),
    "both": Variants(diagonal=True, ferryman=True),
}


Result = tuple[int, int, list[float], list[float]]

#: The search the level plays with in this run when ``--weights`` or ``--evaluation`` change
#: it (``set_weights``; the workers fork after it is set); ``None``: the level's own.
_SEARCH: Search | None = None


def play_deal(level: str, variants: Variants, seed: int) -> Result:
    """The level's and the reference player's totals on deal ``seed``, and the level's
    seconds per move, wall clock and CPU."""
    deck = load_deck()
    numbers = deck.deal(random.Random(seed))
    board, reference = Board(), Board()
    seconds, cpu = [], []
    for k, number in enumerate(numbers):
        card = deck.card(number)
        unseen = [c for c in deck if c.number not in numbers[: k + 1]]
        started, started_cpu = time.perf_counter(), time.process_time()
        if _SEARCH is None:
            turn = bot_turn(board, card, unseen=unseen, variants=variants, level=level, seed=seed)
        else:
            turn = search_turn(
                board, card, unseen=unseen, search=_SEARCH, variants=variants, seed=seed
            )
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        board = board.play(card, turn, variants)  # raises on an illegal turn
        reference = reference.play(card, reference_turn(reference, card, variants), variants)
    return board.landscape.score().total, reference.landscape.score().total, seconds, cpu


def _play(args: tuple[str, str, int]) -> Result:
    level, variant, seed = args
    return play_deal(level, VARIANTS[variant], seed)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def bands(totals: list[int]) -> str:
    shares = [sum(solo_rating(t) is r for t in totals) / len(totals) for r in SoloRating]
    return " ".join(f"{share:6.1%}" for share in shares)


def summary(
    name: str, totals: list[int], seconds: list[float] | None, cpu: list[float] | None = None
) -> str:
    mean = statistics.fmean(totals)
    se = statistics.stdev(totals) / len(totals) ** 0.5 if len(totals) > 1 else 0.0
    timing = ""
    if seconds:
        timing = f"  {percentile(seconds, 50) * 1e3:7.1f} {percentile(seconds, 95) * 1e3:7.1f}"
    if cpu:
        timing += f"  cpu {percentile(cpu, 50) * 1e3:7.1f} {percentile(cpu, 95) * 1e3:7.1f}"
        timing += f" {percentile(cpu, 99) * 1e3:7.1f}"
    return f"| {name:<20} | {mean:6.2f} | {se:4.2f} | {bands(totals)} |{timing}"


def header() -> str:
    names = " ".join(f"{r.lowest:>5}+" for r in SoloRating)
    return (
        f"| {'variant / player':<20} |   mean |   SE | bands {names} "
        "| ms/move median p95, cpu median p95 p99\n"
        f"|{'-' * 22}|--------|------|{'-' * 50}|"
    )


def set_weights(level: str, spec: str, evaluation: str = "") -> str:
    """Override fields of a searching level's search or evaluation (``name=value,...``),
    and its learned weights with a weights file; the workers fork after this, so they play
    with them. Returns the search in effect."""
    global _SEARCH
    from rules.evaluation import LearnedWeights

    search = search_of(BotLevel(level))
    if evaluation:
        weights = LearnedWeights.from_json(json.loads(Path(evaluation).read_text()))
        search = dataclasses.replace(search, evaluation=weights)
    if spec:
        changes: dict[str, float | int] = {}
        evaluation_changes: dict[str, float | int] = {}
        for item in spec.split(","):
            name, value = (part.strip() for part in item.split("="))
            if hasattr(search, name):
                changes[name] = type(getattr(search, name))(value)
            else:
                evaluation_changes[name] = type(getattr(search.evaluation, name))(value)
        if evaluation_changes:
            changes["evaluation"] = dataclasses.replace(search.evaluation, **evaluation_changes)  # type: ignore[type-var, assignment]
        search = dataclasses.replace(search, **changes)  # type: ignore[arg-type]
    if evaluation or spec:
        _SEARCH = search
    return repr(search)


def strength(args: argparse.Namespace) -> None:
    print(f"level {args.level}, {args.games} deals from seed {args.seed}, jobs {args.jobs}")
    if args.level in ("strong", "master"):
        print(set_weights(args.level, args.weights, args.evaluation))
    everything: dict[str, list[list[int]]] = {}
    print(header())
    for variant in args.variants.split(","):
        started = time.perf_counter()
        work = [(args.level, variant, args.seed + i) for i in range(args.games)]
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(_play, work, chunksize=max(1, len(work) // (8 * args.jobs))))
        totals = [r[0] for r in results]
        reference = [r[1] for r in results]
        seconds = [s for r in results for s in r[2]]
        cpu = [s for r in results for s in r[3]]
        everything[variant] = [totals, reference]
        print(summary(f"{variant}: {args.level}", totals, seconds, cpu))
        print(summary(f"{variant}: reference", reference, None))
        better = sum(t > r for t, r in zip(totals, reference, strict=True)) / len(totals)
        print(
            f"|   {variant}: {args.level} beats reference on {better:.0%} of deals; "
            f"{time.perf_counter() - started:.0f} s"
        )
    if args.totals:
        Path(args.totals).write_text(json.dumps(everything))


def analysis(args: argparse.Namespace) -> None:
    """CPU seconds of a post-game analysis of one seat (``assess_turn`` on each of its 16
    rounds, what ``games.analysis.assess_seat`` calls), on the reference player's games."""
    deck = load_deck()
    per_seat = []
    for i in range(args.games):
        numbers = deck.deal(random.Random(args.seed + i))
        board = Board()
        started = time.process_time()
        for k, number in enumerate(numbers):
            card = deck.card(number)
            unseen = [c for c in deck if c.number not in numbers[: k + 1]]
            played = reference_turn(board, card)
            assess_turn(board, card, played, unseen=unseen, seed=args.seed + i)
            board = board.play(card, played)
        per_seat.append(time.process_time() - started)
    print(
        f"analysis of {args.games} seats: CPU s a seat median {percentile(per_seat, 50):.3f}, "
        f"p95 {percentile(per_seat, 95):.3f}, max {max(per_seat):.3f}"
    )


def protocol(args: argparse.Namespace) -> None:
    deck = load_deck()
    print(f"python -m rules bot --level {args.level} --seed {args.seed}, {args.games} games")
    print("| variant | games | mean | ms/line median | p95 | max |")
    print("|---|---|---|---|---|---|")
    for variant in args.variants.split(","):
        variants = VARIANTS[variant]
        process = subprocess.Popen(
            [sys.executable, "-m", "rules", "bot", "--level", args.level, "--seed", str(args.seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            text=True,
        )
        assert process.stdin is not None and process.stdout is not None
        seconds, totals = [], []
        for i in range(args.games):
            numbers = deck.deal(random.Random(args.seed + i))
            turns: list[object] = []
            board = Board()
            for k, number in enumerate(numbers):
                line = json.dumps(
                    {
                        "format": "limes-bot/1",
                        "variants": variants.names(),
                        "cards": list(numbers[: k + 1]),
                        "turns": turns,
                    }
                )
                started = time.perf_counter()
                process.stdin.write(line + "\n")
                process.stdin.flush()
                answer = json.loads(process.stdout.readline())
                seconds.append(time.perf_counter() - started)
                board = board.play(deck.card(number), turn_from_json(answer), variants)
                turns.append(answer)
            totals.append(board.landscape.score().total)
        process.stdin.close()
        process.wait()
        print(
            f"| {variant} | {args.games} | {statistics.fmean(totals):.2f} "
            f"| {percentile(seconds, 50) * 1e3:.1f} | {percentile(seconds, 95) * 1e3:.1f} "
            f"| {max(seconds) * 1e3:.1f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--level", default="strong")
    parser.add_argument("--variants", default="standard,diagonal,ferryman,both")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--weights", default="", help="search settings, name=value,...")
    parser.add_argument("--evaluation", default="", help="learned weights file to play with")
    parser.add_argument("--totals", default="", help="write every deal's totals as JSON")
    parser.add_argument("--protocol", action="store_true", help="time lines through the CLI")
    parser.add_argument("--analysis", action="store_true", help="CPU of a seat's analysis")
    args = parser.parse_args()
    if args.protocol:
        protocol(args)
    elif args.analysis:
        analysis(args)
    else:
        strength(args)


if __name__ == "__main__":
    main()
