"""The multiplayer rating: openskill's Plackett–Luce model, one player per team.

Plackett–Luce ranks any number of players in one game and lets several share a place,
which Limes needs (ties on score and tie-break share the place).
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    """A player's belief state: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative figure the board sorts by: mu − 3 sigma (0 for a newcomer)."""
        return self.mu - 3 * self.sigma


INITIAL = Skill(mu=_MODEL.mu, sigma=_MODEL.sigma)

# The rating players see: the ordinal on a familiar scale, as openskill's own
# ordinal(alpha, target) offers it. A newcomer (ordinal 0) shows 1500; one point of
# ordinal is 24 rating points (alpha = 200 / the initial sigma), so the first games move a
# rating by tens to a few hundred points, as players of Elo-rated sites expect.
DISPLAY_TARGET = 1500
DISPLAY_ALPHA = 200 / INITIAL.sigma


def display_rating(ordinal: float) -> int:
    """The ordinal as the site shows it: ``1500 + 24 × ordinal``, rounded."""
    return round(DISPLAY_TARGET + DISPLAY_ALPHA * ordinal)


def display_change(before: float, after: float) -> str:
    """What a game did to a rating, on the shown scale: ``+12``, ``-7`` or ``±0``."""
    change = display_rating(after) - display_rating(before)
    return f"{change:+d}" if change else "±0"


def rate(skills: list[Skill], places: list[int]) -> list[Skill]:
    """The skills after one game in which player ``i`` finished at ``places[i]`` (1 = won).

    Equal places are shared places. Needs at least two players.
    """
    if len(skills) < 2 or len(skills) != len(places):
        raise ValueError("A rated game needs two or more players, each with a place.")
    teams = [[_MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(mu=team[0].mu, sigma=team[0].sigma) for team in rated]
