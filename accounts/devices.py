"""A device subscribed to push in a session is unsubscribed when that session signs out.

On a shared browser the next person to use it must not get the last one's notifications:
the subscriptions a session made are remembered in it (``remember``), and signing out
removes them (``forget_on_sign_out``, connected in ``accounts.apps``). A session that
merely expires keeps its devices subscribed, as a player who never signs out expects.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.models import User
from accounts.services import push_subscriptions_signed_out

#: The session's list of the subscriptions (pks) it made.
SESSION_KEY = "limes_push_devices"
#: A session remembers at most this many (a device subscribes once; more is a script).
KEPT = 20


def remember(request: HttpRequest, subscription_id: int) -> None:
    """Note in the session that it subscribed this device."""
    devices = list(request.session.get(SESSION_KEY, []))
    if subscription_id not in devices:
        request.session[SESSION_KEY] = [*devices, subscription_id][-KEPT:]


def forget_on_sign_out(
    sender: Any, request: HttpRequest | None, user: User | None, **kwargs: Any
) -> None:
    """``user_logged_out``'s receiver: unsubscribe the devices this session subscribed."""
    if request is None or user is None or not getattr(request, "session", None):
        return
    devices = request.session.get(SESSION_KEY, [])
    if devices:
        push_subscriptions_signed_out(user=user, subscription_ids=devices)
