"""The refusal every service raises and every view understands."""

from __future__ import annotations

from django.core.exceptions import ValidationError


class ActionRefused(ValidationError):
    """A request the server will not carry out; the message says why. Nothing was written.

    ``status`` is the HTTP status a view answers with: 400 for a request that can never
    succeed, 409 for one the current state refuses now (429 for one made too often).
    ``code`` names the reason for a caller that tells them apart (``"past"``,
    ``"throttled"``). A ``ValidationError`` still, so a form shows its message as its own.
    """

    def __init__(self, message: str, *, status: int = 400, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.status = status
