"""Writes of ratings and leaderboard tables, in the transaction of the result they follow."""

from __future__ import annotations

from games.models import Game, Seat


def game_finished(*, game: Game, seats: list[Seat]) -> None:
    """Record a finished game on the boards and ratings (called inside its transaction)."""
