"""Fences around code that builds on another library's private parts: each is written
against the versions someone read, and a system check stops ``manage.py`` on any other."""

from __future__ import annotations

from django.core.checks import CheckMessage, Error


def version_fence(
    *,
    what: str,
    library: str,
    installed: tuple[int, int],
    shown: str,
    written_for: frozenset[tuple[int, int]],
    hint: str,
    id: str,
) -> list[CheckMessage]:
    """No message while ``installed`` (major, minor) is among ``written_for``; else the
    error ``id`` saying that ``what`` was written for other versions of ``library``, not
    ``shown`` (the installed version's full name), with ``hint`` on what to do."""
    if installed in written_for:
        return []
    written = ", ".join(f"{major}.{minor}" for major, minor in sorted(written_for))
    return [
        Error(f"{what} and was written for {library} {written}, not {shown}.", hint=hint, id=id)
    ]
