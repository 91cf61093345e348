"""Writes for friends, challenges and chat. Keyword-only, one transaction each.

Refusals raise ``PermissionDenied`` (not allowed) or ``core.errors.ActionRefused``
(with the HTTP status to answer) and leave everything as it was.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

import games.services
import wintergames.services
from accounts.models import Notification, User
from accounts.notifications import Event
from core.errors import ActionRefused
from floor import push
from floor.notify import notify
from games.models import Game
from social.models import (
    CHAT_MESSAGE_MAX_LENGTH,
    Block,
    Challenge,
    ChatMessage,
    ChatRead,
    Follow,
    FriendRequest,
    GameKind,
    HiddenPresence,
    QuickPhrase,
)
from social.rooms import ChatRoom, chat_changed_push, room_key, room_of
from social.selectors import (
    are_friends,
    challenge_version_of,
    chat_mute_in_force,
    chat_version_key,
    has_blocked,
    is_present,
)
from wintergames.models import WinterGame

#: How long a challenge to a correspondence game waits for an answer (a live one:
#: ``settings.LIMES_LIVE_CHALLENGE_MINUTES``, see ``challenge_lifetime``).
CHALLENGE_LIFETIME = datetime.timedelta(days=3)
#: Messages one player may send in a burst, and in a minute, across every game.
CHAT_BURST = (5, datetime.timedelta(seconds=10))
CHAT_PER_MINUTE = (20, datetime.timedelta(minutes=1))
#: Friend requests and challenges one player may send in a window, and one player may be
#: sent by everyone together: each asks for a notice and maybe an e-mail.
ASKS_PER_SENDER = (20, datetime.timedelta(hours=1))
ASKS_PER_RECIPIENT = (30, datetime.timedelta(hours=1))
#: A request or challenge asked again of the same player within this time (withdrawn and
#: asked anew) mails nothing, and adds no notice while the first is unread.
ASK_MAIL_ONCE_PER = datetime.timedelta(days=1)
#: Control characters have no place in a chat line (newlines and tabs become spaces).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _ensure_can_act(user: User) -> None:
    if not user.is_authenticated or user.is_banned or user.is_deleted:
        raise PermissionDenied(_("Your account cannot do this."))


def _other(other: User, user: User) -> None:
    if other.pk == user.pk:
        raise ActionRefused(_("That is you."))
    if other.is_deleted:
        raise ActionRefused(_("This account no longer exists."), status=404)


# Follows


@transaction.atomic
def follow(*, user: User, other: User) -> Follow:
    """``user`` follows ``other`` (again: nothing changes)."""
    _ensure_can_act(user)
    _other(other, user)
    found, _created = Follow.objects.get_or_create(follower=user, followed=other)
    return found


@transaction.atomic
def unfollow(*, user: User, other: User) -> None:
    Follow.objects.filter(follower=user, followed=other).delete()


# Friend requests


@transaction.atomic
def friend_request_send(*, user: User, other: User) -> FriendRequest:
    """Ask ``other`` to be friends; if they already asked ``user``, they are friends now.

    A player who blocked ``user`` never sees the request (it is kept, hidden).
    """
    _ensure_can_act(user)
    _other(other, user)
    if has_blocked(user, other):
        raise ActionRefused(_("Unblock this player first."), status=409)
    _lock(user, other)
    theirs = FriendRequest.objects.filter(sender=other, recipient=user).first()
    if theirs is not None:
        if theirs.accepted_at is None:
            theirs.accepted_at = timezone.now()
            theirs.save(update_fields=["accepted_at"])
            _accepted_notify(user, other)
        return theirs
    mine = FriendRequest.objects.filter(sender=user, recipient=other).first()
    if mine is not None:
        return mine
    _ask_count(user, other)
    request = FriendRequest.objects.create(sender=user, recipient=other)
    _ask_notify(
        user,
        other,
        Event.FRIEND_REQUEST,
        lambda: (
            _("%(name)s would like to be your friend on Limes Online.") % {"name": user.username}
        ),
    )
    return request


@transaction.atomic
def friend_request_accept(*, user: User, other: User) -> FriendRequest:
    """Accept ``other``'s request. Raises ``ActionRefused`` (404) if there is none."""
    _ensure_can_act(user)
    request = (
        FriendRequest.objects.select_for_update()
        .filter(sender=other, recipient=user, accepted_at__isnull=True)
        .exclude(sender__in=Block.objects.filter(blocker=user).values("blocked"))
        .first()
    )
    if request is None:
        raise ActionRefused(_("No such friend request."), status=404)
    request.accepted_at = timezone.now()
    request.save(update_fields=["accepted_at"])
    _accepted_notify(user, other)
    return request


def _accepted_notify(accepter: User, sender: User) -> None:
    notify(
        user=sender,
        event=Event.FRIEND_REQUEST,
        text=lambda: _("%(name)s accepted your friend request.") % {"name": accepter.username},
        url=reverse("accounts:profile", kwargs={"username": accepter.username}),
    )


@transaction.atomic
def friend_remove(*, user: User, other: User) -> int:
    """Decline ``other``'s request, withdraw one's own, or end the friendship."""
    deleted, _rows = FriendRequest.objects.filter(
        Q(sender=user, recipient=other) | Q(sender=other, recipient=user)
    ).delete()
    return deleted


# Blocks


@transaction.atomic
def block(*, user: User, other: User) -> Block:
    """Block ``other``: friendship, follows and challenges between them end."""
    _other(other, user)
    _lock(user, other)
    found, _created = Block.objects.get_or_create(blocker=user, blocked=other)
    FriendRequest.objects.filter(
        Q(sender=user, recipient=other) | Q(sender=other, recipient=user)
    ).delete()
    Follow.objects.filter(
        Q(follower=user, followed=other) | Q(follower=other, followed=user)
    ).delete()
    now = timezone.now()
    ended = Challenge.objects.filter(
        Q(challenger=user, challenged=other) | Q(challenger=other, challenged=user),
        status=Challenge.Status.PENDING,
    ).update(status=Challenge.Status.CANCELLED, answered_at=now)
    if ended:
        # A live challenge between them leaves both players' pages.
        _challenges_changed(now, user.pk, other.pk)
    return found


@transaction.atomic
def unblock(*, user: User, other: User) -> None:
    Block.objects.filter(blocker=user, blocked=other).delete()


# Challenges


@dataclass(frozen=True)
class ChallengeTerms:
    """The game a friend is challenged to: which game, its pace and its options.

    Limes: ``round_seconds`` (offered for the pace), ``diagonal``, ``ferryman``. Winter:
    ``farmers`` and ``aids``; its pace alone sets its clock.
    """

    kind: GameKind = GameKind.LIMES
    pace: str = Game.Pace.LIVE
    round_seconds: int | None = None
    diagonal: bool = False
    ferryman: bool = False
    farmers: bool = True
    aids: bool = True

    def check(self) -> None:
        """Raise ``ActionRefused`` for a game or pace not offered."""
        if self.kind == GameKind.WINTER:
            if self.pace not in WinterGame.Pace.values:
                raise ActionRefused(_("Choose the game's pace."))
            return
        if self.kind != GameKind.LIMES:
            raise ActionRefused(_("Choose the game."))
        offered = games.services.ROUND_SECONDS.get(self.pace, ())  # type: ignore[call-overload]
        if self.round_seconds not in offered:
            raise ActionRefused(_("That time per round is not offered for this pace."))

    def fields(self) -> dict[str, object]:
        """The challenge's fields that say the game (those of the other game left unset)."""
        if self.kind == GameKind.WINTER:
            return {
                "kind": self.kind,
                "pace": self.pace,
                "farmers": self.farmers,
                "aids": self.aids,
            }
        return {
            "kind": self.kind,
            "pace": self.pace,
            "round_seconds": self.round_seconds,
            "diagonal": self.diagonal,
            "ferryman": self.ferryman,
        }


@transaction.atomic
def challenge_create(
    *,
    user: User,
    other: User,
    pace: str = Game.Pace.LIVE,
    round_seconds: int | None = None,
    diagonal: bool = False,
    ferryman: bool = False,
    terms: ChallengeTerms | None = None,
) -> Challenge:
    """Challenge a friend to a two-player game; it expires after ``challenge_lifetime``.

    The game is Limes with ``pace``, ``round_seconds`` and its variants, or as ``terms``
    say (Limes or Carcassonne: Winter Edition, with its options). Raises
    ``ActionRefused`` for a player who is not a friend, a game, pace or time not offered,
    or a challenge to them already waiting (both players' rows are locked, so two at once
    cannot both pass).
    """
    if terms is None:
        terms = ChallengeTerms(
            pace=pace, round_seconds=round_seconds, diagonal=diagonal, ferryman=ferryman
        )
    _ensure_can_act(user)
    _other(other, user)
    if not are_friends(user, other) or has_blocked(user, other):
        raise ActionRefused(_("You can only challenge your friends."), status=403)
    terms.check()
    _lock(user, other)
    now = timezone.now()
    waiting = Challenge.objects.filter(
        challenger=user, challenged=other, status=Challenge.Status.PENDING
    )
    waiting.filter(expires_at__lte=now).update(status=Challenge.Status.EXPIRED)
    if waiting.exists():
        raise ActionRefused(_("A challenge to this player is already waiting."), status=409)
    _ask_count(user, other)
    challenge = Challenge(
        challenger=user,
        challenged=other,
        created_at=now,
        expires_at=now + challenge_lifetime(terms.pace),
        **terms.fields(),
    )
    challenge.full_clean()
    challenge.save()
    if not has_blocked(other, user):
        _challenges_changed(now, other.pk)

    def text() -> str:
        if terms.kind == GameKind.WINTER:
            return _("%(name)s challenges you to a game of Carcassonne: Winter Edition.") % {
                "name": user.username
            }
        return _("%(name)s challenges you to a game of Limes.") % {"name": user.username}

    _ask_notify(user, other, Event.CHALLENGE, text)
    return challenge


@transaction.atomic
def challenge_accept(*, user: User, challenge_id: int) -> Game | WinterGame:
    """Accept a challenge: a two-player game by invitation (of Limes or of Winter, as the
    challenge says) starts at once, both players seated. Applied once: a second accept
    finds no challenge waiting."""
    _ensure_can_act(user)
    challenge = _pending_challenge(challenge_id, challenged=user)
    if has_blocked(user, challenge.challenger):
        raise ActionRefused(_("No such challenge."), status=404)
    game: Game | WinterGame
    if challenge.is_winter:
        # Opened for two and joined at once, in this transaction: the lobby never lists it.
        opened = wintergames.services.game_create(
            user=challenge.challenger,
            players=2,
            computers=0,
            level="",
            farmers=challenge.farmers,
            pace=challenge.pace,
            aids=challenge.aids,
            listed=False,
            challenge=True,
        )
        game = wintergames.services.game_join(game_id=opened.pk, user=user)
        challenge.winter_game = game
    else:
        assert challenge.round_seconds is not None  # (a check constraint says so)
        game = games.services.game_create_multi(
            user=challenge.challenger,
            seats_max=2,
            pace=challenge.pace,
            round_seconds=challenge.round_seconds,
            listed=False,
            diagonal=challenge.diagonal,
            ferryman=challenge.ferryman,
            challenge=True,
        )
        game = games.services.game_join(game=game, user=user, code=game.invite_code)
        challenge.game = game
    challenge.status = Challenge.Status.ACCEPTED
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "answered_at", "game", "winter_game"])
    # The challenger's page takes them to the game: its clock runs already.
    _challenges_changed(challenge.answered_at, challenge.challenger_id, user.pk)
    return game


@transaction.atomic
def challenge_decline(*, user: User, challenge_id: int) -> Challenge:
    """Decline a challenge sent to ``user``, or withdraw one ``user`` sent."""
    challenge = (
        Challenge.objects.select_for_update()
        .filter(Q(challenged=user) | Q(challenger=user), pk=challenge_id)
        .filter(status=Challenge.Status.PENDING)
        .first()
    )
    if challenge is None:
        raise ActionRefused(_("No such challenge."), status=404)
    challenge.status = (
        Challenge.Status.DECLINED
        if challenge.challenged_id == user.pk
        else Challenge.Status.CANCELLED
    )
    challenge.answered_at = timezone.now()
    challenge.save(update_fields=["status", "answered_at"])
    _challenges_changed(challenge.answered_at, challenge.challenger_id, challenge.challenged_id)
    return challenge


def _ask_count(sender: User, recipient: User) -> None:
    """Count one friend request or challenge, or refuse it (429) past either limit.

    In the shared cache, as ``games.throttle``: a withdrawal frees no place, so asking,
    withdrawing and asking again is bounded like asking anyone new.
    """
    keys = {
        f"social:asks:sender:{sender.pk}": ASKS_PER_SENDER,
        f"social:asks:recipient:{recipient.pk}": ASKS_PER_RECIPIENT,
    }
    counts = cache.get_many(list(keys))
    sender_key, recipient_key = keys
    if counts.get(sender_key, 0) >= ASKS_PER_SENDER[0]:
        raise ActionRefused(
            _("You have sent many friend requests and challenges lately. Try again in an hour."),
            status=429,
        )
    if counts.get(recipient_key, 0) >= ASKS_PER_RECIPIENT[0]:
        raise ActionRefused(
            _("This player has had many friend requests and challenges lately. Try again later."),
            status=429,
        )
    for key, (_limit, window) in keys.items():
        seconds = int(window.total_seconds())
        # add() starts the window once; incr() never extends it.
        cache.add(key, 0, seconds)
        try:
            cache.incr(key)
        except ValueError:  # the window ended between the two calls
            cache.add(key, 1, seconds)


def _ask_notify(sender: User, recipient: User, kind: Event, text: Callable[[], str]) -> None:
    """Tell ``recipient`` of a request or challenge, but mail the same ask once a day and
    leave one unread notice of it: asked again after a withdrawal, it is no news."""
    if has_blocked(recipient, sender):
        return
    first = cache.add(
        f"social:asked:{kind.value}:{sender.pk}:{recipient.pk}",
        1,
        int(ASK_MAIL_ONCE_PER.total_seconds()),
    )
    url = reverse("social:friends")
    if not first:
        with translation.override(recipient.language_for_messages):
            body = text()[:300]
        if Notification.objects.filter(
            user=recipient, url=url, text=body, read_at__isnull=True
        ).exists():
            return
    notify(user=recipient, event=kind, text=text, url=url, mail_too=first)


def challenge_lifetime(pace: str) -> datetime.timedelta:
    """How long a challenge at ``pace`` waits: minutes for a live game, days else."""
    if pace == Game.Pace.LIVE:
        return datetime.timedelta(minutes=settings.LIMES_LIVE_CHALLENGE_MINUTES)
    return CHALLENGE_LIFETIME


def _challenges_changed(when: datetime.datetime, *user_ids: int) -> None:
    # A nudge to each player's pages (the version their challenges now have, nothing
    # else): they ask for what changed through views that check who is asking.
    version = challenge_version_of(when)
    for user_id in user_ids:
        push.challenges_changed(user_id, version=version)


def _pending_challenge(challenge_id: int, *, challenged: User) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update()
        .select_related("challenger")
        .filter(pk=challenge_id, challenged=challenged, status=Challenge.Status.PENDING)
        .first()
    )
    if challenge is None:
        raise ActionRefused(_("No such challenge."), status=404)
    if challenge.expires_at <= timezone.now():
        raise ActionRefused(_("This challenge has expired."), status=409)
    return challenge


@transaction.atomic
def challenges_expire(*, now: datetime.datetime | None = None) -> int:
    """Mark every challenge past its time expired; returns how many."""
    return Challenge.objects.filter(
        status=Challenge.Status.PENDING, expires_at__lte=now or timezone.now()
    ).update(status=Challenge.Status.EXPIRED)


# Chat


def chat_text_clean(text: str) -> str:
    """The message as it will be stored, or ``ActionRefused`` saying what is wrong."""
    if not isinstance(text, str) or "\x00" in text:
        raise ActionRefused(_("This message cannot be sent."))
    text = _CONTROL.sub("", text.replace("\r\n", " ").replace("\n", " ").replace("\t", " "))
    text = " ".join(text.split())
    if not text:
        raise ActionRefused(_("Write a message first."))
    if len(text) > CHAT_MESSAGE_MAX_LENGTH:
        raise ActionRefused(
            _("A message has at most %(max)d characters.") % {"max": CHAT_MESSAGE_MAX_LENGTH}
        )
    if _filtered(text):
        raise ActionRefused(_("This message contains a word that is not allowed here."))
    return text


def _filtered(text: str) -> bool:
    # The setting lists words; NFKC and casefold make "ＢＡＤ" or "Bad" match "bad".
    words = [w for w in getattr(settings, "LIMES_CHAT_WORD_FILTER", ()) if w.strip()]
    if not words:
        return False
    folded = unicodedata.normalize("NFKC", text).casefold()
    return any(
        re.search(rf"(?<!\w){re.escape(unicodedata.normalize('NFKC', w).casefold())}(?!\w)", folded)
        for w in words
    )


@transaction.atomic
def chat_post(
    *, game: Game | WinterGame, user: User, text: str = "", phrase: str = ""
) -> ChatMessage:
    """Write ``text`` (or a quick ``phrase``) in the game's chat as a seated player, in a
    game of either kind.

    Raises ``PermissionDenied`` for anyone not seated, a banned or muted player and a game
    without chat; ``ActionRefused`` for an empty, too long, filtered or too fast message.
    """
    _ensure_can_act(user)
    room = room_of(game)
    if not room.can_post(user):
        raise PermissionDenied(_("Only the players of this game can write in its chat."))
    mute = chat_mute_in_force(user)
    if mute is not None:
        raise PermissionDenied(
            _("A moderator muted you in chat until %(until)s UTC.")
            % {"until": mute.ends.strftime("%Y-%m-%d %H:%M")}
        )
    if phrase:
        if phrase not in QuickPhrase.values:
            raise ActionRefused(_("This message cannot be sent."))
        text = ""
    else:
        text = chat_text_clean(text)
    # The author's row lock makes the counts exact when two messages race.
    User.objects.select_for_update().filter(pk=user.pk).first()
    now = timezone.now()
    limits = (CHAT_BURST, CHAT_PER_MINUTE)
    counts = ChatMessage.objects.filter(
        author=user, created_at__gt=now - max(window for _limit, window in limits)
    ).aggregate(
        **{
            f"within_{n}": Count("pk", filter=Q(created_at__gt=now - window))
            for n, (_limit, window) in enumerate(limits)
        }
    )
    if any(counts[f"within_{n}"] >= limit for n, (limit, _window) in enumerate(limits)):
        raise ActionRefused(_("You are writing too fast. Wait a moment."), status=429)
    message = ChatMessage(
        **{room.field: game}, author=user, text=text, phrase=phrase, created_at=now
    )
    # The game and the author were found above: no need to look them up again.
    message.full_clean(exclude=["game", "winter_game", "author"])
    message.save()
    chat_changed_publish(room.pk, kind=room.kind)
    _notify_away(room, user)
    return message


@transaction.atomic
def chat_read_mark(*, game: Game | WinterGame, user: User, up_to: int) -> None:
    """Mark the game's chat read by ``user`` up to message ``up_to`` (shown to them).

    Never moves the mark back: a panel drawn before a newer one must not unread it.
    """
    of_game: dict[str, Any] = {"winter_game" if isinstance(game, WinterGame) else "game": game}
    mark, _created = ChatRead.objects.select_for_update().get_or_create(**of_game, user=user)
    if up_to > mark.last_read:
        mark.last_read = up_to
        mark.full_clean()
        mark.save(update_fields=["last_read"])


def chat_changed_publish(game_id: int, *, kind: GameKind = GameKind.LIMES) -> None:
    """After the commit: the chat's polls see a new version, and push tells its pages.

    For a moderator's service too (hiding a message changes what everyone reads): see
    ``chat_message_changed``.
    """
    key = chat_version_key(room_key(kind, game_id))
    transaction.on_commit(lambda: cache.delete(key))
    # Pages holding the game's stream ask for the new messages at once.
    chat_changed_push(kind, game_id)


def chat_message_changed(message: ChatMessage) -> None:
    """``chat_changed_publish`` for the chat ``message`` was written in, of either game."""
    if message.winter_game_id is not None:
        chat_changed_publish(message.winter_game_id, kind=GameKind.WINTER)
    elif message.game_id is not None:
        chat_changed_publish(message.game_id)


def _notify_away(room: ChatRoom, author: User) -> None:
    url = room.game_url + "#chat"
    for player in room.people:
        if player.pk == author.pk or player.is_deleted:
            continue
        if is_present(room.key, player.pk) or has_blocked(player, author):
            continue
        # One unread notice per game is enough: the chat itself holds the rest.
        if Notification.objects.filter(user=player, url=url, read_at__isnull=True).exists():
            continue
        notify(
            user=player,
            event=Event.CHAT,
            text=_chat_notice(room, author),
            url=url,
        )


def _chat_notice(room: ChatRoom, author: User) -> Callable[[], str]:
    if room.is_winter:
        return lambda: (
            _("%(name)s wrote in the chat of Winter game %(game)d.")
            % {
                "name": author.username,
                "game": room.pk,
            }
        )
    return lambda: (
        _("%(name)s wrote in the chat of game #%(game)d.")
        % {
            "name": author.username,
            "game": room.pk,
        }
    )


# Rematch offers


def rematch_offered(
    *,
    sender: object,
    instance: Game | WinterGame,
    created: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: object,
) -> None:
    """Receiver of ``post_save`` on ``Game`` and ``WinterGame``: a rematch just opened is
    offered to the other players of the old game. (Limes' ``game_rematch`` sets
    ``rematch_of`` on the new game; Winter's creates the new game with it.)

    Runs in the rematch's transaction: the notices commit with it or not at all.
    """
    if instance.rematch_of_id is None:
        return
    if isinstance(instance, WinterGame):
        if not created:
            return
        url = reverse("winter:detail", kwargs={"pk": instance.rematch_of_id})
        others = User.objects.filter(winter_seats__game_id=instance.rematch_of_id)
        # In the player's own language, when the notice is written (floor.notify).
        offer = gettext_noop("%(name)s offers a rematch of Winter game #%(game)d.")
    else:
        if not update_fields or "rematch_of" not in update_fields:
            return
        url = reverse("games:detail", kwargs={"pk": instance.rematch_of_id})
        others = User.objects.filter(seats__game_id=instance.rematch_of_id)
        offer = gettext_noop("%(name)s offers a rematch of game #%(game)d.")
    offering = instance.created_by
    if offering is None:
        return
    for player in others.filter(deleted_at__isnull=True).exclude(pk=offering.pk):
        if has_blocked(player, offering):
            continue
        notify(
            user=player,
            event=Event.REMATCH,
            text=lambda: _(offer) % {"name": offering.username, "game": instance.rematch_of_id},
            url=url,
        )


# Online status


@transaction.atomic
def presence_hide(*, user: User, hidden: bool) -> None:
    """Keep from ``user``'s friends when they are online (``hidden``), or show it again."""
    if hidden:
        HiddenPresence.objects.get_or_create(user=user)
    else:
        HiddenPresence.objects.filter(user=user).delete()


# Account deletion


def user_forget_social(*, user: User, **kwargs: object) -> None:
    """Receiver of ``accounts.signals.user_deleting``: friendships, follows, blocks and
    challenges go; the player's chat messages stay, by "deleted player"."""
    FriendRequest.objects.filter(Q(sender=user) | Q(recipient=user)).delete()
    Follow.objects.filter(Q(follower=user) | Q(followed=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    Challenge.objects.filter(Q(challenger=user) | Q(challenged=user)).delete()
    HiddenPresence.objects.filter(user=user).delete()
    rooms = set(ChatMessage.objects.filter(author=user).values_list("game_id", "winter_game_id"))
    ChatMessage.objects.filter(author=user).update(author=None)
    for game_id, winter_game_id in rooms:
        if winter_game_id is not None:
            chat_changed_publish(winter_game_id, kind=GameKind.WINTER)
        elif game_id is not None:
            chat_changed_publish(game_id)


def _lock(*users: User) -> None:
    # Both players' rows, in one order, so two requests between them cannot interleave.
    list(User.objects.select_for_update().filter(pk__in=[u.pk for u in users]).order_by("pk"))
