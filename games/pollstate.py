"""The version and deadline that a Limes game's polls compare, kept in the shared cache
(``core.polls.PollStates``, which says why and how it stays in step with the database)."""

from __future__ import annotations

import datetime

from core.polls import POLL_STATE_SECONDS, PollState, PollStates
from games.models import Game

__all__ = [
    "POLL_STATE_SECONDS",
    "PollState",
    "poll_state",
    "poll_state_key",
    "poll_state_publish",
    "poll_state_set",
]

_states = PollStates(Game, "games:poll")


def poll_state_key(game_id: int) -> str:
    """The cache key of a game's poll state."""
    return _states.key(game_id)


def poll_state_publish(game: Game) -> None:
    """Store the game's current version and deadline for its polls (call under its lock)."""
    _states.publish(game.pk, game.version, game.deadline)


def poll_state_set(game_id: int, version: int, deadline: datetime.datetime | None) -> None:
    """``poll_state_publish`` for a game written without its row in hand (under its lock)."""
    _states.publish(game_id, version, deadline)


def poll_state(game_id: int) -> PollState | None:
    """The game's version and deadline, from the cache when it has them; None: no game."""
    return _states.get(game_id)
