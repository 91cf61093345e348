"""The ids rows have: every model's key is a signed 64-bit integer (``BigAutoField``)."""

from __future__ import annotations

#: The largest id a row can have. A bigger number in an address or a form is no row, and
#: PostgreSQL (or SQLite) would refuse to compare a column with it.
MAX_ID = 2**63 - 1


def is_row_id(pk: int) -> bool:
    """Whether ``pk`` could be a row's id (1 to ``MAX_ID``)."""
    return 0 < pk <= MAX_ID
