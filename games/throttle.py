"""Counters in the cache: failed guesses (invitation codes), per player and per address, and
hints, per player.

The cache is the one every worker shares in production (see the settings), so the limit
holds across processes.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest

from core.clients import client_address
from core.counters import window_count

# Wrong invitation codes allowed in one window, per player and per address (several
# players may share an address: a school, a family).
CODE_MISSES_PER_USER = 10
CODE_MISSES_PER_ADDRESS = 30
CODE_WINDOW_SECONDS = 600
# Hints one player may take in a window: a strong computer's turn each (tens of ms of CPU).
# One a round at any human pace is far below it; a script asking 26 a second is not.
HINTS_PER_WINDOW = 12
HINT_WINDOW_SECONDS = 60


def _keys(request: HttpRequest) -> list[tuple[str, int]]:
    return [
        (f"throttle:code-miss:user:{request.user.pk}", CODE_MISSES_PER_USER),
        (f"throttle:code-miss:addr:{client_address(request)}", CODE_MISSES_PER_ADDRESS),
    ]


def code_guesses_blocked(request: HttpRequest) -> bool:
    """Whether this player or address has guessed wrong too often to look up any code."""
    counts = cache.get_many([key for key, _limit in _keys(request)])
    return any(counts.get(key, 0) >= limit for key, limit in _keys(request))


def code_miss_record(request: HttpRequest) -> None:
    """Count one wrong code against the player and the address."""
    for key, _limit in _keys(request):
        window_count(key, CODE_WINDOW_SECONDS)


def hint_take_allowed(user_id: int) -> bool:
    """Count one hint for the player; whether it is within ``HINTS_PER_WINDOW``."""
    return window_count(f"throttle:hint:user:{user_id}", HINT_WINDOW_SECONDS) <= HINTS_PER_WINDOW
