"""Games, their seats, every committed round, and solo results."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Ruleset(models.TextChoices):
    """The four combinations of the rulebook's variants; leaderboards are kept per ruleset."""

    STANDARD = "standard", _("Standard")
    DIAGONAL = "diagonal", _("Diagonal placement")
    FERRYMAN = "ferryman", _("Fisherman as ferryman")
    BOTH = "both", _("Diagonal and ferryman")

    @classmethod
    def of(cls, *, diagonal: bool, ferryman: bool) -> Ruleset:
        if diagonal and ferryman:
            return cls.BOTH
        if diagonal:
            return cls.DIAGONAL
        if ferryman:
            return cls.FERRYMAN
        return cls.STANDARD


class Game(models.Model):
    """One game: a seeded card sequence shared by every seat.

    ``cards`` holds all 16 card numbers dealt at creation; only those already revealed
    ever leave the server (see ``selectors.revealed_cards``).
    """

    class Mode(models.TextChoices):
        SOLO = "solo", _("Solo")
        MULTI = "multi", _("Multiplayer")

    class Status(models.TextChoices):
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")

    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.SOLO)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    diagonal = models.BooleanField(_("diagonal placement"), default=False)
    ferryman = models.BooleanField(_("fisherman as ferryman"), default=False)
    ruleset = models.CharField(max_length=10, choices=Ruleset.choices, default=Ruleset.STANDARD)
    seed = models.BigIntegerField(help_text=_("Seed the card sequence was dealt with."))
    deck_name = models.CharField(max_length=100, blank=True)
    cards = models.JSONField(help_text=_("The 16 card numbers of the game, in order."))
    round = models.PositiveSmallIntegerField(default=1, help_text=_("Round in play; 17 = over."))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Moderation (issue: moderation tools): hidden games never appear on a board.
    hidden = models.BooleanField(default=False)
    hidden_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(round__gte=1) & Q(round__lte=17), name="game_round_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} game #{self.pk}"

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class Seat(models.Model):
    """A player's place in a game, and their result once it is over."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(default=1)
    joined_at = models.DateTimeField(auto_now_add=True)
    score = models.PositiveSmallIntegerField(null=True, blank=True)
    tiebreak = models.JSONField(default=list, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    shared_place = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
        ]
        indexes = [models.Index(fields=["user", "game"])]

    def __str__(self) -> str:
        return f"{self.user} in game #{self.game_id}"


class Move(models.Model):
    """One committed round of one seat: the card, where it went, and the worker action."""

    class Worker(models.TextChoices):
        NONE = "", _("No worker action")
        PLACE = "place", _("Placed a worker")
        MOVE = "move", _("Moved a worker")

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="moves")
    round = models.PositiveSmallIntegerField()
    card = models.PositiveSmallIntegerField()
    card_row = models.SmallIntegerField()
    card_col = models.SmallIntegerField()
    rotation = models.PositiveSmallIntegerField()
    worker = models.CharField(max_length=5, choices=Worker.choices, blank=True, default="")
    worker_from = models.JSONField(null=True, blank=True, help_text=_("Zone [row, col]."))
    worker_to = models.JSONField(null=True, blank=True, help_text=_("Zone [row, col]."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seat", "round"]
        constraints = [
            # The database, not Python, guarantees a round is applied once per seat.
            models.UniqueConstraint(fields=["seat", "round"], name="move_once_per_round"),
            models.CheckConstraint(
                condition=Q(round__gte=1) & Q(round__lte=16), name="move_round_in_range"
            ),
            models.CheckConstraint(
                condition=Q(rotation__in=[0, 90, 180, 270]), name="move_rotation_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.round} of {self.seat}"


class SoloResult(models.Model):
    """A finished solo game's score and rating from the rulebook's table."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="solo_result")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="solo_results"
    )
    ruleset = models.CharField(max_length=10, choices=Ruleset.choices)
    score = models.PositiveSmallIntegerField()
    rating = models.CharField(max_length=24)
    finished_at = models.DateTimeField()
    hidden = models.BooleanField(default=False)

    class Meta:
        ordering = ["-finished_at"]
        indexes = [
            models.Index(fields=["ruleset", "-score", "finished_at"], name="solo_board"),
            models.Index(fields=["user", "-finished_at"], name="solo_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.score} ({self.rating})"
