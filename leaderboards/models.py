"""Tables the boards and profiles read, kept up to date in the transaction of each result.

Everything here can be rebuilt from the games: ``services.player_stats_rebuild`` for one
player's rows and ``manage.py recompute_ratings`` for the multiplayer ratings. The boards
read these small tables through an index in board order instead of aggregating results.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

import rules
from games.models import Game, Ruleset, Seat
from wintergames.models import WinterGame, WinterSeat

# A rating stays off the board until it rests on this many games (see PlayerRating).
PROVISIONAL_GAMES = 5
# The "best average" board averages this many of a player's latest solo games.
RECENT_GAMES = 10


class Deal(models.Model):
    """A card sequence under one ruleset: every game dealt from it can be compared.

    Identified by the seed the cards were dealt from and the ruleset. Made for the games
    several people play (the daily challenge, multiplayer games) and registered in advance
    by tournaments for theirs, whose sealed solo games join them.
    """

    seed = models.BigIntegerField(_("seed"))
    ruleset = models.CharField(_("ruleset"), max_length=10, choices=Ruleset.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["seed", "ruleset"], name="deal_one_per_seed"),
        ]

    def __str__(self) -> str:
        return f"{self.ruleset} deal {self.seed}"


class DealScore(models.Model):
    """How many counted results on a deal have one score: the deal's table of scores.

    A result counts while it is visible (not hidden by a moderator, not assisted) and its
    player's account exists. Kept by each finish and each moderation change in their
    transaction (``services.duplicate_rebuild`` recomputes it): every matchpoint figure
    follows from these few rows (``leaderboards.duplicate``).
    """

    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="scores", verbose_name=_("deal")
    )
    score = models.PositiveSmallIntegerField(_("score"))
    count = models.PositiveIntegerField(_("results"))

    class Meta:
        verbose_name = _("deal score")
        verbose_name_plural = _("deal scores")
        constraints = [
            models.UniqueConstraint(fields=["deal", "score"], name="deal_score_once"),
        ]

    def __str__(self) -> str:
        return f"{self.deal}: {self.count} × {self.score}"


class PlayerResult(models.Model):
    """One seat of a finished game as the statistics read it.

    The points each profession earned come from replaying the stored moves once, when the
    game finishes, so that a profile need not replay a player's whole history.
    """

    seat = models.OneToOneField(
        Seat, on_delete=models.CASCADE, related_name="result", verbose_name=_("seat")
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    mode = models.CharField(_("mode"), max_length=8, choices=Game.Mode.choices)
    ruleset = models.CharField(_("ruleset"), max_length=10, choices=Ruleset.choices)
    score = models.PositiveSmallIntegerField(_("score"))
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"))
    # A copy of the game's (and solo result's) moderation flag; player_stats_rebuild syncs it.
    hidden = models.BooleanField(_("hidden"), default=False)
    # The deal the game was dealt from, when others may play it too (Deal's docstring).
    deal = models.ForeignKey(
        Deal,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="results",
        verbose_name=_("deal"),
    )
    # The seat's rating after a rated game, copied for the profile's rating history.
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)
    farmer = models.PositiveSmallIntegerField(_("farmers"), default=0)
    fisherman = models.PositiveSmallIntegerField(_("fishermen"), default=0)
    woodcutter = models.PositiveSmallIntegerField(_("woodcutters"), default=0)
    watchman = models.PositiveSmallIntegerField(_("watchmen"), default=0)

    class Meta:
        verbose_name = _("player result")
        verbose_name_plural = _("player results")
        ordering = ["-finished_at"]
        indexes = [
            models.Index(fields=["user", "mode", "ruleset", "-finished_at"], name="result_history"),
            models.Index(
                fields=["user", "-finished_at"],
                condition=Q(rating_after__isnull=False),
                name="result_rating_history",
            ),
            models.Index(
                fields=["user", "-finished_at"],
                condition=Q(deal__isnull=False),
                name="result_duplicate_history",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in game #{self.game_id}: {self.score}"


class PlayerTotals(models.Model):
    """Sums of a player's visible results in one mode and ruleset, for the profile.

    Kept so that a profile reads a few rows however many games the player finished.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    mode = models.CharField(_("mode"), max_length=8, choices=Game.Mode.choices)
    ruleset = models.CharField(_("ruleset"), max_length=10, choices=Ruleset.choices)
    games = models.PositiveIntegerField(_("games"), default=0)
    score_sum = models.PositiveIntegerField(_("sum of scores"), default=0)
    best = models.PositiveSmallIntegerField(_("best score"), null=True, blank=True)
    farmer = models.PositiveIntegerField(_("farmers"), default=0)
    fisherman = models.PositiveIntegerField(_("fishermen"), default=0)
    woodcutter = models.PositiveIntegerField(_("woodcutters"), default=0)
    watchman = models.PositiveIntegerField(_("watchmen"), default=0)
    # How many games reached each band of the solo table (solo rows only).
    room_for_improvement = models.PositiveIntegerField(_("room for improvement"), default=0)
    satisfactory = models.PositiveIntegerField(_("satisfactory"), default=0)
    good = models.PositiveIntegerField(_("good"), default=0)
    very_good = models.PositiveIntegerField(_("very good"), default=0)
    excellent = models.PositiveIntegerField(_("excellent"), default=0)

    class Meta:
        verbose_name = _("player totals")
        verbose_name_plural = _("player totals")
        constraints = [
            models.UniqueConstraint(fields=["user", "mode", "ruleset"], name="totals_one_per_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.mode}, {self.ruleset}): {self.games} games"


def band_field(band: rules.SoloRating) -> str:
    """The PlayerTotals column counting ``band``."""
    return band.value.replace("-", "_")


class SoloStanding(models.Model):
    """A player's solo record in one ruleset: best score and the average of recent games."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    ruleset = models.CharField(_("ruleset"), max_length=10, choices=Ruleset.choices)
    games = models.PositiveIntegerField(
        _("games"), default=0, help_text=_("Visible finished solo games.")
    )
    best_score = models.PositiveSmallIntegerField(_("best score"), null=True, blank=True)
    best_game = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("best game"),
    )
    best_at = models.DateTimeField(_("best score at"), null=True, blank=True)
    recent_average = models.FloatField(
        _("recent average"),
        null=True,
        blank=True,
        help_text=_("Mean of the latest ten games; empty below ten."),
    )
    recent_at = models.DateTimeField(
        _("latest recent game at"),
        null=True,
        blank=True,
        help_text=_("When the latest of those ten games finished."),
    )

    class Meta:
        verbose_name = _("solo standing")
        verbose_name_plural = _("solo standings")
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset"], name="standing_one_per_ruleset"),
        ]
        indexes = [
            # Board order, so that a page is an index walk that stops after 50 rows, and the
            # player, so that a rank is a COUNT read from the index alone.
            models.Index(
                fields=["ruleset", "-best_score", "best_at", "id"],
                include=["user"],
                condition=Q(best_score__isnull=False),
                name="standing_best",
            ),
            models.Index(
                fields=["ruleset", "-recent_average", "recent_at", "id"],
                include=["user"],
                condition=Q(recent_average__isnull=False),
                name="standing_average",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.ruleset}): best {self.best_score}"


class WeeklyBest(models.Model):
    """A player's best solo score of one week (Monday to Sunday, UTC) in one ruleset."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    ruleset = models.CharField(_("ruleset"), max_length=10, choices=Ruleset.choices)
    week = models.DateField(_("week"), help_text=_("The Monday the week starts on."))
    score = models.PositiveSmallIntegerField(_("score"))
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    achieved_at = models.DateTimeField(_("achieved at"))

    class Meta:
        verbose_name = _("weekly best")
        verbose_name_plural = _("weekly bests")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "ruleset", "week"], name="weekly_best_one_per_week"
            ),
        ]
        indexes = [
            models.Index(
                fields=["ruleset", "week", "-score", "achieved_at", "id"],
                include=["user"],
                name="weekly",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.ruleset}, week of {self.week}): {self.score}"


class Rating(models.Model):
    """What every rating holds (openskill Plackett–Luce): ``ordinal`` (mu − 3 sigma) is what
    a board sorts by and what seats record before and after each game. Below
    ``PROVISIONAL_GAMES`` rated games the rating is provisional."""

    mu = models.FloatField(_("mean skill (μ)"))
    sigma = models.FloatField(_("uncertainty (σ)"))
    ordinal = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("games"), default=0, help_text=_("Rated games played."))
    last_game_at = models.DateTimeField(_("last game at"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def display(self) -> int:
        """The rating on the 1500-based scale players see (``rating.display_rating``)."""
        from leaderboards.rating import display_rating

        return display_rating(self.ordinal)


class PlayerRating(Rating):
    """A player's multiplayer rating in one ruleset of Limes."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    ruleset = models.CharField(_("ruleset"), max_length=10, choices=Ruleset.choices)

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset"], name="rating_one_per_ruleset"),
        ]
        indexes = [
            models.Index(
                fields=["ruleset", "-ordinal", "last_game_at", "id"],
                include=["user"],
                condition=Q(games__gte=PROVISIONAL_GAMES),
                name="rating_board",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.ruleset}): {self.ordinal:.1f}"


class WinterRating(Rating):
    """A player's rating in Carcassonne: Winter Edition (openskill Plackett–Luce, as
    ``PlayerRating`` for Limes, on the same scale).

    A rating of its own rather than a game on ``PlayerRating``: a Limes rating is one per
    ruleset, and Winter has none. Updated by ``services.winter_game_finished``.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )

    class Meta:
        verbose_name = _("Winter rating")
        verbose_name_plural = _("Winter ratings")
        indexes = [
            models.Index(
                fields=["-ordinal", "last_game_at", "id"],
                include=["user"],
                condition=Q(games__gte=PROVISIONAL_GAMES),
                name="winter_rating_board",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} (Winter): {self.ordinal:.1f}"


class WinterRatingChange(models.Model):
    """What one rated Winter game did to one person's rating: the ordinals before and
    after it, as a Limes seat's ``rating_before`` and ``rating_after``.

    Winter's seats are ``wintergames``' own, which knows nothing of ratings, so the
    figures live here. Written only by ``services.winter_rating_changes_write``, for a
    finished game and for a replay of all of them alike; the game page and the profile's
    rating history read them.
    """

    seat = models.OneToOneField(
        WinterSeat, on_delete=models.CASCADE, related_name="+", verbose_name=_("seat")
    )
    game = models.ForeignKey(
        WinterGame, on_delete=models.CASCADE, related_name="+", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    finished_at = models.DateTimeField(_("finished at"))

    class Meta:
        verbose_name = _("Winter rating change")
        verbose_name_plural = _("Winter rating changes")
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="winter_rating_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in Winter game #{self.game_id}: {self.rating_after:.1f}"
