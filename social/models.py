"""Players together: follows, friendships, blocks, challenges, in-game chat and mutes."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, duration_label
from wintergames.models import WinterGame

CHAT_MESSAGE_MAX_LENGTH = 300


def _not_self(first: str, second: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=~Q(**{first: models.F(second)}), name=name)


def _one_game(name: str) -> models.CheckConstraint:
    """Of a Limes game and a Winter game, exactly one is set."""
    return models.CheckConstraint(
        condition=(Q(game__isnull=False) & Q(winter_game__isnull=True))
        | (Q(game__isnull=True) & Q(winter_game__isnull=False)),
        name=name,
    )


class Follow(models.Model):
    """One player follows another: their games show on the follower's friends page."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="follows",
        verbose_name=_("follower"),
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="followers",
        verbose_name=_("followed player"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            _not_self("follower", "followed", "follow_not_yourself"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} -> {self.followed_id}"


class FriendRequest(models.Model):
    """A friend request; once accepted (``accepted_at`` set) the two players are friends."""

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="friend_requests_sent",
        verbose_name=_("sent by"),
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="friend_requests_received",
        verbose_name=_("sent to"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        constraints = [
            models.UniqueConstraint(fields=["sender", "recipient"], name="friend_request_once"),
            _not_self("sender", "recipient", "friend_request_not_yourself"),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} + {self.recipient_id}"


class Block(models.Model):
    """A player blocks another: no requests, challenges or chat messages of theirs reach them."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks",
        verbose_name=_("blocked by"),
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocked_by",
        verbose_name=_("blocked player"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            _not_self("blocker", "blocked", "block_not_yourself"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} x {self.blocked_id}"


class GameKind(models.TextChoices):
    """Which of the site's games a challenge or a chat room is of."""

    LIMES = "limes", _("Limes")
    WINTER = "winter", _("Carcassonne: Winter Edition")


class Challenge(models.Model):
    """A player invites a friend to a two-player game with chosen rules and pace.

    A Limes challenge has a time per round and Limes' variants; a Winter one has Winter's
    options (``farmers``, ``aids``) and the pace alone sets its clock.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Withdrawn")
        EXPIRED = "expired", _("Expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
        verbose_name=_("challenger"),
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        verbose_name=_("challenged player"),
    )
    kind = models.CharField(
        _("game"), max_length=8, choices=GameKind.choices, default=GameKind.LIMES
    )
    diagonal = models.BooleanField(_("diagonal placement"), default=False)
    ferryman = models.BooleanField(_("fisherman as ferryman"), default=False)
    farmers = models.BooleanField(_("farmers"), default=True)
    aids = models.BooleanField(_("table aids"), default=True)
    # The two games' paces have the same values (Winter's untimed too).
    pace = models.CharField(_("pace"), max_length=16, choices=Game.Pace.choices)
    round_seconds = models.PositiveIntegerField(
        _("time per round (seconds)"), null=True, blank=True
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    game = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("game"),
    )
    winter_game = models.ForeignKey(
        WinterGame,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Winter game"),
    )

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at"]
        constraints = [
            _not_self("challenger", "challenged", "challenge_not_yourself"),
            # One challenge waiting between two players at a time: no flood of invitations.
            models.UniqueConstraint(
                fields=["challenger", "challenged"],
                condition=Q(status="pending"),
                name="challenge_one_pending_per_pair",
            ),
            # A Limes challenge has its time per round and leads to a Limes game; a
            # Winter one to a Winter game.
            models.CheckConstraint(
                condition=(
                    Q(kind="limes", round_seconds__isnull=False, winter_game__isnull=True)
                    | Q(kind="winter", game__isnull=True)
                ),
                name="challenge_game_of_its_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger_id} vs {self.challenged_id} ({self.status})"

    @property
    def round_time_label(self) -> str:
        return duration_label(self.round_seconds) if self.round_seconds else ""

    @property
    def is_winter(self) -> bool:
        return self.kind == GameKind.WINTER

    @property
    def game_url(self) -> str | None:
        """The page of the game the challenge led to (``None`` before it is accepted)."""
        if self.winter_game_id is not None:
            return reverse("winter:detail", kwargs={"pk": self.winter_game_id})
        if self.game_id is not None:
            return reverse("games:detail", kwargs={"pk": self.game_id})
        return None

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING and self.expires_at > timezone.now()


class QuickPhrase(models.TextChoices):
    """Chat messages sent with one tap, shown in each reader's own language."""

    HELLO = "hello", _("Hello!")
    GOOD_LUCK = "good_luck", _("Good luck!")
    NICE_MOVE = "nice_move", _("Nice move!")
    OOPS = "oops", _("Oops!")
    THANKS = "thanks", _("Thanks!")
    WELL_PLAYED = "well_played", _("Well played!")
    GOOD_GAME = "good_game", _("Good game, thank you!")


class ChatMessage(models.Model):
    """One message of a game's chat: plain text, or a quick phrase."""

    # A message belongs to one game, of Limes (``game``) or of Winter (``winter_game``).
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_messages",
        verbose_name=_("game"),
    )
    winter_game = models.ForeignKey(
        WinterGame,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_messages",
        verbose_name=_("Winter game"),
    )
    # Emptied when the author deletes their account: the message stays, by "deleted player".
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    text = models.CharField(
        _("text"),
        max_length=CHAT_MESSAGE_MAX_LENGTH,
        blank=True,
        validators=[MaxLengthValidator(CHAT_MESSAGE_MAX_LENGTH)],
    )
    phrase = models.CharField(
        _("quick phrase"), max_length=16, choices=QuickPhrase.choices, blank=True
    )
    created_at = models.DateTimeField(_("sent at"), default=timezone.now)
    hidden = models.BooleanField(_("hidden by a moderator"), default=False)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["game", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(text="") & ~Q(phrase="")) | (~Q(text="") & Q(phrase="")),
                name="chat_message_text_or_phrase",
            ),
            _one_game("chat_message_one_game"),
        ]
        indexes = [
            models.Index(fields=["game", "id"], name="chat_by_game"),
            models.Index(fields=["winter_game", "id"], name="chat_by_winter_game"),
            models.Index(fields=["author", "created_at"], name="chat_by_author"),
        ]

    def __str__(self) -> str:
        # As players read it (a quick phrase in the language in force), in the admin too.
        return self.shown_text

    @property
    def shown_text(self) -> str:
        """The text, or the quick phrase in the language in force."""
        return str(QuickPhrase(self.phrase).label) if self.phrase else self.text


class ChatRead(models.Model):
    """How far a seated player has read a game's chat: the newest message shown to them.

    Newer messages by others are unread (My games marks their games); the chat panel moves
    the mark when it shows them.
    """

    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("game"),
    )
    winter_game = models.ForeignKey(
        WinterGame,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Winter game"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    #: The id of the newest message read (ids grow with time), 0 for none.
    last_read = models.PositiveBigIntegerField(_("last message read"), default=0)

    class Meta:
        verbose_name = _("chat read mark")
        verbose_name_plural = _("chat read marks")
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="chat_read_once"),
            models.UniqueConstraint(
                fields=["user", "winter_game"],
                condition=Q(winter_game__isnull=False),
                name="chat_read_winter_once",
            ),
            _one_game("chat_read_one_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} read {self.game_id} to {self.last_read}"


class HiddenPresence(models.Model):
    """A player who keeps from their friends when they are online (``social.presence``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("player"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("hidden online status")
        verbose_name_plural = _("hidden online statuses")

    def __str__(self) -> str:
        return str(self.user_id)


class ChatMute(models.Model):
    """A moderator keeps a player out of every chat for a time (history kept, as bans)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="chat_mutes",
        verbose_name=_("player"),
    )
    reason = models.CharField(_("reason"), max_length=300)
    starts = models.DateTimeField(_("starts"), default=timezone.now)
    ends = models.DateTimeField(_("ends"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("muted by"),
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)

    class Meta:
        ordering = ["-starts"]
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends__gt=models.F("starts")), name="chat_mute_ends_after_it_starts"
            ),
        ]
        indexes = [models.Index(fields=["user", "ends"], name="chat_mute_in_force")]

    def __str__(self) -> str:
        return f"{self.user} ({self.starts:%Y-%m-%d})"
