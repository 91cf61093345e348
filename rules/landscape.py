"""A landscape of zones with workers on it: regions, scores and worker moves.

A landscape is zones, not cards, so it describes any position a zone map can, whole or
partial. Cards and their placement rules live in ``rules.board``.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Set
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress

from rules.errors import InvalidInputError
from rules.model import Point, Profession, Terrain, Zone

_TERRAINS = tuple(Terrain)
#: A zone's terrain code (``Landscape.terrain_codes``, ``Regions.terrain``), by ``Terrain``
#: order; ``EMPTY`` where no card lies.
FIELD, WATER, FOREST, TOWER = (_TERRAINS.index(t) for t in Terrain)
EMPTY = -1


@dataclass(frozen=True, slots=True)
class WorkerScore:
    """One worker's part of a score."""

    zone: Point
    profession: Profession
    points: int
    counted: bool


@dataclass(frozen=True, slots=True)
class Score:
    """A landscape's score: the total, the tie-break list and every worker's part."""

    total: int
    tiebreak: tuple[int, ...]
    workers: tuple[WorkerScore, ...]

    def to_json(self) -> dict[str, object]:
        """The JSON shape of ``python -m rules score``."""
        return {
            "total": self.total,
            "tiebreak": list(self.tiebreak),
            "workers": [
                {
                    "zone": list(w.zone),
                    "profession": w.profession.value,
                    "points": w.points,
                    "counted": w.counted,
                }
                for w in self.workers
            ],
        }


class Landscape:
    """Zones on a grid, some empty, with workers standing on zones.

    Immutable by convention. Region analysis, which does not depend on the workers, is
    computed once and shared by every landscape made with ``with_workers``.
    """

    __slots__ = (
        "_hut",
        "_manned",
        "_regions",
        "_terrain",
        "height",
        "left",
        "top",
        "width",
        "workers",
    )

    def __init__(
        self,
        top: int,
        left: int,
        height: int,
        width: int,
        terrain: list[int],
        hut: list[bool],
        workers: Iterable[Point] = (),
        *,
        _regions: Regions | None = None,
    ) -> None:
        self.top = top
        self.left = left
        self.height = height
        self.width = width
        self._terrain = terrain
        self._hut = hut
        self.workers: tuple[Point, ...] = tuple(sorted(workers))
        self._regions = _regions
        self._manned: set[int] | None = None
        for point in self.workers:
            i = self._index(point)
            if i is None or terrain[i] == EMPTY:
                raise InvalidInputError(f"a worker stands on {list(point)}, where no card lies")

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_zones(cls, zones: Mapping[Point, Zone], workers: Iterable[Point] = ()) -> Landscape:
        """A landscape of the given zones; points not given are empty."""
        if not zones:
            return cls(0, 0, 0, 0, [], [], workers)
        rows = [r for r, _ in zones]
        cols = [c for _, c in zones]
        top, left = min(rows), min(cols)
        height, width = max(rows) - top + 1, max(cols) - left + 1
        terrain = [EMPTY] * (height * width)
        hut = [False] * (height * width)
        for (r, c), zone in zones.items():
            i = (r - top) * width + (c - left)
            terrain[i] = _TERRAINS.index(zone.terrain)
            hut[i] = zone.hut
        return cls(top, left, height, width, terrain, hut, workers)

    def with_zones(
        self, zones: Iterable[tuple[Point, Zone]], workers: Iterable[Point]
    ) -> Landscape:
        """This landscape with more zones laid on it and other workers.

        Faster than ``from_zones`` for a board that grows by one card a round.
        """
        added = list(zones)
        if not self.height:
            return Landscape.from_zones(dict(added), workers)
        rows = [r for (r, _), _ in added] + [self.top, self.top + self.height - 1]
        cols = [c for (_, c), _ in added] + [self.left, self.left + self.width - 1]
        top, left = min(rows), min(cols)
        height, width = max(rows) - top + 1, max(cols) - left + 1
        if (top, left, height, width) == (self.top, self.left, self.height, self.width):
            terrain, hut = self._terrain.copy(), self._hut.copy()
        else:
            terrain = [EMPTY] * (height * width)
            hut = [False] * (height * width)
            offset = (self.top - top) * width + (self.left - left)
            for r in range(self.height):
                old, new = r * self.width, offset + r * width
                terrain[new : new + self.width] = self._terrain[old : old + self.width]
                hut[new : new + self.width] = self._hut[old : old + self.width]
        for (r, c), zone in added:
            i = (r - top) * width + (c - left)
            terrain[i] = _TERRAINS.index(zone.terrain)
            hut[i] = zone.hut
        return Landscape(top, left, height, width, terrain, hut, workers)

    @classmethod
    def from_zone_map(cls, text: str) -> Landscape:
        """Parse a zone map (docs/formats.md section 1); raises ``InvalidInputError`` with where."""
        terrain: list[int] = []
        hut: list[bool] = []
        workers: list[Point] = []
        width: int | None = None
        row = 0
        for line_no, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            tokens = _tokens_with_columns(line)
            if width is None:
                width = len(tokens)
            elif len(tokens) != width:
                raise InvalidInputError(
                    f"ragged row: {len(tokens)} zones where the first row has {width}",
                    line=line_no,
                    column=tokens[min(width, len(tokens) - 1)][0],
                )
            for col, (column, token) in enumerate(tokens):
                body = token.rstrip("@")
                count = len(token) - len(body)
                try:
                    if body == ".":
                        code, has_hut = EMPTY, False
                        if count:
                            raise InvalidInputError("a worker cannot stand where no card lies")
                    else:
                        zone = Zone.from_token(body)
                        code, has_hut = _TERRAINS.index(zone.terrain), zone.hut
                except InvalidInputError as error:
                    raise InvalidInputError(
                        f"{error.message} in {token!r}", line=line_no, column=column
                    ) from None
                terrain.append(code)
                hut.append(has_hut)
                workers.extend([(row, col)] * count)
            row += 1
        if width is None:
            raise InvalidInputError("the zone map has no zones", line=1, column=1)
        return cls(0, 0, row, width, terrain, hut, workers)

    def with_workers(self, workers: Iterable[Point]) -> Landscape:
        """The same zones with other workers; shares the region analysis."""
        return Landscape(
            self.top,
            self.left,
            self.height,
            self.width,
            self._terrain,
            self._hut,
            workers,
            _regions=self.regions(),
        )

    # -- reading ------------------------------------------------------------------------

    def zone_at(self, point: Point) -> Zone | None:
        """The zone at a global point, or ``None`` where no card lies."""
        i = self._index(point)
        if i is None or self._terrain[i] == EMPTY:
            return None
        return Zone(_TERRAINS[self._terrain[i]], self._hut[i])

    def iter_zones(self) -> Iterator[tuple[Point, Zone]]:
        """Every zone where a card lies, row by row."""
        for i, code in enumerate(self._terrain):
            if code != EMPTY:
                yield self._point(i), Zone(_TERRAINS[code], self._hut[i])

    def to_zone_map(self) -> str:
        """The zone map of this landscape, aligned in columns; rows start at the top edge."""
        counts: dict[Point, int] = {}
        for point in self.workers:
            counts[point] = counts.get(point, 0) + 1
        rows = []
        for r in range(self.height):
            tokens = []
            for c in range(self.width):
                i = r * self.width + c
                point = (self.top + r, self.left + c)
                code = self._terrain[i]
                body = "." if code == EMPTY else _TERRAINS[code].letter
                body += "*" if self._hut[i] else ""
                tokens.append(body + "@" * counts.get(point, 0))
            rows.append(tokens)
        size = max((len(t) for row in rows for t in row), default=1)
        return "".join(" ".join(t.ljust(size) for t in row).rstrip() + "\n" for row in rows)

    def region_zones(self, point: Point) -> list[Point]:
        """The zones of the region containing ``point`` (empty if no card lies there)."""
        regions = self.regions()
        i = self._index(point)
        if i is None or regions.region_of[i] < 0:
            return []
        return [self._point(j) for j in regions.cells[regions.region_of[i]]]

    # -- scoring and moves --------------------------------------------------------------

    def score(self) -> Score:
        """Score the landscape as it stands: finished, or mid-game as a preview.

        >>> score = Landscape.from_zone_map("G@ G@ T@ F F").score()
        >>> score.total, score.tiebreak, [w.points for w in score.workers]
        (4, (2, 2), [2, 0, 2])
        """
        regions = self.regions()
        seen: set[int] = set()
        parts = []
        for point in self.workers:
            i = self._index_unchecked(point)
            region = regions.region_of[i]
            counted = region not in seen
            seen.add(region)
            parts.append(
                WorkerScore(
                    point,
                    _TERRAINS[self._terrain[i]].profession,
                    regions.value[region] if counted else 0,
                    counted,
                )
            )
        tiebreak = tuple(sorted((p.points for p in parts if p.counted), reverse=True))
        return Score(sum(tiebreak), tiebreak, tuple(parts))

    def total_with(self, workers: Iterable[Point]) -> int:
        """The total this landscape would score with these workers; fast, for bots."""
        regions = self.regions()
        occupied = {regions.region_of[self._index_unchecked(p)] for p in workers}
        return sum(regions.value[region] for region in occupied)

    def worker_targets(self, source: Point, *, ferryman: bool = False) -> list[Point]:
        """The sorted zones a worker on ``source`` may move to.

        A worker moves to any zone of a region sharing an edge with its own; with the
        ferryman, also to any region sharing an edge with a neighbouring water region that
        holds a worker. Raises ``InvalidInputError`` when no card lies on ``source``.

        >>> landscape = Landscape.from_zone_map("G@ W@ F")
        >>> landscape.worker_targets((0, 0)), landscape.worker_targets((0, 0), ferryman=True)
        ([(0, 1)], [(0, 1), (0, 2)])
        """
        return self.zones_in(self.target_mask(source, ferryman))

    # -- internals ----------------------------------------------------------------------

    def terrain_codes(self) -> list[int]:
        """The terrain code of each zone of the grid, row by row (``EMPTY`` where no card
        lies); not to be changed."""
        return self._terrain

    def target_mask(self, source: Point, ferryman: bool) -> int:
        """The zones a worker on ``source`` may move to as bits: bit i set for grid index i
        (``zones_in`` turns them into zones). Raises ``InvalidInputError`` where no card
        lies."""
        regions = self.regions()
        i = self._index(source)
        if i is None or regions.region_of[i] < 0:
            raise InvalidInputError(f"no card lies on zone {list(source)}")
        own = regions.region_of[i]
        mask = regions.reach(own)
        if ferryman:
            if self._manned is None:
                self._manned = {regions.region_of[self._index_unchecked(p)] for p in self.workers}
            for region in regions.neighbours[own]:
                if regions.terrain[region] == WATER and region in self._manned:
                    mask |= regions.reach(region)
            mask &= ~regions.masks[own]
        return mask

    def zones_in(self, mask: int) -> list[Point]:
        """The set bits of ``mask`` as zones, in grid order, which is sorted order."""
        points = _points(self.top, self.left, self.height, self.width)
        flags = format(mask, f"0{len(points)}b")[::-1].encode().translate(_BIT_FLAGS)
        return list(compress(points, flags))

    def _index(self, point: Point) -> int | None:
        r, c = point[0] - self.top, point[1] - self.left
        if 0 <= r < self.height and 0 <= c < self.width:
            return r * self.width + c
        return None

    def _index_unchecked(self, point: Point) -> int:
        return (point[0] - self.top) * self.width + (point[1] - self.left)

    def _point(self, i: int) -> Point:
        return (self.top + i // self.width, self.left + i % self.width)

    def regions(self) -> Regions:
        """The regions of the zones (shared by every landscape with the same zones)."""
        if self._regions is None:
            self._regions = Regions(
                self.top, self.left, self.height, self.width, self._terrain, self._hut
            )
        return self._regions

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Landscape):
            return NotImplemented
        return dict(self.iter_zones()) == dict(other.iter_zones()) and (
            self.workers == other.workers
        )

    def __hash__(self) -> int:
        return hash((frozenset(self.iter_zones()), self.workers))

    def __repr__(self) -> str:
        return f"Landscape.from_zone_map({self.to_zone_map()!r})"


class Regions:
    """Regions of a zone grid and what a counted worker would score in each.

    Regions are numbered from 0; ``region_of`` gives each grid index's region (-1 where no
    card lies), ``region_at`` a zone's, ``cells``, ``terrain``, ``neighbours`` and ``value``
    each region's grid indices, terrain code, neighbouring regions and points.
    """

    __slots__ = (
        "_grid",
        "_hut",
        "_masks",
        "_reach",
        "_value",
        "adjacent",
        "cells",
        "height",
        "neighbours",
        "region_at",
        "region_of",
        "terrain",
        "width",
    )

    def __init__(
        self, top: int, left: int, height: int, width: int, terrain: list[int], hut: list[bool]
    ) -> None:
        region_of = [-1] * (height * width)
        cells: list[list[int]] = []
        kinds: list[int] = []
        adjacent = _adjacency(height, width)
        for start, code in enumerate(terrain):
            if code == EMPTY or region_of[start] >= 0:
                continue
            region = len(cells)
            region_of[start] = region
            members = [start]
            if code != TOWER:  # every tower zone is a region of its own
                for i in members:  # grows while it is read: a breadth-first fill
                    for j in adjacent[i]:
                        if terrain[j] == code and region_of[j] < 0:
                            region_of[j] = region
                            members.append(j)
            cells.append(members)
            kinds.append(code)

        neighbours: list[set[int]] = [set() for _ in cells]
        for i, j in _edges(height, width):
            a, b = region_of[i], region_of[j]
            if a != b and a >= 0 and b >= 0:
                neighbours[a].add(b)
                neighbours[b].add(a)

        self.height = height
        self.width = width
        self.adjacent = adjacent
        self.region_of = region_of
        # A closure rather than a method: bots call it for every worker of every turn.
        self.region_at: Callable[[Point], int] = lambda p: region_of[
            (p[0] - top) * width + p[1] - left
        ]
        self.cells = cells
        self.terrain = kinds
        self.neighbours = neighbours
        self._grid = terrain
        self._hut = hut
        self._masks: list[int] | None = None
        self._value: list[int] | None = None
        self._reach: dict[int, int] = {}

    @property
    def value(self) -> list[int]:
        # Move generation needs only the regions, so the points wait until asked for.
        if self._value is None:
            # A lake scores the huts next to it: found from the few huts, not every shore.
            region_of, terrain = self.region_of, self.terrain
            shores: dict[int, set[int]] = {}
            for j, hut in enumerate(self._hut):
                if hut:
                    for i in self.adjacent[j]:
                        region = region_of[i]
                        if region >= 0 and terrain[region] == WATER:
                            shores.setdefault(region, set()).add(j)
            value = []
            for region, kind in enumerate(terrain):
                members = self.cells[region]
                if kind == FIELD:
                    value.append(len(members))
                elif kind == FOREST:
                    value.append(len(self.neighbours[region]))
                elif kind == WATER:
                    value.append(len(shores.get(region, ())))
                else:
                    value.append(_forests_in_sight(members[0], self.height, self.width, self._grid))
            self._value = value
        return self._value

    @property
    def masks(self) -> list[int]:
        """Each region's zones as the set bits of an int: unions of regions are cheap."""
        if self._masks is None:
            bits = _bits(self.height * self.width)
            self._masks = [sum(map(bits.__getitem__, members)) for members in self.cells]
        return self._masks

    def targets(self, own: int, manned: Container[int], ferryman: bool) -> Set[int]:
        """The regions a worker in region ``own`` may move to: the neighbouring ones and,
        with the ferryman, those next to a neighbouring water region in ``manned`` (the
        regions holding a worker). Not to be changed: without the ferryman it is
        ``neighbours[own]`` itself."""
        targets = self.neighbours[own]
        if not ferryman:
            return targets
        wider = set(targets)
        for region in targets:
            if self.terrain[region] == WATER and region in manned:
                wider |= self.neighbours[region]
        wider.discard(own)
        return wider

    def reach(self, region: int) -> int:
        """The mask of every zone in a region next to ``region``."""
        mask = self._reach.get(region)
        if mask is None:
            # Regions are disjoint, so the sum of their masks is their union.
            masks = self.masks
            mask = self._reach[region] = sum(map(masks.__getitem__, self.neighbours[region]))
        return mask


def _forests_in_sight(i: int, height: int, width: int, terrain: list[int]) -> int:
    # A line ends at the edge or at the next tower; empty zones and field/water don't block.
    row, col = divmod(i, width)
    seen = 0
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        while 0 <= r < height and 0 <= c < width:
            code = terrain[r * width + c]
            if code == TOWER:
                break
            if code == FOREST:
                seen += 1
            r, c = r + dr, c + dc
    return seen


_BIT_FLAGS = bytes.maketrans(b"01", b"\x00\x01")
_ADJACENCY: dict[tuple[int, int], list[list[int]]] = {}
_EDGES: dict[tuple[int, int], list[tuple[int, int]]] = {}


def _edges(height: int, width: int) -> list[tuple[int, int]]:
    # Each pair of edge-adjacent cells once: to the right and downwards.
    key = (height, width)
    if key not in _EDGES:
        _EDGES[key] = [
            (i, j) for i, around in enumerate(_adjacency(height, width)) for j in around if j > i
        ]
    return _EDGES[key]


def _adjacency(height: int, width: int) -> list[list[int]]:
    key = (height, width)
    if key not in _ADJACENCY:
        table = []
        for r in range(height):
            for c in range(width):
                around = []
                if r > 0:
                    around.append((r - 1) * width + c)
                if r < height - 1:
                    around.append((r + 1) * width + c)
                if c > 0:
                    around.append(r * width + c - 1)
                if c < width - 1:
                    around.append(r * width + c + 1)
                table.append(around)
        _ADJACENCY[key] = table
    return _ADJACENCY[key]


@lru_cache(maxsize=64)
def _bits(size: int) -> tuple[int, ...]:
    return tuple(1 << i for i in range(size))


@lru_cache(maxsize=64)
def _points(top: int, left: int, height: int, width: int) -> tuple[Point, ...]:
    # Row-major like the grid, so sorting indices sorts points.
    return tuple((top + r, left + c) for r in range(height) for c in range(width))


def _tokens_with_columns(line: str) -> list[tuple[int, str]]:
    tokens = []
    column = 0
    for part in line.split():
        column = line.index(part, column)
        tokens.append((column + 1, part))
        column += len(part)
    return tokens
