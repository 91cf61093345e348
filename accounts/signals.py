"""Events of accounts that apps above them react to (games, moderation)."""

from __future__ import annotations

from django.dispatch import Signal

# Sent by ``accounts.services.user_delete`` inside its transaction, before the account is
# anonymised, with ``user``: receivers end what the player leaves behind (their games), so
# that a failure undoes the deletion too. Receivers run in INSTALLED_APPS order, the games
# app's first (tests/limes_site/test_signal_order.py holds the order).
user_deleting = Signal()

# Sent by ``accounts.services.vacation_start`` and ``vacation_end`` inside their transaction,
# with ``user``: the games app tells the open pages of that player's correspondence games,
# whose notice and clock change with it.
vacation_changed = Signal()
