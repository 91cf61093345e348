"""A game's chat room, of either game: who sits at it, who may read and write, where it lives.

The chat is the same for Limes and Carcassonne: Winter Edition; only a few facts differ by
game (whether it has a chat at all, who may watch it, its page, its push channel). A
``ChatRoom`` holds those facts, found once from the game, so that the services, selectors
and views of the chat follow one path for both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from accounts.models import User
from core import tokens
from core.ids import is_row_id
from floor import push
from games.models import Game, Seat
from games.policy import can_watch, seat_of
from games.selectors import game_with_seats
from social.models import GameKind
from wintergames.models import WinterGame, WinterSeat

#: The chat token's last subject for a Winter game: a Winter panel's token is worth
#: nothing for the Limes game of the same number.


@dataclass(frozen=True)
class ChatRoom:
    """One game's chat. Build it with ``room_of``."""

    kind: GameKind
    game: Game | WinterGame
    #: The people seated at the game (seats of the computer, or still open, left out).
    people: tuple[User, ...]
    #: Whether the game has a chat at all.
    is_open: bool
    #: A game by invitation: its chat is its players' alone, after its end too.
    players_only: bool
    #: Whether a reader who is not seated may watch the game (as its page decides).
    watchable: Callable[[User], bool]

    @property
    def pk(self) -> int:
        return self.game.pk

    @property
    def is_winter(self) -> bool:
        return self.kind == GameKind.WINTER

    @property
    def key(self) -> str:
        return room_key(self.kind, self.pk)

    @property
    def field(self) -> str:
        """The field of ``ChatMessage`` and ``ChatRead`` that names the room's game."""
        return "winter_game" if self.is_winter else "game"

    def lookup(self) -> dict[str, object]:
        """The filter of the room's messages and read marks (``ChatMessage.objects.filter``)."""
        return {f"{self.field}_id": self.pk}

    def is_seated(self, user: User | AnonymousUser) -> bool:
        return user.is_authenticated and any(person.pk == user.pk for person in self.people)

    def can_read(self, user: User | AnonymousUser) -> bool:
        """Whether ``user`` may read the chat: a signed-in player who may watch the game.

        Spectators read the players' chat but cannot write in it (``can_post``): the table
        is as public as the game, while a spectator's word could coach a player in the
        middle of a turn, and a second channel would be a second thing to moderate.
        """
        if not isinstance(user, User) or not self.is_open:
            return False
        if self.is_seated(user):
            return True
        return not self.players_only and self.watchable(user)

    def can_post(self, user: User | AnonymousUser) -> bool:
        """Whether the chat offers ``user`` to write, a mute aside: seated, not banned."""
        return (
            isinstance(user, User)
            and self.is_seated(user)
            and self.is_open
            and not (user.is_banned or user.is_deleted)
        )

    @property
    def game_url(self) -> str:
        name = "winter:detail" if self.is_winter else "games:detail"
        return reverse(name, kwargs={"pk": self.pk})

    @property
    def chat_url(self) -> str:
        name = "social:winter_chat" if self.is_winter else "social:chat"
        return reverse(name, kwargs={"pk": self.pk})

    @property
    def poll_url(self) -> str:
        name = "social:winter_chat_poll" if self.is_winter else "social:chat_poll"
        return reverse(name, kwargs={"pk": self.pk})

    @property
    def carries_push(self) -> bool:
        """Whether the game page's stream relays the chat's events: then the panel's poll
        stands aside while the stream is open. Both games' streams do
        (``floor.streams.chat_relay``)."""
        return True

    def token(self, session: str, user_id: int) -> str:
        """What the panel gives its polls: whose panel, and that it may read."""
        if self.is_winter:
            return tokens.mint(tokens.Scope.WINTER_CHAT, session, self.pk, user_id)
        return tokens.chat_token(self.pk, session, user_id)


def room_key(kind: GameKind, pk: int) -> str:
    """A room's name in cache keys: a Limes game's number, ``winter-<n>`` for Winter."""
    return f"winter-{pk}" if kind == GameKind.WINTER else str(pk)


def chat_changed_push(kind: GameKind, pk: int) -> None:
    """Tell the pages of game ``pk`` that its chat changed (a nudge, no message in it),
    on the game's own channel, once the transaction commits."""
    if kind == GameKind.WINTER:
        push.publish(push.winter_game_channel(pk), push.Event.CHAT, {})
    else:
        push.chat_changed(pk)


def token_is_valid(kind: GameKind, given: str, session: str, pk: int, user_id: int) -> bool:
    """Whether ``given`` is the token a panel of this room drew for ``user_id``, without
    loading the game (a poll that finds nothing new costs no query)."""
    if kind == GameKind.WINTER:
        return tokens.is_valid(given, tokens.Scope.WINTER_CHAT, session, pk, user_id)
    return tokens.is_valid(given, tokens.Scope.CHAT, session, pk, user_id)


def _limes_room(game: Game, seats: Iterable[Seat]) -> ChatRoom:
    seats = list(seats)
    # Multiplayer games only, never a daily challenge nor a sealed game (a tournament's
    # deal: its players must not talk while it runs), nor one called off.
    is_open = (
        game.mode == Game.Mode.MULTI
        and game.daily is None
        and game.sealed_until is None
        and game.status != Game.Status.CANCELLED
    )
    return ChatRoom(
        kind=GameKind.LIMES,
        game=game,
        people=tuple(seat.user for seat in seats if seat.user is not None),
        is_open=is_open,
        players_only=not game.listed,
        watchable=lambda user: can_watch(game, user, seat_of(seats, user)),
    )


def _winter_room(game: WinterGame, seats: Iterable[WinterSeat]) -> ChatRoom:
    seats = list(seats)
    # A resigned player keeps their seat (the computer plays it on) and their voice.
    people = tuple(seat.user for seat in seats if seat.user is not None)
    places_for_people = sum(1 for seat in seats if seat.user_id is not None or seat.is_open)
    return ChatRoom(
        kind=GameKind.WINTER,
        game=game,
        people=people,
        # Someone to talk to: at least two places for people (not a game against the
        # computer alone).
        is_open=places_for_people >= 2,
        # A game a challenge led to is by invitation (unlisted), as a Limes one can be.
        players_only=not game.listed,
        watchable=lambda user: not game.hidden or user.is_staff,
    )


def room_of(game: Game | WinterGame) -> ChatRoom:
    """The chat room of ``game``, of either kind, with its seats (a Limes game's prefetched
    seats are used as they are)."""
    if isinstance(game, WinterGame):
        return _winter_room(game, game.seats.select_related("user"))
    return _limes_room(game, game.seats.all())


def room_find(kind: GameKind, pk: int) -> ChatRoom | None:
    """The chat room of game ``pk`` of ``kind``, or ``None`` if there is no such game."""
    if not is_row_id(pk):
        return None
    if kind == GameKind.WINTER:
        winter = WinterGame.objects.filter(pk=pk).first()
        return room_of(winter) if winter is not None else None
    limes = game_with_seats(pk)
    return room_of(limes) if limes is not None else None
