"""Events of tournaments, for whatever must tell the players (push notifications, #38).

``live_deal_dealt`` is sent once the transaction that dealt a live tournament's deal has
committed, with ``sender=Tournament`` and the keyword arguments ``tournament``, ``number``
(the deal's) and ``games`` (each entrant's new game id, by user id). Nothing receives it yet:
the pages hear of the deal through the tournament's stream (``tournaments.streams``).
"""

from __future__ import annotations

from django.dispatch import Signal

live_deal_dealt = Signal()
