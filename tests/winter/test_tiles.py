"""The tile catalogue: 84 tiles, as TILES.md gives them, turned and deduplicated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from winter import (
    START_TILE,
    TILE_KINDS,
    FeatureKind,
    InvalidInputError,
    Terrain,
    bag_counts,
    distinct_rotations,
    orientation,
    tile_kind,
)
from winter.tiles import parse_segments

TILES_MD = Path(__file__).resolve().parents[2] / ".." / "shared" / "winter" / "TILES.md"


def test_the_game_has_84_tiles_with_83_in_the_bag() -> None:
    assert sum(kind.count for kind in TILE_KINDS) == 84
    assert sum(bag_counts().values()) == 83
    assert bag_counts()[START_TILE] == 3


def test_ten_tiles_show_a_shield() -> None:
    assert sum(kind.count for kind in TILE_KINDS if kind.shields) == 10


@pytest.mark.skipif(not TILES_MD.exists(), reason=f"the shared docs are absent: no {TILES_MD}")
def test_catalogue_is_tiles_md_exactly() -> None:
    rows = re.findall(
        r"^\| (Win\w+) \| (\d+) \| ([a-z ]+) \| (.+?)(?: — .*)? \|$",
        TILES_MD.read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    assert len(rows) == len(TILE_KINDS) == 36
    for (name, count, sides, segments), kind in zip(rows, TILE_KINDS, strict=True):
        assert kind.name == name
        assert kind.count == int(count)
        assert [side.value for side in kind.sides] == sides.split()
        assert kind.segments == parse_segments(segments), name


def test_every_side_and_half_side_belongs_to_one_segment() -> None:
    for kind in TILE_KINDS:
        placed = orientation(kind.name, 0)
        for side, terrain in enumerate(kind.sides):
            segment = placed.side_segment[side]
            if terrain is Terrain.FIELD:
                assert segment == -1, kind.name
            else:
                assert placed.segments[segment].kind.value == terrain.value, kind.name
            halves = [placed.half_segment[2 * side], placed.half_segment[2 * side + 1]]
            assert (min(halves) == -1) == (terrain is Terrain.CITY), kind.name


def test_turning_moves_sides_and_half_sides_clockwise() -> None:
    turned = orientation("WinE", 90)  # the city goes from the north to the east
    assert turned.sides == (Terrain.FIELD, Terrain.CITY, Terrain.FIELD, Terrain.FIELD)
    assert turned.segment_name == ("E", "n1")
    assert turned.segments[1].halves == (0, 1, 4, 5, 6, 7)


def test_symmetric_tiles_list_each_picture_once() -> None:
    assert distinct_rotations("WinB") == distinct_rotations("WinC") == (0,)
    assert distinct_rotations("WinX") == (0,)
    assert distinct_rotations("WinU") == distinct_rotations("WinG") == (0, 90)
    assert distinct_rotations("WinH") == distinct_rotations("WinTierI") == (0, 90)
    assert distinct_rotations("WinF") == (0, 90)
    assert distinct_rotations("WinD") == (0, 90, 180, 270)


def test_fields_of_two_city_tiles_border_both_cities() -> None:
    field = tile_kind("WinH").segments[2]
    assert field.kind is FeatureKind.FIELD
    assert field.borders == (0, 1)


def test_unknown_tile_is_invalid_input() -> None:
    with pytest.raises(InvalidInputError, match="unknown tile 'WinZ'"):
        tile_kind("WinZ")
