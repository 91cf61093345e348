"""Events the Winter app publishes for the apps above it (it imports none of them).

``winter_game_finished`` is sent inside the transaction that finishes a Winter game, after
its seats carry their final score and place, with ``sender=WinterGame`` and the keyword
arguments:

- ``game``: the finished ``WinterGame`` (``status``, ``finished_at`` set);
- ``seats``: its seats, users loaded, in position order (a resigned person's seat keeps
  its ``user``, with ``resigned`` set and a computer playing it on);
- ``state``: the finished ``winter.Game``.

Receivers run in that transaction: one that raises undoes the whole finish. Connect in
your app's ``AppConfig.ready`` with a ``dispatch_uid``, as ``leaderboards/apps.py`` does.
"""

from __future__ import annotations

from django.dispatch import Signal

winter_game_finished = Signal()
