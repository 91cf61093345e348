"""The deck: loading and validating a deck file, and dealing a game's card sequence."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path

from rules.errors import InvalidInputError
from rules.model import ROUNDS, Card, Terrain, Zone

#: The deck file used unless ``LIMES_DECK`` names another.
DEFAULT_DECK_PATH = Path(__file__).with_name("decks") / "standard.json"

DECK_FORMAT = "limes-deck/1"
DECK_SIZE = 24


class Deck(Sequence[Card]):
    """An ordered, validated set of 24 cards, numbered 1 to 24."""

    def __init__(self, cards: Sequence[Card], *, name: str = "") -> None:
        self.cards = tuple(sorted(cards, key=lambda card: card.number))
        self.name = name
        _validate(self.cards)
        self._by_number = {card.number: card for card in self.cards}

    def __getitem__(self, index: int) -> Card:  # type: ignore[override]
        return self.cards[index]

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def card(self, number: int) -> Card:
        """The card with this number; raises ``InvalidInputError`` for an unknown number."""
        try:
            return self._by_number[number]
        except (KeyError, TypeError):
            raise InvalidInputError(f"there is no card number {number!r} in the deck") from None

    def deal(self, rng: random.Random) -> tuple[int, ...]:
        """Shuffle with ``rng`` and return the numbers of the 16 cards a game reveals."""
        return tuple(rng.sample([card.number for card in self.cards], ROUNDS))

    def to_json(self) -> list[dict[str, object]]:
        """The JSON shape of ``python -m rules deck``."""
        return [
            {
                "number": card.number,
                "zones": [{"terrain": z.terrain.value, "hut": z.hut} for z in card.zones],
            }
            for card in self.cards
        ]

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Deck:
        """Load and validate a deck file; raises ``InvalidInputError`` naming card and rule."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise InvalidInputError(f"cannot read the deck file: {error.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidInputError(
                f"not JSON: {error.msg}", line=error.lineno, column=error.colno
            ) from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: object) -> Deck:
        """Build a deck from the parsed deck file (see ``rules/decks/README.md``)."""
        if not isinstance(data, dict) or data.get("format") != DECK_FORMAT:
            raise InvalidInputError(f'a deck file is an object with "format": "{DECK_FORMAT}"')
        entries = data.get("cards")
        if not isinstance(entries, list):
            raise InvalidInputError('a deck file has a list of "cards"')
        cards = []
        for position, entry in enumerate(entries, start=1):
            number = entry.get("number") if isinstance(entry, dict) else None
            whole = isinstance(number, int) and not isinstance(number, bool)
            label = f"card {number}" if whole else f"card entry {position}"
            zones = entry.get("zones") if isinstance(entry, dict) else None
            if not isinstance(number, int) or isinstance(number, bool):
                raise InvalidInputError(f'{label}: "number" must be a whole number')
            if not isinstance(zones, list) or len(zones) != 4:
                raise InvalidInputError(f'{label}: "zones" must list 4 zone tokens')
            try:
                parsed = tuple(Zone.from_token(str(token)) for token in zones)
            except InvalidInputError as error:
                raise InvalidInputError(f"{label}: {error.message}") from None
            cards.append(Card(number, (parsed[0], parsed[1], parsed[2], parsed[3])))
        return cls(cards, name=str(data.get("name", "")))


def _validate(cards: tuple[Card, ...]) -> None:
    numbers = [card.number for card in cards]
    if numbers != list(range(1, DECK_SIZE + 1)):
        duplicates = sorted(n for n, k in Counter(numbers).items() if k > 1)
        if duplicates:
            raise InvalidInputError(f"card {duplicates[0]}: the number appears twice")
        raise InvalidInputError(
            f"a deck has {DECK_SIZE} cards numbered 1 to {DECK_SIZE}; this one has "
            f"{len(cards)} numbered {numbers[:1] + numbers[-1:]}"
        )
    seen: dict[tuple[Zone, ...], int] = {}
    for card in cards:
        terrains = Counter(zone.terrain for zone in card.zones)
        for terrain, count in terrains.items():
            if count > 2:
                raise InvalidInputError(
                    f"card {card.number}: {count} {terrain.value} zones; at most 2 of one terrain"
                )
        if terrains[Terrain.TOWER] > 1:
            raise InvalidInputError(f"card {card.number}: at most 1 tower zone per card")
        huts = sum(zone.hut for zone in card.zones)
        if huts > 2:
            raise InvalidInputError(f"card {card.number}: {huts} huts; at most 2 per card")
        for rotation in (0, 90, 180, 270):
            turned = card.rotated(rotation)
            if turned in seen:
                raise InvalidInputError(
                    f"card {card.number}: equal to card {seen[turned]} turned by some rotation"
                )
        seen[card.zones] = card.number
    if all(any(zone.hut for zone in card.zones) for card in cards):
        raise InvalidInputError("every card has a hut; some cards must have none")


@cache
def _load_cached(path: str) -> Deck:
    return Deck.from_file(path)


def load_deck(path: str | os.PathLike[str] | None = None) -> Deck:
    """The deck at ``path``, else at ``$LIMES_DECK``, else the standard deck. Cached."""
    chosen = os.fspath(path or os.environ.get("LIMES_DECK") or DEFAULT_DECK_PATH)
    if os.path.isabs(chosen):
        # The web server asks on every page: an absolute path skips resolving it (a
        # system call per part of the path) once it has been loaded.
        return _load_absolute(chosen)
    return _load_cached(str(Path(chosen).resolve()))


@cache
def _load_absolute(path: str) -> Deck:
    return _load_cached(str(Path(path).resolve()))
