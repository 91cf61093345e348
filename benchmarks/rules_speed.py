"""How fast the rules engine is: scoring, legal moves and whole reference games.

    python benchmarks/rules_speed.py [--repeat 5]

Run by hand; prints a table with each figure beside its goal. Each figure is the best of
``--repeat`` timings (the least disturbed by the rest of the machine), per operation.
Positions come from seeded reference games, so every run measures the same work.
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.calibrate_deck import play_reference_game
from rules import Board, Card, Game, Landscape, Turn, Variants, load_deck, reference_turn

BOTH = Variants(diagonal=True, ferryman=True)
#: The reference games whose rounds are searched for the slowest move generation.
GAME_SEEDS = (1, 2, 3, 4)


def reference_boards(seed: int, variants: Variants) -> tuple[list[Board], list[Card]]:
    """The board before each round of a reference solo game, and each round's card."""
    game = Game.new(["solo"], random.Random(seed), variants=variants, deck=load_deck())
    boards, cards = [], []
    while not game.is_over:
        card = game.current_card
        assert card is not None
        boards.append(game.boards["solo"])
        cards.append(card)
        game.play("solo", reference_turn(game.boards["solo"], card, variants))
    boards.append(game.boards["solo"])
    return boards, cards


def all_turns(board: Board, card: Card) -> Callable[[], list[Turn]]:
    """A function generating every legal turn of the round, both variants on."""
    return lambda: list(board.iter_turns(card, BOTH))


def per_call(function: Callable[[], object], repeat: int, budget: float = 0.1) -> float:
    """Seconds per call: best of ``repeat`` runs of about ``budget`` seconds each."""
    timer = timeit.Timer(function)
    once = min(timer.repeat(3, 1))
    number = max(1, int(budget / max(once, 1e-9)))
    return min(timer.repeat(repeat, number)) / number


def row(what: str, seconds: float, goal: float | None, note: str = "") -> str:
    figure = _human(seconds)
    verdict = "" if goal is None else ("ok" if seconds <= goal else "MISSED")
    target = "" if goal is None else f"≤ {_human(goal)}"
    return f"| {what} | {figure} | {target} | {verdict} | {note} |"


def _human(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    repeat = args.repeat
    deck = load_deck()

    boards, cards = reference_boards(seed=1, variants=BOTH)
    final = boards[-1].landscape
    zones = dict(final.iter_zones())
    workers = final.workers
    text = final.to_zone_map()
    final.score()  # analysed once, as a board's landscape is after its first use

    print(f"Python {sys.version.split()[0]}, deck {deck.name!r}\n")
    print("| measurement | time | goal | | note |")
    print("|---|---|---|---|---|")
    print(
        row(
            "score a new 16-card landscape (regions analysed afresh)",
            per_call(lambda: Landscape.from_zones(zones, workers).score(), repeat),
            100e-6,
            f"{len(zones)} zones, {len(workers)} workers",
        )
    )
    print(row("score an analysed landscape", per_call(final.score, repeat), None))
    print(
        row(
            "parse a zone map and score it",
            per_call(lambda: Landscape.from_zone_map(text).score(), repeat),
            None,
        )
    )

    # Legal moves, both variants on: round 9 of one game (mid-game, the usual worst),
    # then the slowest of every round of several games, found quickly and timed again.
    mid_board, mid_card = boards[8], cards[8]
    print(
        row(
            "all legal turns of round 9 (both variants)",
            per_call(all_turns(mid_board, mid_card), repeat),
            5e-3,
            f"{len(all_turns(mid_board, mid_card)())} turns",
        )
    )
    rounds = [
        (board, card)
        for seed in GAME_SEEDS
        for board, card in zip(*reference_boards(seed, BOTH), strict=False)
    ]
    slowest = max(rounds, key=lambda r: per_call(all_turns(*r), 1, 0.01))
    label = f"the slowest of {len(rounds)} rounds (round {len(slowest[0].cards) + 1})"
    print(
        row(
            f"all legal turns of {label}",
            per_call(all_turns(*slowest), repeat),
            5e-3,
            f"{len(all_turns(*slowest)())} turns",
        )
    )
    print(
        row(
            "reference player's turn, round 9 (both variants)",
            per_call(lambda: reference_turn(mid_board, mid_card, BOTH), repeat),
            None,
        )
    )
    print(
        row(
            "a whole reference solo game (standard rules)",
            per_call(lambda: play_reference_game(deck, 1), repeat, 0.3),
            0.5,
            "16 rounds, greedy over every legal turn",
        )
    )


if __name__ == "__main__":
    main()
