"""Glicko-2 as the puzzles rate with it: Glickman's worked example, wins and losses."""

from __future__ import annotations

import pytest

from puzzles import glicko


def test_glickmans_worked_example_gives_his_figures() -> None:
    # "Example of the Glicko-2 system" (2013): 1500 ± 200 beats 1400 ± 30, loses to
    # 1550 ± 100 and to 1700 ± 300 in one period.
    after = glicko.update(
        glicko.Rating(1500, 200, 0.06),
        [
            (glicko.Rating(1400, 30), 1.0),
            (glicko.Rating(1550, 100), 0.0),
            (glicko.Rating(1700, 300), 0.0),
        ],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_lifts_the_winner_and_sinks_the_loser_a_draw_between_equals_moves_neither() -> None:
    newcomer, puzzle = glicko.Rating(), glicko.Rating()
    player_after, puzzle_after = glicko.play(newcomer, puzzle, 1.0)
    assert player_after.rating > 1500 > puzzle_after.rating
    assert player_after.rd < newcomer.rd
    drawn, _ = glicko.play(newcomer, puzzle, 0.5)
    assert drawn.rating == pytest.approx(1500)
    lost, _ = glicko.play(newcomer, puzzle, 0.0)
    assert lost.rating < 1500
