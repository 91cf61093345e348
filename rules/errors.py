"""The exceptions of the rules package."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the rules package raises on purpose."""


class IllegalMoveError(RulesError):
    """A well-formed move that breaks a rule; the message names the rule."""


class InvalidInputError(RulesError):
    """Malformed input: a zone map, a record or a deck that cannot be read.

    ``line`` and ``column`` (1-based) locate the fault when it has a place in a text.
    """

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def located(self, source: str) -> str:
        """The message as ``SOURCE:LINE:COL: message`` (or ``SOURCE: message``)."""
        if self.line is None:
            return f"{source}: {self.message}"
        return f"{source}:{self.line}:{self.column or 1}: {self.message}"
