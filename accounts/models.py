from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.notifications import Channel, Event

BIO_MAX_LENGTH = 500
#: The longest push endpoint taken (the services' own are 100 to 400 characters).
PUSH_ENDPOINT_MAX_LENGTH = 1000


class User(AbstractUser):
    """A player. Deleting an account anonymises the row so that its games keep a seat."""

    bio = models.TextField(
        _("bio"),
        max_length=BIO_MAX_LENGTH,
        blank=True,
        # A TextField's max_length only reaches the form widget; the validator makes
        # full_clean() enforce it too.
        validators=[MaxLengthValidator(BIO_MAX_LENGTH)],
    )
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True, editable=False)
    # Off by default: a page that beeps unasked is a page people close.
    move_sound = models.BooleanField(_("play a sound when a game waits for my move"), default=False)
    # The ban in force, if any (the history is in moderation.Ban). A ban ends by itself:
    # the account counts as banned only while ``banned_until`` lies in the future.
    banned_until = models.DateTimeField(_("banned until"), null=True, blank=True)
    ban_reason = models.CharField(_("ban reason"), max_length=300, blank=True)
    must_rename = models.BooleanField(
        _("must choose a new username"),
        default=False,
        help_text=_("Set when a moderator reset an offensive name."),
    )

    # Blank: the browser's language. Emails and notifications use it, or English if blank.
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True, default=""
    )

    @property
    def is_deleted(self) -> bool:
        """Whether the player deleted their account."""
        return self.deleted_at is not None

    @property
    def is_banned(self) -> bool:
        """Whether a ban is in force now."""
        return self.banned_until is not None and self.banned_until > timezone.now()

    @property
    def display_name(self) -> str:
        """The name to show other players: the username, or "deleted player"."""
        if self.is_deleted:
            return gettext("deleted player")
        return self.username

    @property
    def language_for_messages(self) -> str:
        """The language to write this player's emails and notifications in."""
        return self.language or settings.LANGUAGE_CODE


class Notification(models.Model):
    """A short message for a player (a report was handled, a game waits for them)."""

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="notifications", verbose_name=_("player")
    )
    text = models.CharField(_("text"), max_length=300)
    url = models.CharField(_("link"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "-created_at"], name="notification_inbox")]

    def __str__(self) -> str:
        return self.text


class Vacation(models.Model):
    """A stretch of time off: the player's correspondence clocks stand still meanwhile.

    Counted against the allowance of the calendar year (UTC) it starts in, by whole days
    begun (``days``); ending it early shortens ``ends_at``, which gives the rest back.
    """

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="vacations", verbose_name=_("player")
    )
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"], name="vacation_user_ends")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")), name="vacation_ends_after"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.starts_at:%Y-%m-%d} – {self.ends_at:%Y-%m-%d}"

    @property
    def days(self) -> int:
        """The days of the allowance it takes: every day begun counts whole."""
        return -(-(self.ends_at - self.starts_at) // datetime.timedelta(days=1))


class NotificationPreference(models.Model):
    """A player's choice for one event on one channel (no row: ``on_by_default``)."""

    user = models.ForeignKey(
        User,
        on_delete=models.CASCADE,
        related_name="notification_preferences",
        verbose_name=_("player"),
    )
    event = models.CharField(_("event"), max_length=16, choices=Event.choices)
    channel = models.CharField(_("channel"), max_length=8, choices=Channel.choices)
    enabled = models.BooleanField(_("on"))

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "event", "channel"], name="notification_preference_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.event} {self.channel}: {self.enabled}"


class PushSubscription(models.Model):
    """One device's subscription to web push (the browser's ``PushSubscription``)."""

    user = models.ForeignKey(
        User,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("player"),
    )
    endpoint = models.URLField(_("endpoint"), max_length=PUSH_ENDPOINT_MAX_LENGTH, unique=True)
    # The browser's keys, base64url: a P-256 public key (65 bytes) and a 16-byte secret.
    p256dh = models.CharField(_("public key"), max_length=100)
    auth = models.CharField(_("auth secret"), max_length=50)
    label = models.CharField(_("device"), max_length=100, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    last_success_at = models.DateTimeField(_("last delivered"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.label or self.endpoint[:40]}"
