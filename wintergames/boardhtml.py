"""The board's SVG drawn in Python: each tile from its data, in a winter palette.

A tile is 100 units square, drawn as placed (its segments already turned), so no SVG
transform is needed. Fields are snow, roads grey-blue lines, cities stone with a small
shield mark, a cloister a chapel. Escaped string building; a tile's picture is cached.
"""

from __future__ import annotations

import functools

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

import winter
from winter.tiles import FeatureKind

SIZE = 100
HALF = SIZE // 2
MIDS = ((50, 0), (100, 50), (50, 100), (0, 50))  # the middle of N E S W
CORNERS = ((0, 0), (100, 0), (100, 100), (0, 100))  # NW NE SE SW
#: Where a follower stands for each name (as placed), in tile units.
SPOTS: dict[str, tuple[int, int]] = {
    "N": (50, 14),
    "E": (86, 50),
    "S": (50, 86),
    "W": (14, 50),
    "cloister": (50, 50),
    "n1": (24, 12),
    "n2": (76, 12),
    "e1": (88, 24),
    "e2": (88, 76),
    "s1": (76, 88),
    "s2": (24, 88),
    "w1": (12, 76),
    "w2": (12, 24),
}
ROAD_SPOTS = {"N": (50, 28), "E": (72, 50), "S": (50, 72), "W": (28, 50)}
COLOURS = ("#c0392b", "#2461a8", "#d9a400", "#2e8b57", "#7d3c98")
"""The followers' colours by seat."""


def _city_points(sides: tuple[int, ...]) -> str:
    if len(sides) == 1:
        side = sides[0]
        a, b = CORNERS[side], CORNERS[(side + 1) % 4]
        dx, dy = {0: (0, 30), 1: (-30, 0), 2: (0, -30), 3: (30, 0)}[side]
        c = (b[0] + dx + (a[0] - b[0]) * 0.2, b[1] + dy + (a[1] - b[1]) * 0.2)
        d = (a[0] + dx + (b[0] - a[0]) * 0.2, a[1] + dy + (b[1] - a[1]) * 0.2)
        points = [a, b, c, d]
    elif len(sides) == 2 and sides[1] - sides[0] == 2:
        # Two opposite sides (WinF, WinG): a band through the middle.
        if sides[0] == 0:
            points = [(0, 0), (100, 0), (70, 50), (100, 100), (0, 100), (30, 50)]
        else:
            points = [(0, 0), (50, 30), (100, 0), (100, 100), (50, 70), (0, 100)]
    else:
        points = []
        for side in range(4):
            if side in sides:
                points += [CORNERS[side], CORNERS[(side + 1) % 4]]
            elif (side - 1) % 4 in sides and (side + 1) % 4 in sides:
                # The one side left open: the wall bends in towards the middle.
                mx, my = MIDS[side]
                points.append((50 + (mx - 50) * 0.4, 50 + (my - 50) * 0.4))
    return " ".join(f"{x:g},{y:g}" for x, y in points)


@functools.cache
def tile_svg(name: str, rotation: int) -> SafeString:
    """The picture of a tile as placed, at the origin (to be moved by a ``<g>``)."""
    placed = winter.orientation(name, rotation)
    parts = ['<rect class="w-field" width="100" height="100"/>']
    roads: list[str] = []
    ends = 0
    for index, segment in enumerate(placed.segments):
        if segment.kind is FeatureKind.CITY:
            parts.append(f'<polygon class="w-city" points="{_city_points(segment.sides)}"/>')
            if segment.shield:
                spot = SPOTS[placed.segment_name[index]]
                x, y = (spot[0] + 50) / 2, (spot[1] + 50) / 2
                parts.append(f'<path class="w-shield" d="M{x - 6:g},{y - 7:g}h12v6l-6,8l-6,-8z"/>')
        elif segment.kind is FeatureKind.ROAD:
            if len(segment.sides) == 2:
                (ax, ay), (bx, by) = MIDS[segment.sides[0]], MIDS[segment.sides[1]]
                roads.append(f'<path class="w-road" d="M{ax},{ay}Q50,50 {bx},{by}"/>')
            else:
                ends += 1
                ax, ay = MIDS[segment.sides[0]]
                ex, ey = 50 + (ax - 50) * 0.25, 50 + (ay - 50) * 0.25
                roads.append(f'<path class="w-road" d="M{ax},{ay}L{ex:g},{ey:g}"/>')
        elif segment.kind is FeatureKind.CLOISTER:
            parts.append(
                '<g class="w-chapel"><path d="M36,62V44l14,-12l14,12v18z"/>'
                '<path class="w-cross" d="M50,36v-12M45,29h10"/></g>'
            )
    parts.extend(roads)
    kinds = {segment.kind for segment in placed.segments}
    # Roads that end on the tile meet at a junction, or end at a house (WinTierK).
    junction = ends >= 3 or (ends == 1 and FeatureKind.CITY not in kinds)
    if junction and FeatureKind.CLOISTER not in kinds:
        parts.append('<rect class="w-house" x="42" y="42" width="16" height="16"/>')
    return mark_safe("".join(parts))  # built from the tile data alone


@functools.lru_cache(maxsize=8192)
def tile_at(at: tuple[int, int], name: str, rotation: int, *, css: str = "w-tile") -> SafeString:
    """A placed tile at its place on the board (made once: a board shows it on every page
    until the game ends)."""
    row, col = at
    return format_html(
        '<g class="{}" transform="translate({} {})" data-at="{},{}">{}</g>',
        css,
        col * SIZE,
        row * SIZE,
        row,
        col,
        tile_svg(name, rotation),
    )


@functools.lru_cache(maxsize=1024)
def bag_item(name: str, count: int) -> SafeString:
    """A kind of tile in the bag and how many of it are left."""
    return format_html(
        '<li title="{}"><svg class="w-tile-tiny" viewBox="0 0 100 100" role="img" '
        'aria-label="{}">{}</svg> × {}</li>',
        name,
        name,
        tile_svg(name, 0),
        count,
    )


def follower_svg(at: tuple[int, int], segment: str, seat: int, kind: str) -> SafeString:
    """A follower (a little figure in its player's colour) on a segment of a placed tile."""
    row, col = at
    x, y = (ROAD_SPOTS if kind == "road" else SPOTS).get(segment, SPOTS.get(segment, (50, 50)))
    return format_html(
        '<g class="w-follower" transform="translate({} {})">'
        '<circle r="8" fill="{}"/><circle r="3" cy="-3" class="w-head"/></g>',
        col * SIZE + x,
        row * SIZE + y,
        COLOURS[seat % len(COLOURS)],
    )


def spot_of(name: str, segment: str) -> tuple[int, int]:
    """Where a follower on ``segment`` of tile ``name`` as placed is drawn, in tile units."""
    return SPOTS.get(segment, (50, 50))
