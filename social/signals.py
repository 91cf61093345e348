"""Events of the social app for whatever carries pages to browsers (server push).

``chat_changed`` is sent after the commit that wrote or hid a message of a game's chat,
with ``sender=ChatMessage`` and ``game_id``. Today the chat panel polls
(``social.views.chat_poll``); a push channel connects here and sends the panel's
fragment (``social.views.chat_panel_html``) instead.
"""

from __future__ import annotations

from django.dispatch import Signal

chat_changed = Signal()
