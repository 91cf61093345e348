"""The small values the game is made of: terrains, zones, cards, variants and moves."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from rules.errors import InvalidInputError

#: A zone's global ``(row, col)``; see docs/formats.md for how cards map onto zones.
Point: TypeAlias = tuple[int, int]

#: Offsets of a card's four zones, clockwise from top-left.
CARD_ZONE_OFFSETS: tuple[Point, ...] = ((0, 0), (0, 1), (1, 1), (1, 0))

ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)

#: Workers per player; a placed worker never returns to the supply.
WORKERS_PER_PLAYER = 7

#: Rounds in a game; the landscape is then a 4x4 square of cards.
ROUNDS = 16

#: The landscape is never more than this many cards wide or tall.
MAX_SPAN = 4


class Terrain(enum.Enum):
    """A zone's terrain. The value is the name used in JSON."""

    FIELD = "field"
    WATER = "water"
    FOREST = "forest"
    TOWER = "tower"

    @property
    def letter(self) -> str:
        """The zone-map letter: ``G`` (grain), ``W``, ``F`` or ``T``."""
        return _LETTERS[self]

    @property
    def profession(self) -> Profession:
        """The profession of a worker standing on this terrain."""
        return _PROFESSIONS[self]

    @property
    def can_have_hut(self) -> bool:
        """Huts stand only on field and forest zones."""
        return self in (Terrain.FIELD, Terrain.FOREST)

    @classmethod
    def from_letter(cls, letter: str) -> Terrain:
        """The terrain of a zone-map letter; raises ``InvalidInputError`` for another."""
        try:
            return _BY_LETTER[letter]
        except KeyError:
            raise InvalidInputError(f"unknown terrain letter {letter!r}") from None


class Profession(enum.Enum):
    """What a worker does, decided by the terrain of its zone."""

    FARMER = "farmer"
    FISHERMAN = "fisherman"
    WOODCUTTER = "woodcutter"
    WATCHMAN = "watchman"


_LETTERS = {Terrain.FIELD: "G", Terrain.WATER: "W", Terrain.FOREST: "F", Terrain.TOWER: "T"}
_BY_LETTER = {letter: terrain for terrain, letter in _LETTERS.items()}
_PROFESSIONS = {
    Terrain.FIELD: Profession.FARMER,
    Terrain.WATER: Profession.FISHERMAN,
    Terrain.FOREST: Profession.WOODCUTTER,
    Terrain.TOWER: Profession.WATCHMAN,
}


@dataclass(frozen=True, slots=True)
class Zone:
    """A quarter of a card: a terrain, perhaps with a fisherman's hut."""

    terrain: Terrain
    hut: bool = False

    def __post_init__(self) -> None:
        if self.hut and not self.terrain.can_have_hut:
            raise InvalidInputError(f"a hut cannot stand on {self.terrain.value}")

    @property
    def token(self) -> str:
        """The zone-map token without workers, e.g. ``G*``."""
        return self.terrain.letter + ("*" if self.hut else "")

    @classmethod
    def from_token(cls, token: str) -> Zone:
        """Parse ``G``, ``F*``…; raises ``InvalidInputError``."""
        if token not in _ZONES_BY_TOKEN:
            if token[:1] in _BY_LETTER and token[1:] == "*":
                raise InvalidInputError(f"a hut cannot stand on {_BY_LETTER[token[0]].value}")
            if token[:1] not in _BY_LETTER:
                raise InvalidInputError(f"unknown terrain letter {token[:1]!r}")
            raise InvalidInputError(f"malformed zone {token!r}")
        return _ZONES_BY_TOKEN[token]


_ZONES_BY_TOKEN = {
    zone.token: zone
    for terrain in Terrain
    for zone in [Zone(terrain)] + ([Zone(terrain, hut=True)] if terrain.can_have_hut else [])
}


@dataclass(frozen=True, slots=True)
class Card:
    """A numbered landscape card: four zones clockwise from top-left."""

    number: int
    zones: tuple[Zone, Zone, Zone, Zone]

    def rotated(self, rotation: int) -> tuple[Zone, ...]:
        """The zones, clockwise from top-left, after turning the card clockwise.

        >>> card = Card(1, tuple(Zone.from_token(t) for t in ("G", "W", "F", "T")))
        >>> [z.token for z in card.rotated(90)]
        ['T', 'G', 'W', 'F']
        """
        if rotation not in ROTATIONS:
            raise InvalidInputError(f"rotation must be 0, 90, 180 or 270, not {rotation!r}")
        k = rotation // 90
        return self.zones[-k:] + self.zones[:-k] if k else self.zones

    def placed_zones(self, card_at: Point, rotation: int) -> list[tuple[Point, Zone]]:
        """The global zone points and zones of this card at ``card_at``, turned."""
        row, col = card_at
        return [
            ((2 * row + dr, 2 * col + dc), zone)
            for (dr, dc), zone in zip(CARD_ZONE_OFFSETS, self.rotated(rotation), strict=True)
        ]


@dataclass(frozen=True, slots=True)
class Variants:
    """The rulebook's optional rules; each rule difference lives in one place."""

    diagonal: bool = False
    ferryman: bool = False

    @property
    def card_neighbourhood(self) -> tuple[Point, ...]:
        """Card offsets a new card may touch: edges, plus corners when diagonal."""
        return _EDGES + _CORNERS if self.diagonal else _EDGES

    def names(self) -> list[str]:
        """The record's spelling: a sorted list of ``"diagonal"``, ``"ferryman"``."""
        return [name for name in ("diagonal", "ferryman") if getattr(self, name)]

    @classmethod
    def from_names(cls, names: Iterable[str]) -> Variants:
        """Parse the record's list of variant names; raises ``InvalidInputError``."""
        names = list(names)
        for name in names:
            if name not in ("diagonal", "ferryman"):
                raise InvalidInputError(f"unknown variant {name!r}")
        return cls(diagonal="diagonal" in names, ferryman="ferryman" in names)


_EDGES: tuple[Point, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
_CORNERS: tuple[Point, ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a round's card goes: the card position and a clockwise rotation."""

    card_at: Point
    rotation: int = 0


@dataclass(frozen=True, slots=True)
class PlaceWorker:
    """Put a worker from the supply on a zone of the card placed this round."""

    zone: Point


@dataclass(frozen=True, slots=True)
class MoveWorker:
    """Move one worker from the zone ``source`` to the zone ``target``."""

    source: Point
    target: Point


WorkerAction: TypeAlias = PlaceWorker | MoveWorker | None


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's round: the card placement and an optional worker action."""

    placement: Placement
    worker: WorkerAction = None
