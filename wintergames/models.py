"""The stored state of a Winter game: the game, its seats and its turns.

The position itself is never stored: it is rebuilt from the seed (the deal) and the turns
through ``winter`` (``wintergames.rebuild``). A turn row is one entry of the game's
``winter-game/1`` record, set-aside tiles included.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class WinterGame(models.Model):
    """One game of Carcassonne: Winter Edition."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        RUNNING = "running", _("In play")
        FINISHED = "finished", _("Finished")

    class Pace(models.TextChoices):
        LIVE = "live", _("Live")
        CORRESPONDENCE = "correspondence", _("Correspondence")
        UNTIMED = "untimed", _("Untimed")

    seed = models.BigIntegerField(_("seed"))
    farmers = models.BooleanField(_("farmers"), default=True)
    aids = models.BooleanField(
        _("table aids"),
        default=True,
        help_text=_("Table aids: the bag, the scores were it to end now, dead places, features."),
    )
    pace = models.CharField(_("pace"), max_length=16, choices=Pace.choices, default=Pace.UNTIMED)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    deadline = models.DateTimeField(
        _("deadline"),
        null=True,
        blank=True,
        help_text=_("When the player to move must have played (timed paces)."),
    )
    turn_started_at = models.DateTimeField(
        _("turn started at"),
        null=True,
        blank=True,
        help_text=_("When the turn in play began (its clock's vacation time counts from it)."),
    )
    waiting_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("waiting for"),
        help_text=_("The person to move, while the game runs (a computer's turn: nobody)."),
    )
    turn_seconds = models.PositiveIntegerField(
        _("time per turn (seconds)"),
        null=True,
        blank=True,
        help_text=_("Time for a turn at a timed pace; empty: the pace's default."),
    )
    # Players of a finished game may play it again: one rematch at most.
    rematch_of = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch",
        verbose_name=_("rematch of"),
    )
    # A game by invitation (a friend's challenge) is not in the lobby, and its chat is its
    # players' alone, as an unlisted Limes game's.
    listed = models.BooleanField(_("listed"), default=True, help_text=_("Shown in the lobby."))
    # Moderation: a hidden game counts for no rating and shows on no list but its players'.
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_reason = models.CharField(_("reason for hiding"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("Winter game")
        verbose_name_plural = _("Winter games")
        indexes = [models.Index(fields=["status", "-created_at"], name="winter_game_status")]

    def __str__(self) -> str:
        return f"Winter game {self.pk}"

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class WinterSeat(models.Model):
    """A place at a game: a person (``user``), a computer (``bot_level``) or, while the
    game is open, nobody yet."""

    class Level(models.TextChoices):
        EASY = "easy", _("Easy")
        NORMAL = "normal", _("Normal")
        STRONG = "strong", _("Strong")

    game = models.ForeignKey(
        WinterGame, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="winter_seats",
        verbose_name=_("player"),
    )
    bot_level = models.CharField(
        _("computer level"), max_length=8, choices=Level.choices, blank=True
    )
    resigned = models.BooleanField(_("resigned"), default=False)
    score = models.IntegerField(_("score"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="winter_seat_position"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="winter_seat_user_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_open(self) -> bool:
        return not self.bot_level and self.user_id is None


class WinterTurn(models.Model):
    """One entry of the game's record, in order (``number`` from 1)."""

    game = models.ForeignKey(
        WinterGame, on_delete=models.CASCADE, related_name="turns", verbose_name=_("game")
    )
    number = models.PositiveIntegerField(_("number"))
    entry = models.JSONField(_("record entry"))
    played_at = models.DateTimeField(_("played at"), default=timezone.now)

    class Meta:
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="winter_turn_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game} turn {self.number}"
