"""Calibrate a deck: the reference player plays seeded solo games; print the distribution.

    python benchmarks/calibrate_deck.py [--games 1000] [--deck PATH] [--seed 0]

The reference player is ``rules.reference_turn`` (one-ply greedy on the score preview).
Game ``i`` deals its cards with ``random.Random(seed + i)``, so a run is repeatable.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import (
    Deck,
    Game,
    Profession,
    Score,
    SoloRating,
    load_deck,
    reference_turn,
    solo_rating,
)


def reference_score(deck: Deck, seed: int) -> Score:
    """The reference player's final score in the solo game dealt by ``seed``."""
    game = Game.new(["solo"], random.Random(seed), deck=deck)
    while not game.is_over:
        card = game.current_card
        assert card is not None
        game.play("solo", reference_turn(game.boards["solo"], card, game.variants))
    return game.scores()["solo"]


def play_reference_game(deck: Deck, seed: int) -> int:
    """The reference player's total in the solo game dealt by ``seed``."""
    return reference_score(deck, seed).total


def calibrate(deck: Deck, games: int, seed: int = 0) -> list[int]:
    """Totals of ``games`` reference games."""
    return [play_reference_game(deck, seed + i) for i in range(games)]


def report(scores: list[Score]) -> str:
    """The distribution as Markdown, as pasted into ``rules/decks/README.md``."""
    totals = [score.total for score in scores]
    ordered = sorted(totals)

    def percentile(p: float) -> int:
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]

    lines = [
        f"games: {len(totals)}",
        f"mean: {statistics.fmean(totals):.2f}   stdev: {statistics.pstdev(totals):.2f}",
        f"min {ordered[0]} · p10 {percentile(10)} · p25 {percentile(25)} · "
        f"median {percentile(50)} · p75 {percentile(75)} · p90 {percentile(90)} · "
        f"max {ordered[-1]}",
        "",
        "| rating | points | share |",
        "|---|---|---|",
    ]
    for rating in SoloRating:
        share = sum(solo_rating(t) is rating for t in totals) / len(totals)
        high = "" if rating.highest is None else str(rating.highest)
        span = f"{rating.lowest}–{high}" if high else f"{rating.lowest}+"
        lines.append(f"| {rating.label} | {span} | {share:.1%} |")
    lines += ["", "| profession | counted workers a game | points each | points a game |"]
    lines.append("|---|---|---|---|")
    for profession in Profession:
        points = [
            w.points for s in scores for w in s.workers if w.counted and w.profession is profession
        ]
        each = statistics.fmean(points) if points else 0.0
        lines.append(
            f"| {profession.value} | {len(points) / len(scores):.2f} | {each:.2f} "
            f"| {sum(points) / len(scores):.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deck", default=None, help="deck file (default: $LIMES_DECK or standard)")
    args = parser.parse_args()
    deck = load_deck(args.deck)
    started = time.perf_counter()
    scores = [reference_score(deck, args.seed + i) for i in range(args.games)]
    elapsed = time.perf_counter() - started
    print(f"deck: {deck.name}")
    print(report(scores))
    print(f"\n{args.games} games in {elapsed:.1f} s ({elapsed / args.games * 1000:.0f} ms a game)")


if __name__ == "__main__":
    main()
