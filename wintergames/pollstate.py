"""The version and deadline that a Winter game's polls and stream compare, kept in the
shared cache (``core.polls.PollStates``, which says why and how it keeps in step with the
database): a poll that finds nothing new reads no row."""

from __future__ import annotations

from core.polls import PollStates
from wintergames.models import WinterGame

poll_states = PollStates(WinterGame, "winter:poll")
"""Published by the services' funnel under the game's lock; read by the poll and stream."""
