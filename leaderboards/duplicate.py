"""Matchpoints: a score ranked against every other score on the same deal.

Pure arithmetic on a deal's table of scores (``{score: how many results}``), the way
duplicate bridge scores a board: 1 point per player beaten, ½ per tie, as a percentage of
the most one could get (a point for each other player). The table is what
``leaderboards.models.DealScore`` keeps for each deal, so a figure never needs the results.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Duplicate:
    """One result's standing on its deal."""

    players: int
    matchpoints: float
    percent: float
    best: int
    gap: int


def duplicate_of(table: Mapping[int, int], score: int) -> Duplicate | None:
    """The figures of a result of ``score`` counted in ``table``; None below two players.

    >>> duplicate_of({40: 1, 45: 2, 50: 1}, 45)
    Duplicate(players=4, matchpoints=1.5, percent=50.0, best=50, gap=5)
    """
    players = sum(table.values())
    if players < 2 or table.get(score, 0) < 1:
        return None
    below = sum(count for other, count in table.items() if other < score)
    matchpoints = below + (table[score] - 1) / 2
    best = max(other for other, count in table.items() if count > 0)
    return Duplicate(
        players=players,
        matchpoints=matchpoints,
        percent=100 * matchpoints / (players - 1),
        best=best,
        gap=best - score,
    )


def percent_by_score(table: Mapping[int, int]) -> dict[int, float]:
    """Each score's matchpoint percentage in ``table``; a lone result gets 100.

    >>> percent_by_score({40: 1, 50: 1})
    {40: 0.0, 50: 100.0}
    """
    players = sum(table.values())
    shown: dict[int, float] = {}
    below = 0
    for score in sorted(table):
        count = table[score]
        if count < 1:
            continue
        if players < 2:
            shown[score] = 100.0
        else:
            shown[score] = 100 * (below + (count - 1) / 2) / (players - 1)
        below += count
    return shown
