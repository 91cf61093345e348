"""Reading and writing zone maps (docs/formats.md section 1)."""

from __future__ import annotations

import pytest

from rules import InvalidInputError, Landscape, Terrain, Zone
from tests.rules.helpers import zonemap


def test_zone_map_reads_terrains_huts_workers_and_empty_zones() -> None:
    landscape = zonemap(
        """
        # a comment, then a blank line

        G@ G  W   F*
        T  .  W@@ W
        """
    )
    assert (landscape.height, landscape.width) == (2, 4)
    assert landscape.zone_at((0, 3)) == Zone(Terrain.FOREST, hut=True)
    assert landscape.zone_at((1, 0)) == Zone(Terrain.TOWER)
    assert landscape.zone_at((1, 1)) is None
    assert landscape.zone_at((7, 7)) is None
    assert landscape.workers == ((0, 0), (1, 2), (1, 2))


def test_zone_map_round_trips() -> None:
    text = "G*@ W  .\nT   F@ F*@@\n"
    landscape = Landscape.from_zone_map(text)
    assert landscape.to_zone_map() == "G*@  W    .\nT    F@   F*@@\n"
    assert Landscape.from_zone_map(landscape.to_zone_map()) == landscape


def test_region_zones_lists_a_whole_region() -> None:
    landscape = zonemap(
        """
        G G W
        W G G
        """
    )
    assert sorted(landscape.region_zones((0, 0))) == [(0, 0), (0, 1), (1, 1), (1, 2)]
    assert landscape.region_zones((5, 5)) == []


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("G G W\nG W\n", 2, 3, "ragged row"),
        ("G G\nG G W\n", 2, 5, "ragged row"),
        ("# c\n\nG W*\n", 3, 3, "a hut cannot stand on water"),
        ("G T*\n", 1, 3, "a hut cannot stand on tower"),
        ("G g\n", 1, 3, "unknown terrain letter 'g'"),
        ("G\tX\n", 1, 3, "unknown terrain letter 'X'"),
        ("G GG\n", 1, 3, "malformed zone 'GG'"),
        (".@ G\n", 1, 1, "a worker cannot stand where no card lies"),
        ("# only a comment\n", 1, 1, "the zone map has no zones"),
    ],
)
def test_malformed_zone_map_names_line_and_column(
    text: str, line: int, column: int, message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message) as caught:
        Landscape.from_zone_map(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert caught.value.located("map.txt").startswith(f"map.txt:{line}:{column}: {message}")


def test_worker_outside_the_landscape_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="where no card lies"):
        Landscape.from_zones({(0, 0): Zone(Terrain.FIELD)}, [(0, 1)])
