"""How the standard deck was designed: a seeded search for a deck that meets RULINGS.md.

    python benchmarks/design_deck.py [--candidates 40] [--games 200] [--write]

Each candidate deck is drawn from ``random.Random(candidate)`` with a fixed composition
(below); the reference player plays ``--games`` solo games with it; the first candidate
whose mean lies within ``TARGET ± TOLERANCE`` wins. ``--write`` stores it as
``rules/decks/standard.json``. Confirm the result with ``calibrate_deck.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.calibrate_deck import calibrate
from rules import DEFAULT_DECK_PATH, Card, Deck, Terrain, Zone
from rules.deck import DECK_FORMAT

#: The middle of the rulebook's "good" band (35–41), where a plain greedy player belongs.
TARGET, TOLERANCE = 38.0, 0.5
#: Cards with a tower zone (at most one each, RULINGS.md).
TOWER_CARDS = 12
#: Cards with no hut; the others get one hut, and every third of those two.
HUTLESS_CARDS = 6
_PLAIN = (Terrain.FIELD, Terrain.WATER, Terrain.FOREST)
# Clockwise neighbours on a card: zone i touches zones i-1 and i+1 (mod 4) at an edge.


def draw_deck(rng: random.Random) -> Deck:
    """A deck of 24 distinct cards that meets every constraint of RULINGS.md."""
    cards: list[Card] = []
    seen: set[tuple[Zone, ...]] = set()
    while len(cards) < 24:
        index = len(cards)
        terrains = [rng.choice(_PLAIN) for _ in range(4)]
        if index < TOWER_CARDS:
            terrains[rng.randrange(4)] = Terrain.TOWER
        if max(Counter(terrains).values()) > 2:
            continue
        huts = [False] * 4
        if index >= HUTLESS_CARDS:
            # Ours: a hut stands on the shore, a field or forest zone beside water if any.
            shore = [
                i
                for i, t in enumerate(terrains)
                if t.can_have_hut and Terrain.WATER in (terrains[i - 1], terrains[(i + 1) % 4])
            ]
            land = shore or [i for i, t in enumerate(terrains) if t.can_have_hut]
            for i in rng.sample(land, min(len(land), 2 if index % 3 == 0 else 1)):
                huts[i] = True
        zones = tuple(Zone(t, h) for t, h in zip(terrains, huts, strict=True))
        turns = {zones[k:] + zones[:k] for k in range(4)}
        if turns & seen:
            continue
        seen |= turns
        cards.append(Card(index + 1, (zones[0], zones[1], zones[2], zones[3])))
    return Deck(cards, name="Limes Online standard deck")


def deck_json(deck: Deck) -> dict[str, object]:
    """The deck in the deck-file format."""
    return {
        "format": DECK_FORMAT,
        "name": deck.name,
        "cards": [{"number": c.number, "zones": [z.token for z in c.zones]} for c in deck],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=40)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--write", action="store_true", help="store the winner as the standard")
    args = parser.parse_args()
    for candidate in range(args.candidates):
        deck = draw_deck(random.Random(candidate))
        mean = statistics.fmean(calibrate(deck, args.games, seed=10_000))
        print(f"candidate {candidate:3d}: mean {mean:.2f}", flush=True)
        if abs(mean - TARGET) <= TOLERANCE:
            print(f"chosen: candidate {candidate}")
            if args.write:
                text = json.dumps(deck_json(deck), indent=None, separators=(", ", ": "))
                # One card per line keeps the file readable and its diffs small.
                text = text.replace('{"number"', '\n    {"number"').replace("]}]}", "]}\n  ]}")
                DEFAULT_DECK_PATH.write_text(text + "\n", encoding="utf-8")
                print(f"written to {DEFAULT_DECK_PATH}")
            return
    sys.exit("no candidate met the target; widen the search")


if __name__ == "__main__":
    main()
