"""Web push, sent by the task worker (``tasks.webpush_send``), never inside a request.

Each payload is encrypted for one device (RFC 8291, aes128gcm) and signed with the site's
VAPID key (``LIMES_VAPID_*``). A push service that answers 404 or 410 has forgotten the
subscription: it is deleted. Other failures are logged; a push is not retried (a late
"your move" is worse than none: the menu and the e-mail carry it).

A push service that does not answer costs its device ``LIMES_PUSH_TIMEOUT_SECONDS`` (to
connect, then each read) and the whole task at most ``LIMES_PUSH_TASK_SECONDS``: past it,
the devices left get nothing this time. The devices that last took a push go first, so a
dead or hostile endpoint among a player's devices does not cost them the phone that works.
"""

from __future__ import annotations

import json
import logging
import time

import requests
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import F
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from accounts.models import PushSubscription
from accounts.pushendpoint import push_endpoint

logger = logging.getLogger(__name__)

#: Seconds a push service keeps a message for a device that is off (a day).
TTL = 24 * 60 * 60
#: The push service's answers that mean the subscription is gone for good.
GONE = frozenset({404, 410})


def payload(*, title: str, body: str, url: str, tag: str) -> str:
    """What the service worker's ``push`` handler reads (``templates/installable/sw.js``)."""
    return json.dumps({"title": title, "body": body, "url": url, "tag": tag})


def push_deliver(*, user_id: int, title: str, body: str, url: str, tag: str) -> str:
    """Push one notification to every device of ``user_id``; returns what happened."""
    devices = PushSubscription.objects.filter(user_id=user_id)
    subscriptions = list(
        devices.order_by(F("last_success_at").desc(nulls_last=True), "created_at", "pk")
    )
    if not subscriptions or not settings.LIMES_VAPID_PRIVATE_KEY:
        return "no device"
    data = payload(title=title, body=body, url=url, tag=tag)
    vapid = Vapid.from_string(private_key=settings.LIMES_VAPID_PRIVATE_KEY)
    sent = gone = failed = late = 0
    deadline = time.monotonic() + settings.LIMES_PUSH_TASK_SECONDS
    with requests.Session() as session:
        # A push service answers; it does not send us on. A redirect followed would take
        # the worker past the hosts the subscription was checked against (LIMES_PUSH_HOSTS).
        session.max_redirects = 0
        for subscription in subscriptions:
            left = deadline - time.monotonic()
            if left <= 0:
                late += 1
                continue
            timeout = min(settings.LIMES_PUSH_TIMEOUT_SECONDS, left)
            outcome = _deliver(subscription, data, vapid, session, timeout)
            sent += outcome == "sent"
            gone += outcome == "gone"
            failed += outcome == "failed"
    if late:
        logger.warning("push to player %d: %d devices left out of time", user_id, late)
    return f"sent {sent}, removed {gone}, failed {failed}, out of time {late}"


def _deliver(
    subscription: PushSubscription,
    data: str,
    vapid: Vapid,
    session: requests.Session,
    timeout: float,
) -> str:
    try:
        # Read again as at subscribing (a row stored before a check, or before the list of
        # push services changed, is not posted to): the URL posted to is the one checked.
        endpoint = push_endpoint(subscription.endpoint)
    except ValidationError:
        logger.warning("push to subscription %d refused: not a push service", subscription.pk)
        return "failed"
    info = {
        "endpoint": endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        webpush(
            info,
            data=data,
            vapid_private_key=vapid,
            # A fresh dict each time: webpush writes the audience and expiry into it.
            vapid_claims={"sub": settings.LIMES_VAPID_SUBJECT},
            ttl=TTL,
            timeout=timeout,
            requests_session=session,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in GONE:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return "gone"
        logger.warning("push to subscription %d failed: %s", subscription.pk, error)
        return "failed"
    except requests.RequestException as error:
        logger.warning("push service of subscription %d unreachable: %s", subscription.pk, error)
        return "failed"
    except ValueError as error:
        # Keys nothing can be encrypted for (stored before they were checked): this device
        # gets nothing, the player's others still do.
        logger.warning("push to subscription %d: unusable keys: %s", subscription.pk, error)
        return "failed"
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now())
    return "sent"
