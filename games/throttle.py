"""Counters in the cache: failed guesses (invitation codes), per player and per address, and
hints, per player.

The cache is the one every worker shares in production (see the settings), so the limit
holds across processes.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

# Wrong invitation codes allowed in one window, per player and per address (several
# players may share an address: a school, a family).
CODE_MISSES_PER_USER = 10
CODE_MISSES_PER_ADDRESS = 30
CODE_WINDOW_SECONDS = 600
# Hints one player may take in a window: a strong computer's turn each (tens of ms of CPU).
# One a round at any human pace is far below it; a script asking 26 a second is not.
HINTS_PER_WINDOW = 12
HINT_WINDOW_SECONDS = 60


def client_address(request: HttpRequest) -> str:
    """The client's IP address, trusting as many proxies as allauth is told to."""
    proxies = int(getattr(settings, "ALLAUTH_TRUSTED_PROXY_COUNT", 0))
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= proxies:
            return str(hops[-proxies])
    return str(request.META.get("REMOTE_ADDR", ""))


def client_network(request: HttpRequest) -> str:
    """The client's address, or for IPv6 its /64: one household or machine is usually given
    a whole /64, and counting each of its addresses apart would count it many times."""
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)


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
        _count(key, CODE_WINDOW_SECONDS)


def hint_take_allowed(user_id: int) -> bool:
    """Count one hint for the player; whether it is within ``HINTS_PER_WINDOW``."""
    return _count(f"throttle:hint:user:{user_id}", HINT_WINDOW_SECONDS) <= HINTS_PER_WINDOW


def _count(key: str, window: int) -> int:
    # add() starts the window only once; incr() never extends it.
    cache.add(key, 0, window)
    try:
        return int(cache.incr(key))
    except ValueError:  # the window ended between the two calls
        cache.add(key, 1, window)
        return 1
