"""Events the games app publishes for the apps above it (it imports none of them).

``game_finished`` is sent inside the transaction that finishes a game, after its seats
carry their final score and place, with ``sender=Game`` and the keyword arguments:

- ``game``: the finished ``Game`` (``status``, ``finished_at`` set);
- ``seats``: its seats, users loaded, in position order;
- ``state``: the finished ``rules.Game``, so a receiver need not replay the moves.

Receivers run in that transaction: one that raises undoes the whole finish, so the game,
its result and everything the receivers wrote commit together or not at all. Connect in
your app's ``AppConfig.ready`` with a ``dispatch_uid``, as ``leaderboards/apps.py`` does.
"""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()

lockstep_finished = Signal()
"""Sent, with ``sender=Lockstep`` and ``lockstep``, inside the transaction in which a live
table's last game has ended (``services.lockstep_advance``): whoever made it moves on."""
