"""Marks on views that middleware reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

View = TypeVar("View", bound=Callable[..., object])


def poll(view: View) -> View:
    """Mark a view as a cheap poll: per-request checks that load the session skip it.

    Only for views that reveal nothing a signed-out visitor could not see when they find
    nothing new, and that check permissions themselves before showing anything else.
    """
    view.is_poll = True  # type: ignore[attr-defined]
    return view


def is_poll(view: Callable[..., object]) -> bool:
    """Whether ``view`` is marked a cheap poll (``poll``): middleware that would load the
    session or the user for it skips it."""
    return bool(getattr(view, "is_poll", False))
