"""Path converters that let through only values a view could ever find.

A NUL byte or a control character can never be part of a username, a code or a day, and
PostgreSQL refuses NUL in any string: such a path is not a page, so it does not resolve.
"""

from __future__ import annotations

from django.urls import register_converter


class NameConverter:
    """One path segment of printable text, at most 150 characters (a username's limit)."""

    regex = r"[^/\x00-\x1f\x7f]{1,150}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class CodeConverter:
    """An invitation code: letters and digits (ASCII), as ``games.services`` makes them."""

    regex = r"[A-Za-z0-9]{1,16}"

    def to_python(self, value: str) -> str:
        return value.upper()

    def to_url(self, value: str) -> str:
        return value


register_converter(NameConverter, "name")
register_converter(CodeConverter, "code")
