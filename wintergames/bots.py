"""The computer players, until ``winter.bot`` lands: an adapter of this app's own.

The engine's branch has no ``winter.bot`` yet; these three levels pick among the engine's
legal turns (``Game.iter_placements``) with a one-turn look at the points, so that a game
against the computer can be played to its end. Each sees the board, its tile and the tiles
left by kind, never the order of the tiles to come.
"""

from __future__ import annotations

import random

import winter

LEVELS = ("easy", "normal", "strong")


def _value(state: winter.Game, turn: winter.Placement, seat: int, level: str) -> float:
    trial = state.copy(hide_order=True)
    trial.play(turn)
    gained = trial.score(seat) - state.score(seat)
    if level == "normal":
        return gained + 0.5 * (turn.follower is not None)
    # strong: the points now and what its followers would score were the game to end now,
    # a follower kept back when it buys little.
    standing = trial.end_points()[seat] - state.end_points()[seat]
    spent = turn.follower is not None and not gained
    return 2 * gained + standing - (1.5 if spent and trial.supply(seat) < 3 else 0.0)


def bot_turn(state: winter.Game, tile: str, *, level: str, seed: int) -> winter.Placement:
    """The computer's turn with ``tile``, the one drawn, at ``level``; ``state`` may be
    the public view of the game (``Game.copy(hide_order=True)``).

    Raises ValueError when the tile fits nowhere or the level is unknown."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    turns = list(state.iter_placements(tile))
    if not turns:
        raise ValueError(f"{tile} fits nowhere")
    chooser = random.Random(seed)
    if level == "easy" or len(turns) == 1:
        return chooser.choice(turns)
    seat = state.to_move
    values = [_value(state, turn, seat, level) for turn in turns]
    best = max(values)
    return chooser.choice([t for t, v in zip(turns, values, strict=True) if v >= best - 1e-9])
