"""The deck file: validation of every constraint, and choosing another deck."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules import DEFAULT_DECK_PATH, ROTATIONS, Deck, InvalidInputError, Terrain, load_deck

STANDARD: dict[str, Any] = json.loads(DEFAULT_DECK_PATH.read_text(encoding="utf-8"))


def entry(data: dict[str, Any], number: int) -> dict[str, Any]:
    """The card entry with this number."""
    return next(card for card in data["cards"] if card["number"] == number)


def write_deck(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """A copy of the standard deck file, changed, in a fresh file."""
    data = copy.deepcopy(STANDARD)
    change(data)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def turned(zones: list[str]) -> list[str]:
    return zones[-1:] + zones[:-1]


def hut_on_every_card(data: dict[str, Any]) -> None:
    # 24 distinct cards, each with one hut, and otherwise valid.
    cards: list[list[str]] = []
    for zones in itertools.product(["G*", "G", "W", "F", "T"], repeat=4):
        terrains = Counter(token[0] for token in zones)
        if zones.count("G*") != 1 or max(terrains.values()) > 2 or terrains["T"] > 1:
            continue
        turns = [list(zones[k:] + zones[:k]) for k in range(4)]
        if not any(turn in cards for turn in turns):
            cards.append(list(zones))
    data["cards"] = [{"number": n, "zones": z} for n, z in enumerate(cards[:24], start=1)]


CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    (
        "three of one terrain",
        lambda d: entry(d, 5).update(zones=["G", "G", "G", "W"]),
        "card 5: 3 field zones; at most 2 of one terrain",
    ),
    (
        "two towers",
        lambda d: entry(d, 5).update(zones=["T", "G", "T", "W"]),
        "card 5: at most 1 tower zone per card",
    ),
    (
        "hut on water",
        lambda d: entry(d, 5).update(zones=["W*", "G", "F", "T"]),
        "card 5: a hut cannot stand on water",
    ),
    (
        "hut on a tower",
        lambda d: entry(d, 5).update(zones=["T*", "G", "F", "W"]),
        "card 5: a hut cannot stand on tower",
    ),
    (
        "three huts",
        lambda d: entry(d, 5).update(zones=["G*", "F*", "G*", "W"]),
        "card 5: 3 huts; at most 2 per card",
    ),
    (
        "equal under rotation",
        lambda d: entry(d, 7).update(zones=turned(entry(d, 3)["zones"])),
        "card 7: equal to card 3 turned by some rotation",
    ),
    (
        "number twice",
        lambda d: entry(d, 5).update(number=4),
        "card 4: the number appears twice",
    ),
    (
        "a card missing",
        lambda d: d["cards"].pop(),
        "a deck has 24 cards numbered 1 to 24; this one has 23",
    ),
    (
        "a hut on every card",
        hut_on_every_card,
        "every card has a hut; some cards must have none",
    ),
    (
        "three zones",
        lambda d: entry(d, 5).update(zones=["G", "W", "F"]),
        'card 5: "zones" must list 4 zone tokens',
    ),
    (
        "unknown letter",
        lambda d: entry(d, 5).update(zones=["G", "W", "F", "X"]),
        "card 5: unknown terrain letter 'X'",
    ),
    (
        "wrong format",
        lambda d: d.update(format="limes-deck/9"),
        'a deck file is an object with "format": "limes-deck/1"',
    ),
]


@pytest.mark.parametrize(("change", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_broken_constraint_names_the_card_and_the_rule(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    path = write_deck(tmp_path, change)
    with pytest.raises(InvalidInputError) as caught:
        Deck.from_file(path)
    assert message in str(caught.value)


def test_deck_file_that_is_not_json_is_located(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text('{"format": "limes-deck/1",\n  "cards": [}\n', encoding="utf-8")
    with pytest.raises(InvalidInputError, match="not JSON") as caught:
        Deck.from_file(path)
    assert (caught.value.line, caught.value.column) == (2, 13)
    assert caught.value.located("deck.json").startswith("deck.json:2:13: not JSON")


def test_missing_deck_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="cannot read the deck file"):
        Deck.from_file(tmp_path / "nowhere.json")


def test_standard_deck_meets_every_constraint() -> None:
    deck = load_deck()
    assert [card.number for card in deck] == list(range(1, 25))
    for card in deck:
        terrains = Counter(zone.terrain for zone in card.zones)
        assert max(terrains.values()) <= 2
        assert terrains[Terrain.TOWER] <= 1
        assert sum(zone.hut for zone in card.zones) <= 2
        assert all(zone.terrain.can_have_hut for zone in card.zones if zone.hut)
    assert any(not any(zone.hut for zone in card.zones) for card in deck)
    # No card is another turned: each card's smallest rotation is its own.
    canonical = {min(tuple(z.token for z in card.rotated(r)) for r in ROTATIONS) for card in deck}
    assert len(canonical) == 24


def test_standard_deck_file_is_one_card_per_line() -> None:
    lines = DEFAULT_DECK_PATH.read_text(encoding="utf-8").splitlines()
    assert sum('"number"' in line for line in lines) == 24
    assert all(line == line.rstrip() for line in lines)


def test_limes_deck_selects_another_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def swap_one_and_two(data: dict[str, Any]) -> None:
        data["name"] = "a friend's deck"
        one, two = entry(data, 1), entry(data, 2)
        one["zones"], two["zones"] = two["zones"], one["zones"]

    path = write_deck(tmp_path, swap_one_and_two)
    monkeypatch.setenv("LIMES_DECK", str(path))
    deck = load_deck()
    assert deck.name == "a friend's deck"
    assert deck.card(1).zones == load_deck(DEFAULT_DECK_PATH).card(2).zones


def test_explicit_path_wins_over_limes_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LIMES_DECK", str(tmp_path / "nowhere.json"))
    assert load_deck(DEFAULT_DECK_PATH).name == STANDARD["name"]


def test_deck_deals_sixteen_distinct_cards() -> None:
    dealt = load_deck().deal(random.Random(1))
    assert len(dealt) == 16 and len(set(dealt)) == 16
    assert set(dealt) <= set(range(1, 25))


def test_card_entry_without_a_whole_number_is_named_by_position(tmp_path: Path) -> None:
    path = write_deck(tmp_path, lambda d: d["cards"][2].update(number=True))
    with pytest.raises(InvalidInputError, match='card entry 3: "number" must be a whole number'):
        Deck.from_file(path)
