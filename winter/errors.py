"""The exceptions of the winter package."""

from __future__ import annotations


class WinterError(ValueError):
    """Base class of every error the winter package raises on purpose."""


class IllegalMoveError(WinterError):
    """A well-formed move that breaks a rule; the message names the turn and the rule."""


class InvalidInputError(WinterError):
    """Malformed input: a record or a move that cannot be read (an unknown tile, …)."""
