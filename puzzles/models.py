"""Puzzles: a position where one turn is clearly best, the players' attempts and ratings.

A puzzle stores only what its position knew: the turns that made its landscape (with their
cards), the card to place, the round and the variants. Never the game's later cards, nor a
link a page could follow to them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from puzzles import glicko


class Puzzle(models.Model):
    """One position and its best turn, with a Glicko-2 rating of its own."""

    class Origin(models.TextChoices):
        GAME = "game", _("A game played on this site")
        COMPUTER = "computer", _("A computer game")

    key = models.CharField(
        _("position key"), max_length=64, unique=True, help_text=_("The same for one position.")
    )
    origin = models.CharField(_("origin"), max_length=10, choices=Origin.choices)
    # The seat it came from, for the admin only: no page links to it (its game shows the
    # cards that came after the position).
    seat = models.ForeignKey(
        "games.Seat",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seat"),
    )
    round = models.PositiveSmallIntegerField(_("round"))
    diagonal = models.BooleanField(_("diagonal placement"), default=False)
    ferryman = models.BooleanField(_("fisherman as ferryman"), default=False)
    # The cards of the landscape in the order they came, then the card to place.
    cards = models.JSONField(_("cards"))
    # The player's turns before the position (``limes-game/1`` turns), one per earlier card.
    turns = models.JSONField(_("turns"))
    best_turn = models.JSONField(_("best turn"))
    best_value = models.FloatField(_("best turn's expected score"))
    runner_up = models.FloatField(_("runner-up's expected score"))
    rating = models.FloatField(_("rating"), default=glicko.Rating().rating)
    rd = models.FloatField(_("rating deviation"), default=glicko.Rating().rd)
    volatility = models.FloatField(_("volatility"), default=glicko.Rating().volatility)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    solves = models.PositiveIntegerField(_("solves"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(round__gte=1) & Q(round__lte=16), name="puzzle_round_in_range"
            ),
        ]
        # The next puzzle walks this index up and down from the player's rating.
        indexes = [models.Index(fields=["rating", "id"], name="puzzle_by_rating")]

    def __str__(self) -> str:
        return gettext("Puzzle #%(number)s") % {"number": self.pk}

    @property
    def glicko(self) -> glicko.Rating:
        return glicko.Rating(self.rating, self.rd, self.volatility)

    @property
    def gap(self) -> float:
        return self.best_value - self.runner_up


class PuzzlePlayer(models.Model):
    """A player's puzzle rating and streak (consecutive full solves)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="puzzle_player",
        verbose_name=_("player"),
    )
    rating = models.FloatField(_("rating"), default=glicko.Rating().rating)
    rd = models.FloatField(_("rating deviation"), default=glicko.Rating().rd)
    volatility = models.FloatField(_("volatility"), default=glicko.Rating().volatility)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    streak = models.PositiveIntegerField(_("streak"), default=0)
    best_streak = models.PositiveIntegerField(_("best streak"), default=0)

    class Meta:
        verbose_name = _("puzzle player")
        verbose_name_plural = _("puzzle players")

    def __str__(self) -> str:
        return f"{self.user}: {self.rating:.0f}"

    @property
    def glicko(self) -> glicko.Rating:
        return glicko.Rating(self.rating, self.rd, self.volatility)


class Attempt(models.Model):
    """A signed-in player's one answer to a puzzle: rated, unless they had seen its solution
    before (``rated`` false: the answer is kept so that no later one is rated either)."""

    class Result(models.TextChoices):
        SOLVED = "solved", _("Solved")
        NEAR = "near", _("Near miss")
        MISSED = "missed", _("Missed")

    # Indexed by the unique constraint below, which leads with the puzzle.
    puzzle = models.ForeignKey(
        Puzzle,
        on_delete=models.CASCADE,
        related_name="attempts_made",
        verbose_name=_("puzzle"),
        db_index=False,
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="puzzle_attempts",
        verbose_name=_("player"),
    )
    turn = models.JSONField(_("turn"))
    value = models.FloatField(_("expected score"))
    result = models.CharField(_("result"), max_length=8, choices=Result.choices)
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    rated = models.BooleanField(
        _("rated"), default=True, help_text=_("False if the player had seen the solution.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle attempt")
        verbose_name_plural = _("puzzle attempts")
        constraints = [
            # One rated attempt per player and puzzle: a second submit finds this one. The
            # puzzle first: the next puzzle's walk probes (puzzle, player) once per puzzle
            # it steps over, one index entry each (the player's own index is ``user``'s).
            models.UniqueConstraint(fields=["puzzle", "user"], name="attempt_one_per_puzzle"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on puzzle #{self.puzzle_id}: {self.result}"

    @property
    def rating_change(self) -> float:
        return self.rating_after - self.rating_before
