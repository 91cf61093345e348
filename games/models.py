"""Games, their seats, every committed round, and solo results."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import rules
import rules.bot
from core.durations import duration_label as duration_label  # where games and social read it

# The solo table's bands in words, for pages (rules.SoloRating.label is English only).
SOLO_RATING_LABELS = {
    rules.SoloRating.ROOM_FOR_IMPROVEMENT: _("room for improvement"),
    rules.SoloRating.SATISFACTORY: _("satisfactory"),
    rules.SoloRating.GOOD: _("good"),
    rules.SoloRating.VERY_GOOD: _("very good"),
    rules.SoloRating.EXCELLENT: _("excellent"),
}


class Ruleset(models.TextChoices):
    """The four combinations of the rulebook's variants; leaderboards are kept per ruleset."""

    STANDARD = "standard", _("Standard")
    DIAGONAL = "diagonal", _("Diagonal placement")
    FERRYMAN = "ferryman", _("Fisherman as ferryman")
    BOTH = "both", _("Diagonal and ferryman")

    @classmethod
    def of(cls, *, diagonal: bool, ferryman: bool) -> Ruleset:
        """The ruleset of these variants."""
        return next(ruleset for ruleset in cls if ruleset.flags == (diagonal, ferryman))

    @property
    def flags(self) -> tuple[bool, bool]:
        """Its variants as ``(diagonal, ferryman)``, as games and tournaments store them."""
        return _RULESET_FLAGS[self.value]


_RULESET_FLAGS = {
    Ruleset.STANDARD.value: (False, False),
    Ruleset.DIAGONAL.value: (True, False),
    Ruleset.FERRYMAN.value: (False, True),
    Ruleset.BOTH.value: (True, True),
}


class Lockstep(models.Model):
    """A live table: solo games of one deal whose rounds are dealt together, by a clock.

    Each player builds their own landscape in a game of their own (any number of them),
    but nobody gets the next card before everyone has played this one or the round's
    clock has run out: who is still to play then leaves their game, timed out. A live
    tournament's deal is one (``tournaments``); ``services.lockstep_advance`` deals.
    """

    round = models.PositiveSmallIntegerField(
        _("round dealt"), default=1, help_text=_("The last round whose card is dealt.")
    )
    round_seconds = models.PositiveIntegerField(_("time per round (seconds)"))
    deadline = models.DateTimeField(
        _("deadline"), null=True, blank=True, help_text=_("When the round dealt times out.")
    )
    # The page of whatever made the table (a tournament's): the games link back to it.
    back_url = models.CharField(_("back to"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(
        _("finished at"), null=True, blank=True, help_text=_("When its last game ended.")
    )

    class Meta:
        verbose_name = _("live table")
        verbose_name_plural = _("live tables")
        constraints = [
            models.CheckConstraint(
                condition=Q(round__gte=1) & Q(round__lte=16), name="lockstep_round_in_range"
            ),
        ]

    def __str__(self) -> str:
        return gettext("Live table #%(number)s") % {"number": self.pk}


class Game(models.Model):
    """One game: a seeded card sequence shared by every seat.

    ``cards`` holds all 16 card numbers dealt at creation; only those already revealed
    ever leave the server (see ``policy.revealed_cards``).
    """

    class Mode(models.TextChoices):
        SOLO = "solo", _("Solo")
        MULTI = "multi", _("Multiplayer")

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Pace(models.TextChoices):
        UNTIMED = "untimed", _("Untimed")
        LIVE = "live", _("Live")
        CORRESPONDENCE = "correspondence", _("Correspondence")

    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices, default=Mode.SOLO)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    diagonal = models.BooleanField(_("diagonal placement"), default=False)
    ferryman = models.BooleanField(_("fisherman as ferryman"), default=False)
    ruleset = models.CharField(
        _("ruleset"), max_length=10, choices=Ruleset.choices, default=Ruleset.STANDARD
    )
    seed = models.BigIntegerField(_("seed"), help_text=_("Seed the card sequence was dealt with."))
    deck_name = models.CharField(_("deck name"), max_length=100, blank=True)
    cards = models.JSONField(_("cards"), help_text=_("The 16 card numbers of the game, in order."))
    round = models.PositiveSmallIntegerField(
        _("round"), default=1, help_text=_("Round in play; 17 = over.")
    )
    pace = models.CharField(_("pace"), max_length=16, choices=Pace.choices, default=Pace.UNTIMED)
    round_seconds = models.PositiveIntegerField(
        _("time per round (seconds)"),
        null=True,
        blank=True,
        help_text=_("Time each player has for a round; empty = no limit."),
    )
    deadline = models.DateTimeField(
        _("deadline"),
        null=True,
        blank=True,
        db_index=True,
        help_text=_("When the round in play times out."),
    )
    seats_max = models.PositiveSmallIntegerField(_("seats"), default=1)
    listed = models.BooleanField(_("listed"), default=False, help_text=_("Shown in the lobby."))
    invite_code = models.CharField(
        _("invite code"), max_length=16, unique=True, null=True, blank=True
    )
    # Bumped by every change a waiting page must show (a join, a round, a resignation):
    # a poll compares it and has nothing else to do when it has not moved.
    version = models.PositiveIntegerField(_("version"), default=0)
    daily = models.DateField(
        _("daily challenge"),
        null=True,
        blank=True,
        help_text=_("The day of the daily challenge this game is."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        verbose_name=_("created by"),
    )
    # The finished game this one replays with the same rules and computer seats: its
    # players see the offer on its final page (``services.game_rematch``). One at most.
    rematch_of = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        related_name="rematch",
        null=True,
        blank=True,
        editable=False,
        verbose_name=_("rematch of"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Moderation (issue: moderation tools): hidden games never appear on a board.
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_reason = models.CharField(_("reason for hiding"), max_length=200, blank=True)
    # A competition's game (a tournament's deal): no hint may be taken, and before this
    # moment nobody but its player sees it, so nobody learns the deal's cards early.
    sealed_until = models.DateTimeField(
        _("sealed until"),
        null=True,
        blank=True,
        help_text=_("A tournament game: no hints, and only its player sees it until then."),
    )
    # A live table's game (a live tournament's deal): its rounds are dealt with the
    # table's, so ``round`` waits there once its player has played it.
    lockstep = models.ForeignKey(
        Lockstep,
        on_delete=models.PROTECT,
        related_name="games",
        null=True,
        blank=True,
        verbose_name=_("live table"),
    )
    # A player took a hint (the strong bot's turn): the game stays off every board.
    assisted = models.BooleanField(
        _("assisted"),
        default=False,
        help_text=_("A hint was used: the game is kept off the boards."),
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(round__gte=1) & Q(round__lte=17), name="game_round_in_range"
            ),
            models.CheckConstraint(
                condition=Q(seats_max__gte=1) & Q(seats_max__lte=8), name="game_seats_in_range"
            ),
            # One attempt per player and day at the daily challenge.
            models.UniqueConstraint(
                fields=["daily", "created_by"],
                condition=Q(daily__isnull=False),
                name="game_one_daily_per_player",
            ),
        ]
        indexes = [
            models.Index(
                fields=["status", "listed", "-created_at"],
                condition=Q(status="open", listed=True),
                name="game_lobby",
            ),
        ]

    def __str__(self) -> str:
        # Shown as the game's title on its pages and in lists.
        return gettext("%(mode)s game #%(number)s") % {
            "mode": self.get_mode_display(),
            "number": self.pk,
        }

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def round_time_label(self) -> str:
        return duration_label(self.round_seconds) if self.round_seconds else ""

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class BotLevel(models.TextChoices):
    """The computer players a game can seat: ``rules.bot.BotLevel``'s levels, with labels
    (tests/games/test_bots.py checks that they are the same)."""

    EASY = rules.bot.BotLevel.EASY.value, _("easy")
    REFERENCE = rules.bot.BotLevel.REFERENCE.value, _("reference")
    STRONG = rules.bot.BotLevel.STRONG.value, _("strong")
    # Thinks about a second a move on the computers' queue (games.computer.SEAT_BUDGET).
    MASTER = rules.bot.BotLevel.MASTER.value, _("master")

    @classmethod
    def choices_with_scores(cls) -> list[tuple[str, str]]:
        """The levels with the mean score each makes on its own, for choosing one (and, for
        the master, that it takes its time)."""
        choices = []
        for level in cls:
            score = round(rules.bot.BotLevel(level).expected_score)
            if level == cls.MASTER:
                text = gettext("%(level)s (thinks about a second a move, scores about %(score)s)")
            else:
                text = gettext("%(level)s (scores about %(score)s)")
            choices.append((level.value, text % {"level": level.label, "score": score}))
        return choices


class Seat(models.Model):
    """A player's place in a game, and their result once it is over."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        RESIGNED = "resigned", _("Resigned")
        TIMED_OUT = "timed_out", _("Timed out")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    # A computer player's seat has no user, only a level: a bot is not an account, so no
    # board, rating, profile, email or moderation tool can ever meet one.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seats",
        null=True,
        blank=True,
        verbose_name=_("player"),
    )
    bot_level = models.CharField(
        _("computer level"),
        max_length=10,
        choices=BotLevel.choices,
        blank=True,
        help_text=_("Computer players only."),
    )
    position = models.PositiveSmallIntegerField(_("position"), default=1)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    rounds_played = models.PositiveSmallIntegerField(_("rounds played"), default=0)
    # The seat's rounds as ``limes-game/1`` turns, written with each Move in its
    # transaction: pages rebuild the game from these without reading or replaying the
    # moves (``rebuild.rules_game``). The moves stay the record; a copy whose length is
    # not ``rounds_played`` (missing, or written by other means) is ignored and replaced.
    turns = models.JSONField(_("turns"), null=True, blank=True, default=list, editable=False)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)
    # Multiplayer rating (openskill ordinal) before and after this game; empty if unrated.
    rating_before = models.FloatField(_("rating before"), null=True, blank=True)
    rating_after = models.FloatField(_("rating after"), null=True, blank=True)
    score = models.PositiveSmallIntegerField(_("score"), null=True, blank=True)
    tiebreak = models.JSONField(_("tiebreak"), default=list, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    shared_place = models.BooleanField(_("shared place"), default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot_level=""))
                | (Q(user__isnull=True) & ~Q(bot_level="")),
                name="seat_player_or_bot",
            ),
        ]
        indexes = [models.Index(fields=["user", "game"])]

    def __str__(self) -> str:
        return f"{self.display_name} in game #{self.game_id}"

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def display_name(self) -> str:
        """The name shown at the table; a computer player's says it is one."""
        if self.user is not None:
            return self.user.display_name
        return gettext("Computer %(position)d (%(level)s)") % {
            "position": self.position,
            "level": BotLevel(self.bot_level).label,
        }

    @property
    def player_key(self) -> str:
        """The seat's name inside the rules game and in records.

        A bot's has a space and parentheses, which no username may hold, so it can never
        be a player's name; it is not translated, so records read the same everywhere.
        """
        if self.user is not None:
            return self.user.username
        return f"Computer {self.position} ({self.bot_level})"

    @property
    def has_left(self) -> bool:
        """Resigned or timed out: such a player never wins, even a shared first place."""
        return self.status != self.Status.PLAYING


class Move(models.Model):
    """One committed round of one seat: the card, where it went, and the worker action."""

    class Worker(models.TextChoices):
        NONE = "", _("No worker action")
        PLACE = "place", _("Placed a worker")
        MOVE = "move", _("Moved a worker")

    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="moves", verbose_name=_("seat")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    card = models.PositiveSmallIntegerField(_("card"))
    card_row = models.SmallIntegerField(_("row"))
    card_col = models.SmallIntegerField(_("column"))
    rotation = models.PositiveSmallIntegerField(_("rotation"))
    worker = models.CharField(
        _("worker action"), max_length=5, choices=Worker.choices, blank=True, default=""
    )
    worker_from = models.JSONField(
        _("worker from"), null=True, blank=True, help_text=_("Zone [row, col].")
    )
    worker_to = models.JSONField(
        _("worker to"), null=True, blank=True, help_text=_("Zone [row, col].")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
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

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="solo_result", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="solo_results",
        verbose_name=_("player"),
    )
    ruleset = models.CharField(_("ruleset"), max_length=10, choices=Ruleset.choices)
    score = models.PositiveSmallIntegerField(_("score"))
    rating = models.CharField(_("band"), max_length=24)
    finished_at = models.DateTimeField(_("finished at"))
    daily = models.DateField(_("daily challenge"), null=True, blank=True)
    abandoned = models.BooleanField(
        _("abandoned"),
        default=False,
        help_text=_("The player gave up; the score is the landscape as it stood."),
    )
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_reason = models.CharField(_("reason for hiding"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("solo result")
        verbose_name_plural = _("solo results")
        ordering = ["-finished_at"]
        indexes = [
            models.Index(fields=["ruleset", "-score", "finished_at"], name="solo_board"),
            models.Index(
                fields=["daily", "-score", "finished_at"],
                condition=Q(daily__isnull=False),
                name="solo_daily_board",
            ),
            models.Index(fields=["user", "-finished_at"], name="solo_history"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.score} ({self.rating})"


class GameAnalysis(models.Model):
    """The post-game analysis of a finished game, computed once in the background.

    Each human seat gets a ``SeatAnalysis``; computer seats are not analysed.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Being computed")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("game")
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return f"analysis of game #{self.game_id} ({self.status})"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING


class SeatAnalysis(models.Model):
    """One player's rounds as the strong bot judges them.

    ``rounds``: one entry a round played, ``{"round", "played", "best", "best_turn"}``:
    the final score the bot expects after the player's turn and after its own best turn
    (a ``limes-game/1`` turn). ``accuracy``: see ``games.analysis.accuracy``.
    """

    analysis = models.ForeignKey(
        GameAnalysis, on_delete=models.CASCADE, related_name="seats", verbose_name=_("analysis")
    )
    seat = models.OneToOneField(
        Seat, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("seat")
    )
    rounds = models.JSONField(_("rounds"), default=list)
    accuracy = models.FloatField(_("accuracy"), help_text=_("0 to 100."))

    class Meta:
        verbose_name = _("seat analysis")
        verbose_name_plural = _("seat analyses")
        ordering = ["seat__position"]

    def __str__(self) -> str:
        return f"analysis of {self.seat}"


class DailyPar(models.Model):
    """What the computer makes of one day's cards, computed once in the background.

    ``bot_score``: the strong bot playing the day's cards one at a time, as a player does.
    ``best_score``: the best score a search found knowing all 16 cards in advance.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Being computed")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    day = models.DateField(_("day"))
    ruleset = models.CharField(
        _("ruleset"), max_length=10, choices=Ruleset.choices, default=Ruleset.STANDARD
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    bot_score = models.PositiveSmallIntegerField(_("computer's score"), null=True, blank=True)
    best_score = models.PositiveSmallIntegerField(_("best score"), null=True, blank=True)
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("daily par")
        verbose_name_plural = _("daily pars")
        constraints = [
            models.UniqueConstraint(fields=["day", "ruleset"], name="daily_par_one_per_day"),
        ]

    def __str__(self) -> str:
        return f"par of {self.day} ({self.ruleset}): bot {self.bot_score}, best {self.best_score}"

    @property
    def is_done(self) -> bool:
        return self.status == self.Status.DONE


class DataExport(models.Model):
    """A player's "Download my data" zip, built by the task worker (``games.export``).

    One is in the making at a time per player (the constraint below); the zip is kept in the
    database, which every app server and worker shares, until it expires.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Being prepared")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="data_exports",
        verbose_name=_("player"),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    games_total = models.PositiveIntegerField(_("games to write"), default=0)
    games_done = models.PositiveIntegerField(_("games written"), default=0)
    archive = models.BinaryField(_("zip"), default=b"", blank=True)

    class Meta:
        verbose_name = _("data export")
        verbose_name_plural = _("data exports")
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="pending"),
                name="data_export_one_in_flight",
            ),
        ]
        indexes = [models.Index(fields=["user", "-requested_at"], name="data_export_by_user")]

    def __str__(self) -> str:
        return f"data export #{self.pk} of {self.user_id}: {self.status}"
