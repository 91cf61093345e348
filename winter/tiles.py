"""The 84 tiles of Carcassonne: Winter Edition as data (``TILES.md`` of the shared docs).

Each kind is written in the notation of ``TILES.md`` (sides ``N E S W``, segments such as
``C(N+W)*``, ``R(E+S)``, ``cloister``, ``F{e1 s2}→C1``) and read once at import. An
:class:`Orientation` is a kind turned clockwise by 0, 90, 180 or 270 degrees, with the
look-up tables the game needs (which segment reaches each side and each half-side).

>>> tile_kind("WinD").sides
(<Terrain.CITY: 'city'>, <Terrain.ROAD: 'road'>, <Terrain.FIELD: 'field'>, <Terrain.ROAD: 'road'>)
>>> sum(kind.count for kind in TILE_KINDS)
84
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import cache

from winter.errors import InvalidInputError

SIDES = ("N", "E", "S", "W")
HALF_SIDES = ("n1", "n2", "e1", "e2", "s1", "s2", "w1", "w2")
ROTATIONS = (0, 90, 180, 270)
FOLLOWER_PLACES = (*SIDES, "cloister", *HALF_SIDES)
"""Every name of a place for a follower, in the order FORMATS.md lists a tile's options."""
START_TILE = "WinD"


class Terrain(enum.Enum):
    """What a tile's side shows."""

    CITY = "city"
    ROAD = "road"
    FIELD = "field"


class FeatureKind(enum.Enum):
    """What a segment (and the feature it joins) is."""

    CITY = "city"
    ROAD = "road"
    CLOISTER = "cloister"
    FIELD = "field"


@dataclass(frozen=True)
class Segment:
    """One segment of a tile: sides (0-3 for N E S W) or half-sides (0-7 for n1 … w2).

    ``borders`` holds, for a field, the indexes of the tile's segments (cities) it borders.
    """

    kind: FeatureKind
    sides: tuple[int, ...] = ()
    halves: tuple[int, ...] = ()
    shield: bool = False
    borders: tuple[int, ...] = ()

    def turned(self, quarters: int) -> Segment:
        """The segment of the tile turned clockwise by ``quarters`` quarter turns."""
        return Segment(
            self.kind,
            tuple(sorted((side + quarters) % 4 for side in self.sides)),
            tuple(sorted((half + 2 * quarters) % 8 for half in self.halves)),
            self.shield,
            self.borders,
        )

    @property
    def names(self) -> tuple[str, ...]:
        """Every name of the segment in a record, first name first (FORMATS.md)."""
        if self.kind is FeatureKind.CLOISTER:
            return ("cloister",)
        if self.kind is FeatureKind.FIELD:
            return tuple(HALF_SIDES[half] for half in self.halves)
        return tuple(SIDES[side] for side in self.sides)


@dataclass(frozen=True)
class TileKind:
    """A kind of tile in its printed orientation, with how many the game has."""

    name: str
    count: int
    sides: tuple[Terrain, Terrain, Terrain, Terrain]
    segments: tuple[Segment, ...]
    notation: str

    @property
    def shields(self) -> int:
        """How many shields the tile shows."""
        return sum(segment.shield for segment in self.segments)

    def to_json(self) -> dict[str, object]:
        """The kind as ``python -m winter tiles`` prints it."""
        return {
            "tile": self.name,
            "count": self.count,
            "sides": [terrain.value for terrain in self.sides],
            "segments": self.notation,
            "shields": self.shields,
        }


@dataclass(frozen=True, eq=False)
class Orientation:
    """A tile kind turned ``rotation`` degrees clockwise, with its look-up tables.

    ``side_segment[d]`` is the city or road segment reaching side ``d`` (or -1 for a field
    side); ``half_segment[h]`` the field segment holding half-side ``h`` (or -1).
    ``segment_name[i]`` is segment ``i``'s first name as placed.
    """

    kind: TileKind
    rotation: int
    sides: tuple[Terrain, ...]
    segments: tuple[Segment, ...]
    side_segment: tuple[int, ...]
    half_segment: tuple[int, ...]
    segment_name: tuple[str, ...]
    picture: frozenset[tuple[object, ...]]

    def segment_named(self, name: str) -> int | None:
        """The index of the segment that ``name`` (``"N"``, ``"e1"``, ``"cloister"``) names."""
        if name in SIDES:
            index = self.side_segment[SIDES.index(name)]
        elif name in HALF_SIDES:
            index = self.half_segment[HALF_SIDES.index(name)]
        elif name == "cloister":
            index = next(
                (i for i, s in enumerate(self.segments) if s.kind is FeatureKind.CLOISTER), -1
            )
        else:
            return None
        return None if index < 0 else index


# name, count, sides, segments, as TILES.md writes them.
_TABLE = """
WinA | 2 | field field road field | cloister; R(S); F{n1 n2 e1 e2 s1 s2 w1 w2}
WinB | 4 | field field field field | cloister; F{n1 n2 e1 e2 s1 s2 w1 w2}
WinC | 1 | city city city city | C(N+E+S+W)*
WinD | 4 | city road field road | C(N); R(E+W); F{e1 w2}→C1; F{e2 s1 s2 w1}
WinE | 5 | city field field field | C(N); F{e1 e2 s1 s2 w1 w2}→C1
WinF | 2 | field city field city | C(E+W)*; F{n1 n2}→C1; F{s1 s2}→C1
WinG | 1 | city field city field | C(N+S); F{e1 e2}→C1; F{w1 w2}→C1
WinH | 3 | field city field city | C(E); C(W); F{n1 n2 s1 s2}→C1,C2
WinI | 2 | field city city field | C(E); C(S); F{w1 w2 n1 n2}→C1,C2
WinJ | 3 | city road road field | C(N); R(E+S); F{e1 s2 w1 w2}→C1; F{e2 s1}
WinK | 3 | city field road road | C(N); R(S+W); F{e1 e2 s1 w2}→C1; F{s2 w1}
WinL | 3 | city road road road | C(N); R(E); R(S); R(W); F{e1 w2}→C1; F{e2 s1}; F{s2 w1}
WinM | 2 | city field field city | C(N+W)*; F{e1 e2 s1 s2}→C1
WinN | 3 | city field field city | C(N+W); F{e1 e2 s1 s2}→C1
WinO | 2 | city road road city | C(N+W)*; R(E+S); F{e1 s2}→C1; F{e2 s1}
WinP | 3 | city road road city | C(N+W); R(E+S); F{e1 s2}→C1; F{e2 s1}
WinQ | 1 | city city field city | C(N+E+W)*; F{s1 s2}→C1
WinR | 3 | city city field city | C(N+E+W); F{s1 s2}→C1
WinS | 2 | city city road city | C(N+E+W)*; R(S); F{s1}→C1; F{s2}→C1
WinT | 1 | city city road city | C(N+E+W); R(S); F{s1}→C1; F{s2}→C1
WinU | 8 | road field road field | R(N+S); F{n2 e1 e2 s1}; F{s2 w1 w2 n1}
WinV | 9 | field field road road | R(S+W); F{s2 w1}; F{n1 n2 e1 e2 s1 w2}
WinW | 4 | field road road road | R(E); R(S); R(W); F{w2 n1 n2 e1}; F{e2 s1}; F{s2 w1}
WinX | 1 | road road road road | R(N); R(E); R(S); R(W); F{n2 e1}; F{e2 s1}; F{s2 w1}; F{w2 n1}
WinTierA | 1 | field road road road | R(E); R(S); R(W); F{w2 n1 n2 e1}; F{e2 s1}; F{s2 w1}
WinTierB | 1 | city field field road | C(N); R(W); F{w2}→C1; F{e1 e2 s1 s2 w1}→C1
WinTierC | 1 | city road field field | C(N); R(E); F{e1}→C1; F{e2 s1 s2 w1 w2}→C1
WinTierD | 1 | field field road field | cloister; R(S); F{n1 n2 e1 e2 s1 s2 w1 w2}
WinTierE | 1 | city field road city | C(N+W); R(S); F{s2}→C1; F{s1 e1 e2}→C1
WinTierF | 1 | field road field road | cloister; R(E); R(W); F{e1 n1 n2 w2}; F{e2 s1 s2 w1}
WinTierG | 1 | city road road field | C(N); R(E+S); F{e1 s2 w1 w2}→C1; F{e2 s1}
WinTierH | 1 | city field road field | C(N); R(S); F{w1 w2 s2}→C1; F{e1 e2 s1}→C1
WinTierI | 1 | road road road road | R(N+W); R(S+E); F{n1 w2}; F{s1 e2}; F{n2 e1 s2 w1}
WinTierJ | 1 | city road field city | C(N+W); R(E); F{e1}→C1; F{e2 s1 s2}→C1
WinTierK | 1 | field field road field | R(S); F{n1 n2 e1 e2 s1 s2 w1 w2}
WinTierL | 1 | city field road road | C(N); R(S+W); F{e1 e2 s1 w2}→C1; F{s2 w1}
"""

_SEGMENT = re.compile(
    r"^(?:(?P<cloister>cloister)"
    r"|(?P<kind>[CR])\((?P<sides>[NESW](?:\+[NESW])*)\)(?P<shield>\*?)"
    r"|F\{(?P<halves>[nesw][12](?: [nesw][12])*)\}(?:→(?P<borders>C\d(?:,C\d)*))?)$"
)


def parse_segments(text: str) -> tuple[Segment, ...]:
    """Read segments written as TILES.md writes them; raises InvalidInputError if unreadable.

    >>> parse_segments("C(N+W)*; F{e1 s2}→C1")[1].borders
    (0,)
    """
    segments = []
    for part in text.split(";"):
        match = _SEGMENT.match(part.strip())
        if match is None:
            raise InvalidInputError(f"unreadable segment {part.strip()!r}")
        if match["cloister"]:
            segments.append(Segment(FeatureKind.CLOISTER))
        elif match["kind"]:
            kind = FeatureKind.CITY if match["kind"] == "C" else FeatureKind.ROAD
            sides = tuple(sorted(SIDES.index(side) for side in match["sides"].split("+")))
            segments.append(Segment(kind, sides, shield=bool(match["shield"])))
        else:
            halves = tuple(sorted(HALF_SIDES.index(h) for h in match["halves"].split()))
            borders = tuple(int(b[1:]) for b in (match["borders"] or "").split(",") if b)
            # C1 is the first city segment written; cities come first in every tile.
            cities = [i for i, s in enumerate(segments) if s.kind is FeatureKind.CITY]
            segments.append(
                Segment(FeatureKind.FIELD, (), halves, False, tuple(cities[b - 1] for b in borders))
            )
    return tuple(segments)


def _read_table(table: str) -> tuple[TileKind, ...]:
    kinds = []
    for line in table.strip().splitlines():
        name, count, sides, segments = (cell.strip() for cell in line.split("|"))
        terrains = tuple(Terrain(side) for side in sides.split())
        assert len(terrains) == 4
        kinds.append(TileKind(name, int(count), terrains, parse_segments(segments), segments))
    return tuple(kinds)


TILE_KINDS: tuple[TileKind, ...] = _read_table(_TABLE)
TILE_NAMES: tuple[str, ...] = tuple(kind.name for kind in TILE_KINDS)
_BY_NAME = {kind.name: kind for kind in TILE_KINDS}


def tile_kind(name: str) -> TileKind:
    """The kind called ``name``; raises InvalidInputError for an unknown name."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise InvalidInputError(f"unknown tile {name!r}") from None


def _first_name(names: tuple[str, ...]) -> str:
    return min(names, key=FOLLOWER_PLACES.index)


@cache
def orientation(name: str, rotation: int) -> Orientation:
    """The tile ``name`` turned ``rotation`` degrees clockwise (0, 90, 180 or 270)."""
    kind = tile_kind(name)
    quarters = rotation // 90
    segments = tuple(segment.turned(quarters) for segment in kind.segments)
    sides = tuple(kind.sides[(d - quarters) % 4] for d in range(4))
    side_segment = [-1] * 4
    half_segment = [-1] * 8
    for index, segment in enumerate(segments):
        for side in segment.sides:
            side_segment[side] = index
        for half in segment.halves:
            half_segment[half] = index
    picture = frozenset(
        (
            s.kind,
            s.sides,
            s.halves,
            s.shield,
            tuple(sorted(segments[b].sides for b in s.borders)),
        )
        for s in segments
    )
    return Orientation(
        kind,
        rotation,
        sides,
        segments,
        tuple(side_segment),
        tuple(half_segment),
        tuple(_first_name(s.names) for s in segments),
        picture,
    )


@cache
def distinct_rotations(name: str) -> tuple[int, ...]:
    """The rotations of a tile that give distinct pictures, each at its smallest rotation.

    >>> distinct_rotations("WinB"), distinct_rotations("WinU"), distinct_rotations("WinE")
    ((0,), (0, 90), (0, 90, 180, 270))
    """
    seen: set[frozenset[tuple[object, ...]]] = set()
    rotations = []
    for rotation in ROTATIONS:
        picture = orientation(name, rotation).picture
        if picture not in seen:
            seen.add(picture)
            rotations.append(rotation)
    return tuple(rotations)


def bag_counts() -> dict[str, int]:
    """How many of each kind the bag holds at the start: every tile but the start tile."""
    return {kind.name: kind.count - (kind.name == START_TILE) for kind in TILE_KINDS}
