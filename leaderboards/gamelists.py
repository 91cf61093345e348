"""Every game's kind in the site's shared lists: My games, the profile, the lobby.

The lists are drawn by ``games`` (My games, the lobby) and ``leaderboards`` (the profile);
``games`` may not read ``wintergames``, so the Winter half of those lists is read here, an
app above both games, and reaches ``games``' templates through the tags of
``leaderboards/templatetags/game_lists.py``. So do the Winter ratings' figures that a
lower app's page shows (a finished game's rating changes, through the ``ratings`` tags).
Each read costs a fixed number of queries, however many games a player has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.db.models import Count, Max, Prefetch, prefetch_related_objects

from accounts.models import User
from leaderboards.models import WinterRatingChange
from leaderboards.rating import display_change, display_rating
from leaderboards.selectors import RatingPoint
from wintergames.models import WinterGame, WinterSeat
from wintergames.selectors import games_open

GameKind = Literal["limes", "winter", ""]

#: The game filter's values (``?game=…``); anything else shows every game.
GAME_KINDS: tuple[GameKind, ...] = ("limes", "winter")

WINTER_IN_PLAY_SHOWN = 50
WINTER_FINISHED_SHOWN = 20


def game_kind(value: object) -> GameKind:
    """The game filter read from an address: ``limes``, ``winter`` or "" (every game)."""
    if value == "limes":
        return "limes"
    if value == "winter":
        return "winter"
    return ""


@dataclass(frozen=True)
class WinterEntry:
    """One Winter game of a player: the game, their seat and everyone's seats in order."""

    game: WinterGame
    seat: WinterSeat
    seats: list[WinterSeat]

    @property
    def others(self) -> list[WinterSeat]:
        return [seat for seat in self.seats if seat.pk != self.seat.pk]

    @property
    def to_move(self) -> bool:
        """Whether the game waits for this player's turn."""
        return self.game.is_running and self.game.waiting_for_id == self.seat.user_id


@dataclass(frozen=True)
class WinterLists:
    in_play: list[WinterEntry]
    finished: list[WinterEntry]
    # Which page of the finished games (``WINTER_FINISHED_SHOWN`` a page), and whether
    # older ones follow.
    page: int = 1
    has_next: bool = False

    @property
    def has_previous(self) -> bool:
        return self.page > 1


def page_number(value: object) -> int:
    """A page number read from an address; 1 for anything but a few ASCII digits."""
    if not isinstance(value, str) or not (value.isascii() and value.isdigit()) or len(value) > 6:
        return 1
    return max(1, int(value))


def winter_games_of(user: User, page: int = 1, *, with_hidden: bool = False) -> WinterLists:
    """``user``'s Winter games: waiting or in play (theirs to move first), then one page
    of the finished, latest first. Three queries, however many games.

    The games a moderator hid only ``with_hidden``: in the player's own lists, not on
    their public profile.
    """
    mine = WinterGame.objects.filter(seats__user=user)
    if not with_hidden:
        mine = mine.filter(hidden=False)
    in_play = list(
        mine.exclude(status=WinterGame.Status.FINISHED).order_by("-updated_at", "-pk")[
            :WINTER_IN_PLAY_SHOWN
        ]
    )
    offset = (page - 1) * WINTER_FINISHED_SHOWN
    finished = list(
        mine.filter(status=WinterGame.Status.FINISHED).order_by("-finished_at", "-pk")[
            offset : offset + WINTER_FINISHED_SHOWN + 1
        ]
    )
    has_next = len(finished) > WINTER_FINISHED_SHOWN
    finished = finished[:WINTER_FINISHED_SHOWN]
    seats = WinterSeat.objects.select_related("user").order_by("position")
    prefetch_related_objects([*in_play, *finished], Prefetch("seats", queryset=seats))

    def entry(game: WinterGame) -> WinterEntry:
        everyone = list(game.seats.all())
        own = next(seat for seat in everyone if seat.user_id == user.pk)
        return WinterEntry(game=game, seat=own, seats=everyone)

    entries = [entry(game) for game in in_play]
    entries.sort(key=lambda e: not e.to_move)
    return WinterLists(
        in_play=entries,
        finished=[entry(game) for game in finished],
        page=page,
        has_next=has_next,
    )


@dataclass(frozen=True)
class WinterOpen:
    """A Winter game waiting for people, its seats in order."""

    game: WinterGame
    seats: list[WinterSeat]

    @property
    def player_ids(self) -> set[int]:
        return {seat.user_id for seat in self.seats if seat.user_id is not None}


def winter_open_games() -> list[WinterOpen]:
    """Winter games waiting for people, newest first, their seats and players loaded.
    Two queries."""
    games = list(games_open())
    seats = WinterSeat.objects.select_related("user").order_by("position")
    prefetch_related_objects(games, Prefetch("seats", queryset=seats))
    return [WinterOpen(game=game, seats=list(game.seats.all())) for game in games]


@dataclass(frozen=True)
class WinterLobby:
    """The lobby's Winter half: the games waiting for people, and a signature that
    changes whenever one enters or leaves the lobby or someone takes a seat."""

    games: list[WinterOpen]
    signature: str


def winter_lobby_signature() -> str:
    """One query: how many Winter games are open, and the latest change of one."""
    values = games_open().aggregate(count=Count("id"), latest=Max("updated_at"))
    latest = values["latest"].timestamp() if values["latest"] else 0
    return f"{values['count']}-{latest:.6f}"


def winter_lobby() -> WinterLobby:
    """The signature first: a change between the two reads shows on the next poll."""
    signature = winter_lobby_signature()
    return WinterLobby(games=winter_open_games(), signature=signature)


@dataclass(frozen=True)
class WinterRatingShown:
    """One person's rating change in a finished Winter game, on the shown scale."""

    name: str
    before: int
    after: int
    change: str  # "+12", "-7", "±0"


def winter_rating_changes(game: WinterGame) -> list[WinterRatingShown]:
    """What a finished Winter game did to its people's ratings, by place; none for a game
    in play, an unrated one or one a moderator hid. One query, none before the end."""
    if not game.is_finished or game.hidden:
        return []
    rows = (
        WinterRatingChange.objects.filter(game_id=game.pk)
        .select_related("user")
        .order_by("seat__place", "seat__position")
    )
    return [
        WinterRatingShown(
            name=row.user.display_name,
            before=display_rating(row.rating_before),
            after=display_rating(row.rating_after),
            change=display_change(row.rating_before, row.rating_after),
        )
        for row in rows
    ]


#: The Winter rating's ``RatingPoint.ruleset``: one line of its own on a rating chart.
WINTER_SERIES = "winter"
WINTER_RATING_HISTORY_GAMES = 100


def winter_rating_history(user: User) -> list[RatingPoint]:
    """``user``'s Winter rating after each of their latest rated games, oldest first;
    games a moderator hid are left out. One query."""
    rows = (
        WinterRatingChange.objects.filter(user=user, game__hidden=False)
        .order_by("-finished_at", "-id")
        .values_list("rating_after", "finished_at", "game_id")[:WINTER_RATING_HISTORY_GAMES]
    )
    return [RatingPoint(WINTER_SERIES, after, at, game_id) for after, at, game_id in rows][::-1]
