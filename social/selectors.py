"""Reads for friends, challenges and chat: who is whose friend, who may read a game's chat."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import Notification, User
from games.framing import titles_of
from games.models import Game, Move
from games.policy import can_watch
from social import presence
from social.models import (
    Block,
    Challenge,
    ChatMessage,
    ChatMute,
    ChatRead,
    Follow,
    FriendRequest,
    GameKind,
    HiddenPresence,
)
from social.rooms import ChatRoom, room_key, room_of
from wintergames.models import WinterGame, WinterTurn

#: Messages a chat panel shows: the newest ones.
CHAT_SHOWN = 50
#: How long a poll's version of a chat may be kept; a change deletes it at once.
CHAT_VERSION_SECONDS = 30
#: A seated player whose chat panel has not asked for news this long is away.
PRESENCE_SECONDS = 60
#: Friends' games on the friends page.
FRIENDS_GAMES_SHOWN = 10


# Friends, follows and blocks


def friends_of(user: User) -> QuerySet[User]:
    """The players whose friend request ``user`` accepted, or who accepted theirs."""
    accepted = FriendRequest.objects.filter(accepted_at__isnull=False)
    return (
        User.objects.filter(
            Q(pk__in=accepted.filter(sender=user).values("recipient"))
            | Q(pk__in=accepted.filter(recipient=user).values("sender"))
        )
        .filter(deleted_at__isnull=True)
        .order_by("username")
    )


def followed_by(user: User) -> QuerySet[User]:
    """The players ``user`` follows."""
    return User.objects.filter(followers__follower=user, deleted_at__isnull=True).order_by(
        "username"
    )


def blocked_by(user: User) -> QuerySet[User]:
    """The players ``user`` blocked."""
    return User.objects.filter(blocked_by__blocker=user).order_by("username")


def has_blocked(blocker: User, blocked: User) -> bool:
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def are_friends(first: User, second: User) -> bool:
    return FriendRequest.objects.filter(
        Q(sender=first, recipient=second) | Q(sender=second, recipient=first),
        accepted_at__isnull=False,
    ).exists()


def friends_online(friends: Iterable[User]) -> set[int]:
    """Which of these players (a player's own friends: nobody else learns it) are online
    now, leaving out those who keep it to themselves."""
    online = presence.online_among(friend.pk for friend in friends)
    if online:
        hidden = HiddenPresence.objects.filter(user_id__in=online).values_list("user_id", flat=True)
        online -= set(hidden)
    return online


def presence_hidden(user: User) -> bool:
    """Whether ``user`` keeps from their friends when they are online."""
    return HiddenPresence.objects.filter(user=user).exists()


@dataclass(frozen=True)
class Relation:
    """What a player's profile offers the viewer: follow, befriend, block, challenge."""

    following: bool
    friends: bool
    request_sent: bool
    request_received: bool
    blocked: bool


def relation(viewer: User, other: User) -> Relation:
    """How ``viewer`` stands to ``other`` (whether ``other`` blocked them is never said)."""
    requests = {
        (r.sender_id, r.accepted_at is not None)
        for r in FriendRequest.objects.filter(
            Q(sender=viewer, recipient=other) | Q(sender=other, recipient=viewer)
        )
    }
    friends = any(accepted for _sender, accepted in requests)
    return Relation(
        following=Follow.objects.filter(follower=viewer, followed=other).exists(),
        friends=friends,
        request_sent=not friends and (viewer.pk, False) in requests,
        request_received=not friends and (other.pk, False) in requests,
        blocked=has_blocked(viewer, other),
    )


def requests_received(user: User) -> QuerySet[FriendRequest]:
    """Friend requests waiting for ``user``'s answer, from players they have not blocked."""
    return (
        FriendRequest.objects.filter(recipient=user, accepted_at__isnull=True)
        .exclude(sender__in=Block.objects.filter(blocker=user).values("blocked"))
        .filter(sender__deleted_at__isnull=True)
        .select_related("sender")
        .order_by("-created_at")
    )


def requests_sent(user: User) -> QuerySet[FriendRequest]:
    return (
        FriendRequest.objects.filter(sender=user, accepted_at__isnull=True)
        .select_related("recipient")
        .order_by("-created_at")
    )


# Challenges


def challenges_received(user: User) -> QuerySet[Challenge]:
    """Challenges ``user`` may still accept, from players they have not blocked."""
    return (
        Challenge.objects.filter(
            challenged=user, status=Challenge.Status.PENDING, expires_at__gt=timezone.now()
        )
        .exclude(challenger__in=Block.objects.filter(blocker=user).values("blocked"))
        .select_related("challenger")
    )


def challenges_sent(user: User) -> QuerySet[Challenge]:
    return Challenge.objects.filter(
        challenger=user, status=Challenge.Status.PENDING, expires_at__gt=timezone.now()
    ).select_related("challenged")


def challenge_of(user: User, pk: int) -> Challenge | None:
    """The challenge ``pk`` if ``user`` sent it or may see it was sent to them."""
    return (
        Challenge.objects.filter(Q(challenger=user) | Q(challenged=user), pk=pk)
        .exclude(
            challenged=user, challenger__in=Block.objects.filter(blocker=user).values("blocked")
        )
        .select_related("challenger", "challenged", "game", "winter_game")
        .first()
    )


def challenge_version_of(moment: datetime.datetime) -> int:
    """The version a player's challenges have after a change at ``moment``."""
    return int(moment.timestamp() * 1_000_000)


def challenges_version(user_id: int) -> int:
    """A number that changes whenever a challenge to or from the player is sent or
    answered: the newest moment either happened (0 for none)."""
    row = Challenge.objects.filter(Q(challenger_id=user_id) | Q(challenged_id=user_id)).aggregate(
        sent=Max("created_at"), answered=Max("answered_at")
    )
    moments = [moment for moment in (row["sent"], row["answered"]) if moment is not None]
    return challenge_version_of(max(moments)) if moments else 0


@dataclass(frozen=True)
class LiveChallenges:
    """What a player's every page shows of live challenges: those waiting for their answer,
    and their own just accepted (the game's clock runs)."""

    received: list[Challenge]
    accepted: list[Challenge]

    def __bool__(self) -> bool:
        return bool(self.received or self.accepted)


def live_challenges(user: User) -> LiveChallenges:
    """Live challenges waiting for ``user``'s answer, and theirs accepted lately whose game
    is still in play and not yet played by them (once they have, they have found it)."""
    now = timezone.now()
    received = challenges_received(user).filter(
        pace=Game.Pace.LIVE, challenger__deleted_at__isnull=True
    )
    recent = now - datetime.timedelta(minutes=settings.LIMES_LIVE_CHALLENGE_MINUTES)
    # Until they have played in it: a Limes move of theirs, or any Winter turn since (the
    # challenger sits first at a Winter table, so the first turn after the accept is theirs).
    limes_unplayed = Q(game__status=Game.Status.ACTIVE) & ~Exists(
        Move.objects.filter(seat__game=OuterRef("game"), seat__user=user)
    )
    winter_unplayed = Q(winter_game__status=WinterGame.Status.RUNNING) & ~Exists(
        WinterTurn.objects.filter(
            game=OuterRef("winter_game"), played_at__gt=OuterRef("answered_at")
        )
    )
    accepted = (
        Challenge.objects.filter(
            challenger=user,
            pace=Game.Pace.LIVE,
            status=Challenge.Status.ACCEPTED,
            answered_at__gt=recent,
        )
        .filter(limes_unplayed | winter_unplayed)
        .select_related("challenged", "game", "winter_game")
        .order_by("-answered_at")
    )
    # One banner a game, however many challenges led to it.
    banners: list[Challenge] = []
    for challenge in accepted:
        if all(challenge.game_url != shown.game_url for shown in banners):
            banners.append(challenge)
    return LiveChallenges(list(received), banners)


def notifications_unread_count(user: User) -> int:
    """The number on the menu's badge of notifications (as ``limes_site.chrome`` counts)."""
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


# Friends' games


def _circle(user: User) -> QuerySet[User]:
    return User.objects.filter(
        Q(pk__in=friends_of(user).values("pk")) | Q(pk__in=followed_by(user).values("pk"))
    )


@dataclass(frozen=True)
class FriendsGame:
    game: Game
    friends: list[User]
    # The game's name as its own page gives it (a tournament's deal is named by its app).
    title: str


def _friends_games(user: User, games: QuerySet[Game]) -> list[FriendsGame]:
    circle = set(_circle(user).values_list("pk", flat=True))
    found: list[tuple[Game, list[User]]] = []
    for game in games.filter(seats__user__in=circle).distinct().prefetch_related("seats__user"):
        seats = list(game.seats.all())
        own = next((s for s in seats if s.user_id == user.pk), None)
        if not can_watch(game, user, own):
            continue
        found.append((game, [s.user for s in seats if s.user and s.user.pk in circle]))
        if len(found) == FRIENDS_GAMES_SHOWN:
            break
    titles = titles_of(game for game, _friends in found)
    return [FriendsGame(game, friends, titles[game.pk]) for game, friends in found]


def friends_playing(user: User) -> list[FriendsGame]:
    """Multiplayer games in play with a friend or a followed player that ``user`` may watch."""
    games = Game.objects.filter(mode=Game.Mode.MULTI, status=Game.Status.ACTIVE).order_by(
        "-updated_at"
    )
    return _friends_games(user, games)


def friends_recent_games(user: User) -> list[FriendsGame]:
    """The newest finished games of friends and followed players that ``user`` may see."""
    games = Game.objects.filter(status=Game.Status.FINISHED, hidden=False).order_by("-finished_at")
    return _friends_games(user, games)


# Chat


def can_read_chat(game: Game | WinterGame, user: User | AnonymousUser, seat: object = None) -> bool:
    """Whether ``user`` may read the game's chat (``ChatRoom.can_read``), of either game.

    The chat of a game by invitation only (not listed in the lobby, or a challenge's) is
    its players' alone, after its end too, when the game itself becomes public: they wrote
    for each other. (``seat`` is no longer needed: the room knows who is seated.)
    """
    return room_of(game).can_read(user)


def chat_messages(room: ChatRoom, viewer: User) -> list[ChatMessage]:
    """The newest messages of the room, oldest first, without those a moderator hid and
    without those of players ``viewer`` blocked."""
    messages = (
        ChatMessage.objects.filter(**room.lookup(), hidden=False)
        .exclude(author__in=Block.objects.filter(blocker=viewer).values("blocked"))
        .select_related("author")
        .order_by("-pk")[:CHAT_SHOWN]
    )
    return list(reversed(messages))


def chat_last_read(room: ChatRoom, user: User) -> int:
    """The id of the newest message of the room that ``user`` has read (0: none)."""
    mark = ChatRead.objects.filter(**room.lookup(), user=user).values_list("last_read", flat=True)
    return mark.first() or 0


def chat_unread_counts(
    user: User, game_ids: Iterable[int], *, kind: GameKind = GameKind.LIMES
) -> dict[int, int]:
    """How many messages by others ``user`` has not read in each of these games' chats
    (games of ``kind``; a game with none is left out), in one query.

    Counted as the chat shows them: without hidden messages and those of players ``user``
    blocked.
    """
    ids = list(game_ids)
    if not ids:
        return {}
    field = "winter_game" if kind == GameKind.WINTER else "game"
    read = ChatRead.objects.filter(user=user, **{field: OuterRef(field)}).values("last_read")[:1]
    rows = (
        ChatMessage.objects.filter(**{f"{field}_id__in": ids}, hidden=False)
        .exclude(author=user)
        .exclude(author__in=Block.objects.filter(blocker=user).values("blocked"))
        .filter(pk__gt=Coalesce(Subquery(read), 0))
        .order_by()
        .values(f"{field}_id")
        .annotate(unread=Count("pk"))
    )
    return {row[f"{field}_id"]: row["unread"] for row in rows}


def chat_version_key(room_key: int | str) -> str:
    """The cache key of a room's version (``ChatRoom.key``; a Limes game's number)."""
    return f"social:chat:{room_key}"


def chat_version(room: ChatRoom | int, kind: GameKind = GameKind.LIMES) -> str:
    """A token that changes whenever a message of the room is written or hidden (the room,
    or the number of a game of ``kind``: a poll asks without loading the game).

    From the shared cache when it has it: a poll that finds nothing new costs no query.
    """
    pk = room if isinstance(room, int) else room.pk
    kind = kind if isinstance(room, int) else room.kind
    key = chat_version_key(room_key(kind, pk))
    cached = cache.get(key)
    if cached is not None:
        return str(cached)
    field = "winter_game_id" if kind == GameKind.WINTER else "game_id"
    row = ChatMessage.objects.filter(**{field: pk}).aggregate(
        last=Max("pk"), hidden=Count("pk", filter=Q(hidden=True))
    )
    version = f"{row['last'] or 0}.{row['hidden']}"
    cache.add(key, version, CHAT_VERSION_SECONDS)
    return version


def presence_key(room_key: int | str, user_id: int) -> str:
    return f"social:here:{room_key}:{user_id}"


def is_present(room_key: int | str, user_id: int) -> bool:
    """Whether the player's chat panel of this room asked for news in the last minute."""
    return cache.get(presence_key(room_key, user_id)) is not None


def chat_mute_in_force(user: User) -> ChatMute | None:
    return (
        ChatMute.objects.filter(user=user, lifted_at__isnull=True, ends__gt=timezone.now())
        .order_by("-ends")
        .first()
    )
