"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), one game per rating period.

Our own few lines rather than PyPI's ``glicko2`` 2.1.0: that package's volatility step
(``Player._f``) squares the rating where Glickman's step 5 squares the deviation (φ²),
and it is an untyped class with a mutable class-wide τ. Checked against the paper's worked
example in ``tests/puzzles/test_glicko.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glickman's scale factor between the Glicko and Glicko-2 scales.
SCALE = 173.7178
#: The system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2).
TAU = 0.5
#: A deviation never grows past a newcomer's nor shrinks below this (so a puzzle solved by
#: thousands still moves a little).
MAX_RD = 350.0
MIN_RD = 45.0
_EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: 1500 ± 350 for a newcomer."""

    rating: float = 1500.0
    rd: float = MAX_RD
    volatility: float = 0.06


def update(player: Rating, games: Sequence[tuple[Rating, float]]) -> Rating:
    """``player``'s rating after a rating period of ``games``: (opponent, score) pairs, a
    score being 1 (a win), 0.5 (a draw) or 0 (a loss)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - 1500.0) / SCALE
        g = 1.0 / math.sqrt(1.0 + 3.0 * (opponent.rd / SCALE) ** 2 / math.pi**2)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        inverse_v += g**2 * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / inverse_v
    sigma = _volatility(phi, player.volatility, v * improvement, v)
    phi_star = math.sqrt(phi**2 + sigma**2)
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    new_mu = mu + new_phi**2 * improvement
    rd = min(MAX_RD, max(MIN_RD, new_phi * SCALE))
    return Rating(1500.0 + new_mu * SCALE, rd, sigma)


def play(player: Rating, opponent: Rating, score: float) -> tuple[Rating, Rating]:
    """Both ratings after one game (``score`` is ``player``'s): each side's period of one."""
    return update(player, [(opponent, score)]), update(opponent, [(player, 1.0 - score)])


def _volatility(phi: float, sigma: float, delta: float, v: float) -> float:
    # Step 5: the Illinois algorithm on f, as the paper states it.
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / TAU**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
