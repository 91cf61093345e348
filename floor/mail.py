"""E-mail, sent by the task worker and never inside a request.

- ``mail_send`` queues a message once the transaction that wrote what it tells about commits
  (a rolled-back write sends nothing). The task ``tasks.mail_send`` delivers it; when the
  mail server fails, it queues itself again after a pause that grows (``mail_backoff``),
  ``MAIL_ATTEMPTS`` times in all, and only then logs an error and fails.
- Turn mails of correspondence games are batched: at most one per player per
  ``LIMES_TURN_MAIL_INTERVAL`` minutes, listing every game of every kind that waits for
  their move (``turn_mail_send``, state in ``TurnMail``). Each game tells which of its turns
  wait through a source it registers (``turn_mail_source``, in its ``AppConfig``). Each
  carries ``List-Unsubscribe`` headers and a one-click link
  (``accounts:turn_mail_unsubscribe``) that turns them off without sign-in. A player on
  vacation gets none.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.notifications import Channel, Event
from accounts.selectors import notification_channels, vacation_current
from accounts.services import turn_mail_off_token
from accounts.site_url import site_url
from floor import tasks
from floor.models import TurnMail

logger = logging.getLogger(__name__)

# Deliveries of one message before it is given up: 1, 4, 16 and 64 minutes apart.
MAIL_ATTEMPTS = 5


def mail_backoff(attempt: int) -> datetime.timedelta:
    """The pause after failed delivery number ``attempt`` (from 1)."""
    return datetime.timedelta(minutes=4 ** (attempt - 1))


def mail_send(*, to: str, subject: str, body: str, headers: dict[str, str] | None = None) -> None:
    """Queue one message to ``to`` for the task worker, once the transaction commits."""
    args = (to, subject, body, dict(headers or {}))
    transaction.on_commit(lambda: _mail_enqueue(*args, attempt=1))


def _mail_enqueue(
    to: str,
    subject: str,
    body: str,
    headers: dict[str, str],
    *,
    attempt: int,
    after: datetime.timedelta | None = None,
) -> None:
    task = tasks.mail_send
    # A backend that cannot wait (the tests' immediate one) tries again at once.
    if after is not None and task.get_backend().supports_defer:
        task = task.using(run_after=timezone.now() + after)
    task.enqueue(to, subject, body, headers, attempt)


def mail_deliver(*, to: str, subject: str, body: str, headers: dict[str, str], attempt: int) -> str:
    """Hand one message to the mail server (the task ``mail_send``).

    A failure queues it again (returns ``"retry"``); the last attempt's failure is logged
    and raised, so the task is recorded as failed.
    """
    message = EmailMessage(subject, body, None, [to], headers=headers)
    try:
        message.send()
    except Exception:
        if attempt >= MAIL_ATTEMPTS:
            logger.exception("mail %r given up after %d attempts", subject, attempt)
            raise
        logger.warning(
            "mail %r failed (attempt %d of %d), tried again later",
            subject,
            attempt,
            MAIL_ATTEMPTS,
            exc_info=True,
        )
        _mail_enqueue(to, subject, body, headers, attempt=attempt + 1, after=mail_backoff(attempt))
        return "retry"
    return "sent"


# -- turn mails --------------------------------------------------------------------------


def turn_mail_interval() -> datetime.timedelta:
    """The least time between two turn mails to one player."""
    return datetime.timedelta(minutes=settings.LIMES_TURN_MAIL_INTERVAL)


@dataclass(frozen=True)
class WaitingTurn:
    """One correspondence game waiting for a player's move, as its turn mail tells it (in
    the language active when its source is asked)."""

    deadline: datetime.datetime | None
    #: Its line among several: what waits, until when, and its address.
    line: str
    #: The subject and the body when it is the only one.
    subject: str
    text: str


#: Called with a player and the site's address (``site_url``): their waiting turns.
TurnSource = Callable[[User, str], list[WaitingTurn]]
_sources: list[TurnSource] = []


def turn_mail_source(source: TurnSource) -> None:
    """Make a game's waiting turns part of every turn mail (call in ``AppConfig.ready``)."""
    if source not in _sources:
        _sources.append(source)


def turn_mail_notify(users: list[User]) -> None:
    """A correspondence game waits for ``users``: their turn mails are queued once the
    transaction commits, and the worker decides when each goes out."""
    user_ids = [user.pk for user in users if _wants_turn_mail(user)]
    if not user_ids:
        return
    # Links in the mail point at the address this request came in on (see site_url).
    origin = site_url()

    def enqueue() -> None:
        for user_id in user_ids:
            tasks.turn_mail.enqueue(user_id, origin)

    transaction.on_commit(enqueue)


def _wants_turn_mail(user: User) -> bool:
    if not user.email or user.is_deleted:
        return False
    # On vacation their clocks stand still, and no mail reaches them (as ``floor.notify``).
    if vacation_current(user) is not None:
        return False
    return Channel.EMAIL in notification_channels(user, Event.TURN)


def _turns_waiting(user: User, origin: str) -> list[WaitingTurn]:
    turns = [turn for source in _sources for turn in source(user, origin)]
    far = datetime.datetime.max.replace(tzinfo=datetime.UTC)
    return sorted(turns, key=lambda turn: turn.deadline or far)


@transaction.atomic
def turn_mail_send(*, user_id: int, origin: str) -> str:
    """Send ``user_id`` one mail listing every correspondence game waiting for their move,
    unless one went less than an interval ago: then one is due when the interval ends
    (a task waits for it where the backend can wait; ``turn_mails_due`` catches the rest).
    Returns what it did. Safe to run twice: a second run finds the interval not passed.
    """
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return "no such player"
    TurnMail.objects.get_or_create(user=user)
    state = TurnMail.objects.select_for_update().get(pk=user_id)
    now = timezone.now()
    if state.sent_at is not None and now < state.sent_at + turn_mail_interval():
        if state.due:
            return "due already"
        state.due = True
        state.save(update_fields=["due"])
        when = state.sent_at + turn_mail_interval()
        if tasks.turn_mail.get_backend().supports_defer:
            transaction.on_commit(
                lambda: tasks.turn_mail.using(run_after=when).enqueue(user_id, origin)
            )
        return "later"
    state.due = False
    if not _wants_turn_mail(user):
        state.save(update_fields=["due"])
        return "nothing to send"
    off = origin + reverse(
        "accounts:turn_mail_unsubscribe", kwargs={"token": turn_mail_off_token(user)}
    )
    with translation.override(user.language_for_messages):
        turns = _turns_waiting(user, origin)
        subject, body = turn_mail_text(turns, off)
    if not turns:
        state.save(update_fields=["due"])
        return "nothing to send"
    state.sent_at = now
    state.save(update_fields=["due", "sent_at"])
    mail_send(
        to=user.email,
        subject=subject,
        body=body,
        headers={
            "List-Unsubscribe": f"<{off}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    return "sent"


def turn_mails_due(*, origin: str | None = None) -> int:
    """Send the turn mails whose interval has passed and that no waiting task will send
    (run by ``expire_deadlines``). Returns how many players were looked at."""
    cutoff = timezone.now() - turn_mail_interval()
    user_ids = list(
        TurnMail.objects.filter(due=True, sent_at__lte=cutoff).values_list("user_id", flat=True)
    )
    for user_id in user_ids:
        turn_mail_send(user_id=user_id, origin=origin or site_url())
    return len(user_ids)


def turn_mail_text(turns: list[WaitingTurn], off: str) -> tuple[str, str]:
    """The subject and body of a turn mail listing ``turns``, in the active language."""
    if len(turns) == 1:
        subject, text = turns[0].subject, turns[0].text
    else:
        subject = ngettext(
            "Limes: %(count)d game waits for you",
            "Limes: %(count)d games wait for you",
            len(turns),
        ) % {"count": len(turns)}
        text = "\n\n".join(
            [
                _("These Limes games wait for your move:"),
                "\n".join(turn.line for turn in turns),
                _("You can turn these emails off in your settings."),
            ]
        )
    footer = _("Or stop them with one click: %(url)s") % {"url": off}
    return subject, f"{text}\n{footer}"
