"""The rulebook's solo table, at every boundary."""

from __future__ import annotations

import pytest

from rules import SoloRating, solo_rating


@pytest.mark.parametrize(
    ("total", "rating"),
    [
        (0, SoloRating.ROOM_FOR_IMPROVEMENT),
        (27, SoloRating.ROOM_FOR_IMPROVEMENT),
        (28, SoloRating.SATISFACTORY),
        (34, SoloRating.SATISFACTORY),
        (35, SoloRating.GOOD),
        (41, SoloRating.GOOD),
        (42, SoloRating.VERY_GOOD),
        (48, SoloRating.VERY_GOOD),
        (49, SoloRating.EXCELLENT),
        (120, SoloRating.EXCELLENT),
    ],
)
def test_solo_rating_boundaries(total: int, rating: SoloRating) -> None:
    assert solo_rating(total) is rating


def test_each_rating_knows_its_span_and_label() -> None:
    spans = [(r.label, r.lowest, r.highest) for r in SoloRating]
    assert spans == [
        ("room for improvement", 0, 27),
        ("satisfactory", 28, 34),
        ("good", 35, 41),
        ("very good", 42, 48),
        ("excellent", 49, None),
    ]
