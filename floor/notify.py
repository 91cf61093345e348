"""The one service that tells a player something: ``notify``.

Each event (``accounts.notifications.Event``) reaches the player by the channels they chose
(``accounts.selectors.notification_channels``): a ``Notification`` row on the site, an
e-mail and a push to each of their devices, both sent by the task worker once the
transaction commits (``floor.mail``, ``floor.webpush``). Every app notifies through here;
nothing else writes a ``Notification``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import Notification, PushSubscription, User
from accounts.notifications import CHANNELS, Channel, Event
from accounts.selectors import notification_channels, vacation_current
from accounts.site_url import site_url
from accounts.vapid import push_enabled
from floor import mail, tasks

#: The longest text a notice holds (``Notification.text``): a longer one is cut.
TEXT_MAX_LENGTH = 300

#: Events whose push still reaches a player on vacation: a live game's clock runs for
#: them all the same (only correspondence clocks stand still), and they are at its table.
DESPITE_VACATION: frozenset[Event] = frozenset({Event.LIVE_TURN})


def notify(
    *,
    user: User,
    event: Event,
    text: Callable[[], str],
    url: str,
    mail_too: bool = True,
) -> Notification | None:
    """Tell ``user`` of ``event`` by the channels they chose; returns the site's notice, if
    one was written.

    Call it inside the transaction of what it tells about: a rolled-back change sends
    nothing. ``text`` is called in the player's language; ``url`` is the site's path of the
    page to open. ``mail_too=False`` holds the e-mail back (an ask repeated the same day).
    """
    if user.is_deleted:
        return None
    # An event that could only be pushed (a live turn, or a turn whose mail is batched)
    # reaches no one without a device to push to, the usual case: then which channels the
    # player chose need not be read.
    only_push = Channel.SITE not in CHANNELS[event] and not (
        mail_too and user.email and Channel.EMAIL in CHANNELS[event]
    )
    if only_push and not _has_devices(user):
        return None
    channels = notification_channels(user, event)
    with translation.override(user.language_for_messages):
        body = text()[:TEXT_MAX_LENGTH]
        subject = _("Limes Online: %(what)s") % {"what": event.label}
        footer = _("You can choose which notifications you get in your settings.")
        title = _("Limes Online")
    notification = None
    if Channel.SITE in channels:
        notification = Notification(user=user, text=body, url=url)
        notification.full_clean()
        notification.save()
    # On vacation: nothing to their inbox or devices; the notice waits on the site for them.
    beyond_site = event not in DESPITE_VACATION and bool(channels - {Channel.SITE})
    if beyond_site and vacation_current(user) is not None:
        return notification
    if mail_too and Channel.EMAIL in channels and user.email:
        message = f"{body}\n\n{site_url()}{url}\n\n{footer}"
        mail.mail_send(to=user.email, subject=subject, body=message)
    if Channel.PUSH in channels:
        if only_push:  # its devices were found above
            _push_queued(user, title, body, url, event.value)
        else:
            push_queue(user=user, title=title, body=body, url=url, tag=event.value)
    return notification


def push_queue(*, user: User, title: str, body: str, url: str, tag: str) -> None:
    """Queue a push to each of ``user``'s devices for the task worker, once the transaction
    commits; nothing when push is off or they have no device.

    The payload is what the notification shows: a title, a text and the page to open. It
    never holds a card: a game's page shows those to whoever may see them.
    """
    if _has_devices(user):
        _push_queued(user, title, body, url, tag)


def _has_devices(user: User) -> bool:
    return push_enabled() and PushSubscription.objects.filter(user=user).exists()


def _push_queued(user: User, title: str, body: str, url: str, tag: str) -> None:
    args = (user.pk, title, body, url, tag)
    transaction.on_commit(lambda: tasks.webpush_send.enqueue(*args))
