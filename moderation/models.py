"""Bans, player reports, the moderators' audit log, and the checks behind suspicious results."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxLengthValidator, MinLengthValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import SoloResult

REPORT_TEXT_MAX_LENGTH = 1000
REASON_MAX_LENGTH = 300


class Ban(models.Model):
    """One ban as it was given, and lifted if it was. The ban in force is on the user row."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="bans",
        verbose_name=_("player"),
    )
    reason = models.CharField(_("reason"), max_length=REASON_MAX_LENGTH)
    starts = models.DateTimeField(_("starts"), default=timezone.now)
    ends = models.DateTimeField(
        _("ends"), null=True, blank=True, help_text=_("Empty for a permanent ban.")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("banned by"),
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("lifted by"),
    )

    class Meta:
        ordering = ["-starts"]
        verbose_name = _("ban")
        verbose_name_plural = _("bans")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends__isnull=True) | Q(ends__gt=models.F("starts")),
                name="ban_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.starts:%Y-%m-%d})"

    @property
    def is_in_force(self) -> bool:
        return self.lifted_at is None and (self.ends is None or self.ends > timezone.now())


class Report(models.Model):
    """A player's complaint about another player, waiting for a moderator or handled."""

    class Category(models.TextChoices):
        OFFENSIVE_NAME = "name", _("Offensive name or profile")
        ABUSIVE_PLAY = "abuse", _("Abusive play")
        CHEATING = "cheating", _("Suspected cheating")
        CHAT = "chat", _("Abusive chat message")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_made",
        verbose_name=_("reported by"),
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_received",
        verbose_name=_("reported player"),
    )
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("game"),
    )
    # Or the Carcassonne: Winter Edition game it is about (one game at most).
    winter_game = models.ForeignKey(
        "wintergames.WinterGame",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("Winter game"),
    )
    # The message reported from a game's chat, if the report started there.
    chat_message = models.ForeignKey(
        "social.ChatMessage",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("chat message"),
    )
    category = models.CharField(_("category"), max_length=10, choices=Category.choices)
    text = models.TextField(
        _("what happened"),
        max_length=REPORT_TEXT_MAX_LENGTH,
        validators=[MinLengthValidator(10), MaxLengthValidator(REPORT_TEXT_MAX_LENGTH)],
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("reported at"), default=timezone.now, db_index=True)
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("handled by"),
    )
    note = models.CharField(_("moderator's note"), max_length=REASON_MAX_LENGTH, blank=True)

    class Meta:
        # The queue: oldest first, so nothing waits forever behind newer reports.
        ordering = ["created_at"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "target"],
                condition=Q(status="open"),
                name="report_one_open_per_pair",
            ),
            models.CheckConstraint(
                condition=~Q(reporter=models.F("target")), name="report_not_yourself"
            ),
            models.CheckConstraint(
                condition=Q(game__isnull=True) | Q(winter_game__isnull=True),
                name="report_one_game_at_most",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "created_at"], name="report_queue"),
            models.Index(fields=["reporter", "created_at"], name="report_rate"),
        ]

    def __str__(self) -> str:
        return f"{self.get_category_display()}: {self.target} (#{self.pk})"


class AuditEntry(models.Model):
    """One moderator action: who did what to whom, when and why. Rows are never changed."""

    class Action(models.TextChoices):
        BAN = "ban", _("Ban")
        UNBAN = "unban", _("Unban")
        HIDE_RESULT = "hide_result", _("Hide result")
        UNHIDE_RESULT = "unhide_result", _("Unhide result")
        HIDE_GAME = "hide_game", _("Hide game")
        UNHIDE_GAME = "unhide_game", _("Unhide game")
        RENAME = "rename", _("Reset username")
        CLEAR_PROFILE = "clear_profile", _("Clear profile")
        RESOLVE_REPORT = "resolve_report", _("Resolve report")
        DISMISS_REPORT = "dismiss_report", _("Dismiss report")
        DISQUALIFY = "disqualify", _("Disqualify from a tournament")
        HIDE_MESSAGE = "hide_message", _("Hide chat message")
        UNHIDE_MESSAGE = "unhide_message", _("Unhide chat message")
        MUTE = "mute", _("Mute in chat")
        UNMUTE = "unmute", _("Unmute in chat")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="moderation_actions",
        verbose_name=_("moderator"),
    )
    at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="audit_entries",
        null=True,
        blank=True,
        verbose_name=_("player"),
    )
    # A superuser may still delete a game; the entry keeps its number in ``details``.
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("game"),
    )
    winter_game = models.ForeignKey(
        "wintergames.WinterGame",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Winter game"),
    )
    report = models.ForeignKey(
        Report,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("report"),
    )
    reason = models.CharField(_("reason"), max_length=REASON_MAX_LENGTH, blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        indexes = [models.Index(fields=["target", "-at"], name="audit_by_target")]
        constraints = [
            models.CheckConstraint(
                condition=Q(game__isnull=True) | Q(winter_game__isnull=True),
                name="audit_one_game_at_most",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.moderator} {self.get_action_display()}"


class ResultCheck(models.Model):
    """What a solo result is compared with to find ones that stand out.

    Filled by ``selectors.result_checks_fill`` (the suspicious-results page and the
    ``check_results`` command), since replaying the reference player takes a while.
    """

    result = models.OneToOneField(
        SoloResult,
        on_delete=models.CASCADE,
        related_name="moderation_check",
        primary_key=True,
        verbose_name=_("result"),
    )
    reference_score = models.PositiveSmallIntegerField(
        _("reference score"),
        help_text=_("What the reference player scores on the same card sequence."),
    )
    earlier_results = models.PositiveIntegerField(
        _("earlier results"), help_text=_("The player's finished solo results before this one.")
    )
    earlier_median = models.FloatField(
        _("earlier median"),
        null=True,
        blank=True,
        help_text=_("The median score of those earlier results."),
    )
    checked_at = models.DateTimeField(_("checked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("result check")
        verbose_name_plural = _("result checks")

    def __str__(self) -> str:
        return f"check of {self.result_id}"


class SuspiciousResult(SoloResult):
    """Solo results that stand out, listed in the admin for a moderator to look at."""

    class Meta:
        proxy = True
        verbose_name = _("suspicious result")
        verbose_name_plural = _("suspicious results")
        # The page is guarded by the permissions of SoloResult (see moderation.admin).
        default_permissions = ()
