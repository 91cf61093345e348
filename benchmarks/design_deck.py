"""How the standard deck was designed: a seeded search for a deck that meets docs/rules.md.

    python benchmarks/design_deck.py survey [--candidates 8] [--games 100] [--jobs 2]
    python benchmarks/design_deck.py choose [--candidates 40] [--games 200] [--write]

A *composition* fixes how many cards carry a tower, how many field, water and forest
zones the deck has (or leaves each zone to chance), how many cards carry no, one or two
huts, and whether huts stand on the shore. A *candidate* is one deck drawn with that
composition from ``random.Random(candidate)``. The reference player's mean over seeded
solo games measures a deck. ``rules/decks/README.md`` has the results.

``survey`` measures several candidates of every composition in ``COMPOSITIONS``: a
composition is worth choosing only if its candidates are centred on the target, so that
the chosen deck is typical of its recipe rather than a lucky draw. ``choose`` takes
``STANDARD`` and returns the first candidate whose mean lies within ``TARGET ± TOLERANCE``;
``--write`` stores it as ``rules/decks/standard.json``. Confirm with ``calibrate_deck.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.calibrate_deck import calibrate
from rules import DEFAULT_DECK_PATH, Card, Deck, Terrain, Zone
from rules.deck import DECK_FORMAT, DECK_SIZE

#: The middle of the rulebook's "good" band (35–41), where a plain greedy player belongs.
TARGET, TOLERANCE = 38.0, 0.5
#: Seeds of the games that measure a candidate; ``calibrate_deck.py`` uses others (0…).
MEASURE_SEED = 10_000
_PLAIN = (Terrain.FIELD, Terrain.WATER, Terrain.FOREST)


@dataclass(frozen=True)
class Composition:
    """The recipe of a deck: cards with a tower, the other terrains, and the huts."""

    name: str
    towers: int
    hutless: int
    double_huts: int
    #: Huts stand on a field or forest zone beside water on the same card, when there is one.
    shore: bool = True
    #: Field, water and forest zones in the whole deck; ``None``: each zone drawn at random.
    mix: tuple[int, int, int] | None = None

    def __post_init__(self) -> None:
        if self.mix is not None:
            assert sum(self.mix) == 4 * DECK_SIZE - self.towers, f"{self.name}: mix"

    @property
    def huts(self) -> int:
        """Huts in the whole deck."""
        return DECK_SIZE - self.hutless + self.double_huts


#: What the survey tried, in the order of the tuning history in ``rules/decks/README.md``.
COMPOSITIONS = (
    Composition("first draft", towers=12, hutless=6, double_huts=6),
    Composition("fewer double huts", towers=12, hutless=6, double_huts=2),
    Composition("single huts", towers=12, hutless=6, double_huts=0),
    Composition("more hutless", towers=12, hutless=10, double_huts=0),
    Composition("half hutless", towers=12, hutless=12, double_huts=0),
    Composition("huts inland", towers=12, hutless=6, double_huts=6, shore=False),
    Composition("fewer towers", towers=8, hutless=6, double_huts=6),
    Composition("more towers", towers=16, hutless=6, double_huts=6),
    Composition("most towers", towers=20, hutless=6, double_huts=6),
    # Woodcutters and watchmen earn most of the points: forests are the lever.
    Composition("even mix", towers=12, hutless=6, double_huts=6, mix=(28, 28, 28)),
    Composition("fewer forests", towers=12, hutless=6, double_huts=6, mix=(32, 32, 20)),
    Composition("scarce forests", towers=12, hutless=6, double_huts=6, mix=(34, 34, 16)),
    Composition("few forests, more water", towers=12, hutless=6, double_huts=6, mix=(30, 36, 18)),
    Composition("few forests, more towers", towers=16, hutless=6, double_huts=6, mix=(32, 32, 16)),
    Composition("few forests, 14 towers", towers=14, hutless=6, double_huts=6, mix=(32, 34, 16)),
    Composition("fewest forests", towers=12, hutless=6, double_huts=6, mix=(34, 36, 14)),
    Composition(
        "fewest forests, more towers", towers=16, hutless=6, double_huts=6, mix=(32, 34, 14)
    ),
    Composition(
        "few forests, more towers, fewer huts",
        towers=16,
        hutless=8,
        double_huts=2,
        mix=(32, 32, 16),
    ),
)

#: The composition the standard deck is drawn from: the survey's best-centred recipe.
STANDARD = next(c for c in COMPOSITIONS if c.name == "few forests, more towers, fewer huts")


def draw_deck(composition: Composition, rng: random.Random) -> Deck:
    """A deck of 24 distinct cards of this composition that meets every docs/rules.md rule."""
    while True:  # with an exact mix, the last cards can be left no valid draw: start over
        deck = _try_deck(composition, rng)
        if deck is not None:
            return deck


def _try_deck(composition: Composition, rng: random.Random) -> Deck | None:
    plan = (
        [0] * composition.hutless
        + [2] * composition.double_huts
        + [1] * (DECK_SIZE - composition.hutless - composition.double_huts)
    )
    rng.shuffle(plan)  # huts independent of towers, which go on the first cards
    pool = [t for t, n in zip(_PLAIN, composition.mix or (0, 0, 0), strict=True) for _ in range(n)]
    cards: list[Card] = []
    seen: set[tuple[Zone, ...]] = set()
    tries = 0
    while len(cards) < DECK_SIZE:
        tries += 1
        if tries > 10_000:
            return None
        index = len(cards)
        plain = 3 if index < composition.towers else 4
        if composition.mix is None:
            terrains = [rng.choice(_PLAIN) for _ in range(plain)]
            taken: list[int] = []
        else:
            taken = rng.sample(range(len(pool)), plain)
            terrains = [pool[i] for i in taken]
        if index < composition.towers:
            terrains.insert(rng.randrange(4), Terrain.TOWER)
        if max(Counter(terrains).values()) > 2:
            continue
        land = [i for i, t in enumerate(terrains) if t.can_have_hut]
        if len(land) < plan[index]:
            continue
        if composition.shore:
            # Zone i touches zones i-1 and i+1 (mod 4) at an edge: those are its shore.
            shore = [i for i in land if Terrain.WATER in (terrains[i - 1], terrains[(i + 1) % 4])]
            inland = [i for i in land if i not in shore]
            rng.shuffle(shore)
            rng.shuffle(inland)
            chosen = (shore + inland)[: plan[index]]
        else:
            chosen = rng.sample(land, plan[index])
        zones = tuple(Zone(t, i in chosen) for i, t in enumerate(terrains))
        turns = {zones[k:] + zones[:k] for k in range(4)}
        if turns & seen:
            continue
        seen |= turns
        for i in sorted(taken, reverse=True):
            del pool[i]
        cards.append(Card(index + 1, (zones[0], zones[1], zones[2], zones[3])))
    return Deck(cards, name="Limes Online standard deck")


def deck_json_text(deck: Deck) -> str:
    """The deck file's text: one card per line, so diffs stay small."""
    lines = [
        f'    {{"number": {card.number}, "zones": {json.dumps([z.token for z in card.zones])}}}'
        for card in deck
    ]
    return (
        f'{{\n  "format": "{DECK_FORMAT}",\n  "name": {json.dumps(deck.name)},\n  "cards": [\n'
        + ",\n".join(lines)
        + "\n  ]\n}\n"
    )


def measure(job: tuple[Composition, int, int]) -> float:
    """The reference player's mean with one candidate deck."""
    composition, candidate, games = job
    deck = draw_deck(composition, random.Random(candidate))
    return statistics.fmean(calibrate(deck, games, seed=MEASURE_SEED))


def survey(candidates: int, games: int, jobs: int, first: int) -> None:
    print(f"{candidates} candidates per composition, {games} games each\n")
    print(
        "| composition | towers | field/water/forest | hutless | 2-hut | huts | shore "
        "| mean of means | range |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with Pool(jobs) as pool:
        for c in COMPOSITIONS[first:]:
            means = pool.map(measure, [(c, k, games) for k in range(candidates)])
            mix = "/".join(map(str, c.mix)) if c.mix else "random"
            print(
                f"| {c.name} | {c.towers} | {mix} | {c.hutless} | {c.double_huts} | {c.huts} "
                f"| {'yes' if c.shore else 'no'} | {statistics.fmean(means):.1f} "
                f"| {min(means):.1f}–{max(means):.1f} |",
                flush=True,
            )


def choose(candidates: int, games: int, write: bool) -> None:
    print(f"composition: {STANDARD}")
    for candidate in range(candidates):
        mean = measure((STANDARD, candidate, games))
        print(f"candidate {candidate:3d}: mean {mean:.2f}", flush=True)
        if abs(mean - TARGET) <= TOLERANCE:
            print(f"chosen: candidate {candidate}")
            if write:
                deck = draw_deck(STANDARD, random.Random(candidate))
                DEFAULT_DECK_PATH.write_text(deck_json_text(deck), encoding="utf-8")
                print(f"written to {DEFAULT_DECK_PATH}")
            return
    sys.exit("no candidate met the target; widen the search")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    survey_parser = commands.add_parser("survey", help="measure every composition")
    survey_parser.add_argument("--candidates", type=int, default=8)
    survey_parser.add_argument("--games", type=int, default=100)
    survey_parser.add_argument("--jobs", type=int, default=2)
    survey_parser.add_argument("--first", type=int, default=0, help="skip compositions before")
    choose_parser = commands.add_parser("choose", help="draw the standard deck")
    choose_parser.add_argument("--candidates", type=int, default=40)
    choose_parser.add_argument("--games", type=int, default=200)
    choose_parser.add_argument("--write", action="store_true", help="store it as the standard")
    args = parser.parse_args()
    if args.command == "survey":
        survey(args.candidates, args.games, args.jobs, args.first)
    else:
        choose(args.candidates, args.games, args.write)


if __name__ == "__main__":
    main()
