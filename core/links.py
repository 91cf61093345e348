"""Many URLs of one route from a single ``reverse()``: a stand-in argument, filled per row.

A page of fifty rows would otherwise reverse a hundred URLs, a good part of its time.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from django.urls import reverse

#: Digits, so that every converter (``int``, ``str``, ``name``) takes it; no real id is
#: this large yet, and it appears nowhere else in a URL.
STAND_IN = "987654321987"

# What Django's reverse() leaves unquoted in a path argument (RFC 3986 sub-delimiters and
# ``~:@``); a slash never occurs in one segment here.
_SAFE = "!$&'()*+,;=~:@"


class Link:
    """The URL of route ``name`` for one argument at a time, reversed once.

    ``build`` turns the path into what is shown (``request.build_absolute_uri`` for an
    absolute URL). ``link(42)`` or ``link("name")`` is then what
    ``build(reverse(name, args=[42]))`` would give.
    """

    def __init__(self, name: str, *, build: Callable[[str], str] | None = None) -> None:
        path = reverse(name, args=[STAND_IN])
        url = build(path) if build is not None else path
        before, found, after = url.rpartition(STAND_IN)
        if not found:
            raise ValueError(f"The route {name!r} does not show its argument.")
        self._before, self._after = before, after

    def __call__(self, argument: int | str) -> str:
        text = str(argument) if isinstance(argument, int) else quote(argument, safe=_SAFE)
        return f"{self._before}{text}{self._after}"
