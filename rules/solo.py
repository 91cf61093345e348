"""The rulebook's solo table."""

from __future__ import annotations

import enum


class SoloRating(enum.Enum):
    """The five ratings of a solo score, worst first. ``value`` is the stored slug."""

    ROOM_FOR_IMPROVEMENT = "room-for-improvement"
    SATISFACTORY = "satisfactory"
    GOOD = "good"
    VERY_GOOD = "very-good"
    EXCELLENT = "excellent"

    @property
    def label(self) -> str:
        """The rating in English words, as the table has it."""
        return self.value.replace("-", " ")

    @property
    def lowest(self) -> int:
        """The lowest score that earns this rating."""
        return _LOWEST[self]

    @property
    def highest(self) -> int | None:
        """The highest score that earns this rating; ``None`` for excellent."""
        ratings = list(SoloRating)
        index = ratings.index(self)
        return ratings[index + 1].lowest - 1 if index + 1 < len(ratings) else None


_LOWEST = {
    SoloRating.ROOM_FOR_IMPROVEMENT: 0,
    SoloRating.SATISFACTORY: 28,
    SoloRating.GOOD: 35,
    SoloRating.VERY_GOOD: 42,
    SoloRating.EXCELLENT: 49,
}


def solo_rating(total: int) -> SoloRating:
    """The table's rating of a solo score.

    >>> solo_rating(27).label, solo_rating(28).label, solo_rating(49).label
    ('room for improvement', 'satisfactory', 'excellent')
    """
    rating = SoloRating.ROOM_FOR_IMPROVEMENT
    for candidate in SoloRating:
        if total >= candidate.lowest:
            rating = candidate
    return rating
