"""Tournaments: a ruleset, a few deals, a window of time, and the players who entered.

In the asynchronous duplicate format each entrant plays each deal alone, once, within the
window, in order. A deal's results are compared as every shared deal is
(``leaderboards.models.Deal``); the standings add up each entrant's matchpoint percentages.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game, Lockstep, Ruleset
from leaderboards.models import Deal

MIN_DEALS = 1
MAX_DEALS = 12
# A live tournament's round clock: long enough to read a card, short enough to play live.
MIN_ROUND_SECONDS = 15
MAX_ROUND_SECONDS = 300


class Tournament(models.Model):
    """One tournament; ``series`` names a recurring one's kind (``weekly-standard``)."""

    class Format(models.TextChoices):
        ASYNC = "async", _("Asynchronous duplicate")
        # Everyone on the same card at once, a round clock for all (``games.Lockstep``).
        LIVE = "live", _("Live duplicate")

    class Entry(models.TextChoices):
        OPEN = "open", _("Open to everyone")
        INVITATION = "invitation", _("By invitation")

    name = models.CharField(_("name"), max_length=100)
    ruleset = models.CharField(
        _("ruleset"), max_length=10, choices=Ruleset.choices, default=Ruleset.STANDARD
    )
    format = models.CharField(
        _("format"), max_length=8, choices=Format.choices, default=Format.ASYNC
    )
    entry = models.CharField(_("entry"), max_length=12, choices=Entry.choices, default=Entry.OPEN)
    deal_count = models.PositiveSmallIntegerField(_("deals"), default=8)
    round_seconds = models.PositiveIntegerField(
        _("time per round (seconds)"),
        null=True,
        blank=True,
        help_text=_("Live duplicate only: how long everyone has for each card."),
    )
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))
    max_entrants = models.PositiveIntegerField(
        _("most entrants"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    series = models.CharField(
        _("series"), max_length=40, blank=True, help_text=_("Recurring tournaments only.")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Bumped by every change the standings must show (a finish, a disqualification, a
    # hidden result): the standings are cached under it.
    version = models.PositiveIntegerField(_("version"), default=0)
    # When the entrants were told that its deals are open (a live one: that it starts in
    # a few minutes); set once, so that a second run of the reminder tells nobody twice.
    reminded_at = models.DateTimeField(_("entrants reminded at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(deal_count__gte=MIN_DEALS) & Q(deal_count__lte=MAX_DEALS),
                name="tournament_deals_in_range",
            ),
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="tournament_window"
            ),
            # A live tournament has a round clock; an asynchronous one has none.
            models.CheckConstraint(
                condition=(Q(format="live") & Q(round_seconds__gte=MIN_ROUND_SECONDS))
                | (~Q(format="live") & Q(round_seconds__isnull=True)),
                name="tournament_clock_if_live",
            ),
            # The scheduler may run twice: one tournament per series and start.
            models.UniqueConstraint(
                fields=["series", "starts_at"],
                condition=~Q(series=""),
                name="tournament_once_per_series",
            ),
        ]
        indexes = [models.Index(fields=["ends_at"], name="tournament_by_end")]

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        """The name shown: a recurring tournament's is composed in the reader's language."""
        if self.series.startswith("weekly-"):
            return gettext("Weekly tournament, %(ruleset)s, from %(day)s") % {
                "ruleset": self.get_ruleset_display(),
                "day": date_format(self.starts_at, "DATE_FORMAT"),
            }
        return self.name

    @property
    def is_live(self) -> bool:
        return self.format == self.Format.LIVE

    @property
    def is_running(self) -> bool:
        return self.starts_at <= timezone.now() < self.ends_at

    @property
    def is_over(self) -> bool:
        return timezone.now() >= self.ends_at

    @property
    def is_upcoming(self) -> bool:
        return timezone.now() < self.starts_at


class TournamentDeal(models.Model):
    """The ``number``-th deal of a tournament: its seed, registered as a shared deal."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="deals", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    deal = models.ForeignKey(
        Deal, on_delete=models.PROTECT, related_name="+", verbose_name=_("deal")
    )
    # A live tournament's deal in play or played: the table its entrants play it at.
    lockstep = models.OneToOneField(
        Lockstep,
        on_delete=models.PROTECT,
        related_name="tournament_deal",
        null=True,
        blank=True,
        verbose_name=_("live table"),
    )

    class Meta:
        verbose_name = _("tournament deal")
        verbose_name_plural = _("tournament deals")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="deal_once_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: deal {self.number}"


class Entrant(models.Model):
    """A player entered in a tournament."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="entrants",
        verbose_name=_("tournament"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)
    disqualified = models.BooleanField(_("disqualified"), default=False)
    disqualified_reason = models.CharField(
        _("reason for disqualifying"), max_length=200, blank=True
    )

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["tournament", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entrant_once"),
        ]
        indexes = [models.Index(fields=["user", "-joined_at"], name="entrant_record")]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class Invitation(models.Model):
    """Who may enter a tournament by invitation."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("tournament"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="invitation_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} invited to {self.tournament}"


class Play(models.Model):
    """An entrant's one game of one deal, and its result as the standings count it.

    ``score`` and ``finished_at`` are copied from the game when it finishes within the
    window and while it is visible (``services.play_refresh``), so that the standings read
    this one table: empty, the deal scores 0.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )
    entrant = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="plays", verbose_name=_("entrant")
    )
    deal = models.ForeignKey(
        TournamentDeal, on_delete=models.CASCADE, related_name="plays", verbose_name=_("deal")
    )
    game = models.OneToOneField(
        Game, on_delete=models.PROTECT, related_name="+", verbose_name=_("game")
    )
    score = models.PositiveSmallIntegerField(_("score"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("play")
        verbose_name_plural = _("plays")
        constraints = [
            # One attempt per deal: the database refuses a second.
            models.UniqueConstraint(fields=["entrant", "deal"], name="play_once_per_deal"),
        ]
        indexes = [
            # The standings read a tournament's counted results and nothing else.
            models.Index(
                fields=["tournament"],
                include=["entrant", "deal", "score", "finished_at"],
                condition=Q(score__isnull=False),
                name="play_counted",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entrant.user} on {self.deal}"
