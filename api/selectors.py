"""Reads of the open data: what the public API, the embeds and the exports may show.

One rule throughout: the API shows what a visitor of the site would see (or, with a
personal token, what its owner sees), never more. Who may see a game is
``games.policy.can_watch``; on top of it, the API never shows a hidden game or result,
a banned or deleted player's profile, a game with a banned player at its table, or a
card before it is revealed (a record in play stops where the board stops). No list
shows a sealed game (a tournament's deal) before its seal lifts, not even to its player.
No email address is ever read here.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet

import rules
from accounts.models import User
from api.models import ApiToken
from api.services import TOKEN_PREFIX, token_digest
from games import policy, rebuild
from games import selectors as game_selectors
from games.daily import FIRST_DAY, daily_seed, today
from games.models import Game, Seat, SoloResult
from leaderboards.selectors import hidden_players

Viewer = User | AnonymousUser

# Longer than any token we make; a longer header is not looked up.
TOKEN_MAX_LENGTH = 100


def token_owner(secret: str) -> tuple[ApiToken, User] | None:
    """The token and its player for a presented secret, or None if it opens nothing.

    A revoked token is gone; a banned or deleted player's token opens nothing.
    """
    if (
        not secret.startswith(TOKEN_PREFIX)
        or len(secret) > TOKEN_MAX_LENGTH
        or not secret.isascii()
        or not secret.isprintable()
    ):
        return None
    token = ApiToken.objects.select_related("user").filter(digest=token_digest(secret)).first()
    if token is None:
        return None
    user = token.user
    if user.is_deleted or user.is_banned or not user.is_active:
        return None
    return token, user


def tokens_of(user: User) -> QuerySet[ApiToken]:
    """A player's tokens, the newest first."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def _hidden_player_at_table() -> Exists:
    return Exists(Seat.objects.filter(game=OuterRef("pk"), user__in=hidden_players()))


def has_hidden_player(game: Game) -> bool:
    """Whether a banned or deleted-then-hidden player sits at the game (the seats loaded)."""
    return any(seat.user is not None and seat.user.is_banned for seat in game.seats.all())


def visible_game(pk: int, viewer: Viewer) -> tuple[Game, Seat | None] | None:
    """The game ``pk`` and the viewer's seat, if the API may show it to ``viewer``."""
    game = game_selectors.game_with_seats(pk)
    if game is None:
        return None
    seat = policy.seat_of(game.seats.all(), viewer)
    if not policy.can_watch(game, viewer, seat):
        return None
    # Stricter than the site: not even a moderator's token shows a hidden game or result.
    if game.hidden or has_hidden_player(game) or result_hidden(game):
        return None
    return game, seat


def result_hidden(game: Game) -> bool:
    """Whether a moderator hid the result of ``game`` (a finished solo game's)."""
    if game.mode != Game.Mode.SOLO or not game.is_finished:
        return False
    return SoloResult.objects.filter(game_id=game.pk, hidden=True).exists()


def _shown(games: QuerySet[Game]) -> QuerySet[Game]:
    # What no list of the API shows: a hidden game or result, a banned player's game.
    return (
        games.filter(hidden=False)
        .exclude(solo_result__hidden=True)
        .exclude(_hidden_player_at_table())
    )


def game_record(game: Game, seats: list[Seat] | None = None) -> dict[str, Any] | None:
    """The game's ``limes-game/1`` record as far as the board shows it; None before it starts.

    A multiplayer game in play stops at its last complete round, as the game page does:
    the others' choices of the round in play stay hidden until it ends. Its ``cards`` are
    the revealed ones only (``games.policy.revealed_cards``), never one more.
    """
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
        return None
    if seats is None:
        seats = list(game.seats.all())
    before = game.round if game.mode == Game.Mode.MULTI and game.is_active else None
    state = rebuild.rules_game(game, seats, before_round=before)
    record = rules.game_to_record(state)
    revealed = game.cards[: game.round] if game.is_active else game.cards
    # The rules game knows exactly the cards its turns used; never more than the board.
    record["cards"] = record["cards"][: len(revealed)]
    return record


# -- lists -----------------------------------------------------------------------------

GAMES_PAGE_SIZE = 50
# Lists of games go back this many pages (5,000 games); the NDJSON export goes further.
GAMES_MAX_PAGE = 100


@dataclass(frozen=True)
class SeatRow:
    name: str
    computer: bool
    position: int
    status: str
    score: int | None
    place: int | None
    shared_place: bool


@dataclass(frozen=True)
class GameRow:
    """What a game's summary shows: plain values, the same from a model or from a list."""

    id: int
    mode: str
    status: str
    ruleset: str
    diagonal: bool
    ferryman: bool
    daily: datetime.date | None
    round: int
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    seats: list[SeatRow]

    @property
    def is_finished(self) -> bool:
        return self.status == Game.Status.FINISHED


GAME_FIELDS = [f.name for f in fields(GameRow) if f.name != "seats"]
SEAT_FIELDS = ["position", "status", "score", "place", "shared_place"]


def _seat_row(name: str, computer: bool, values: Sequence[Any]) -> SeatRow:
    return SeatRow(name, computer, *values)


def _game_row(values: Sequence[Any], seats: list[SeatRow]) -> GameRow:
    return GameRow(**dict(zip(GAME_FIELDS, values, strict=True)), seats=seats)


def game_row(game: Game) -> GameRow:
    """The summary of ``game`` (its seats and players loaded)."""
    seats = [
        _seat_row(seat.player_key, seat.is_bot, [getattr(seat, f) for f in SEAT_FIELDS])
        for seat in game.seats.all()
    ]
    return _game_row([getattr(game, f) for f in GAME_FIELDS], seats)


@dataclass(frozen=True)
class Page:
    games: list[GameRow]
    page: int
    has_next: bool


def _paged(games: QuerySet[Game], page: int) -> Page:
    # Values, not models: a page of 50 games and their 150 seats in two queries, with no
    # model built (that took most of a page's time).
    offset = (page - 1) * GAMES_PAGE_SIZE
    found = list(games.values_list(*GAME_FIELDS)[offset : offset + GAMES_PAGE_SIZE + 1])
    shown = found[:GAMES_PAGE_SIZE]
    seats: dict[int, list[SeatRow]] = {values[0]: [] for values in shown}
    rows = (
        Seat.objects.filter(game_id__in=list(seats))
        .order_by("game_id", "position")
        .values_list("game_id", "user__username", "bot_level", *SEAT_FIELDS)
    )
    for game_id, username, bot_level, *values in rows:
        # A computer's name as its seat gives it (Seat.player_key), without a query.
        name = username or Seat(position=values[0], bot_level=bot_level).player_key
        seats[game_id].append(_seat_row(name, username is None, values))
    return Page(
        [_game_row(values, seats[values[0]]) for values in shown],
        page,
        len(found) > GAMES_PAGE_SIZE,
    )


def public_finished_games() -> QuerySet[Game]:
    """Finished games anyone may watch, the newest first.

    Not hidden (neither the game nor its result), no banned player at the table, no daily
    challenge of a day still running, no sealed game (a tournament's deal before its
    seal lifts). Newest by id (when the game was made), not by when it ended: the primary
    key's index (or a player's seats' (user, game) index) walked backwards gives a page at
    once, where ordering by ``finished_at`` would sort every finished game (1.4 s at 1.1M).
    """
    return (
        _shown(Game.objects.filter(status=Game.Status.FINISHED))
        .filter(Q(daily__isnull=True) | Q(daily__lt=today()))
        .exclude(policy.sealed())
        .order_by("-id")
    )


def recent_games(*, page: int) -> Page:
    """A page of the newest finished public games."""
    return _paged(public_finished_games(), page)


def player_games(*, player: User, page: int) -> Page:
    """A page of the finished public games ``player`` sat at, the newest first."""
    return _paged(public_finished_games().filter(seats__user=player), page)


def public_player(username: str) -> User | None:
    """The player of that name, unless the account is deleted or banned."""
    player = User.objects.filter(username=username, deleted_at__isnull=True).first()
    if player is None or player.is_banned or not player.is_active:
        return None
    return player


def export_games(*, player: User) -> QuerySet[Game]:
    """Every game ``player`` sat at that has begun, oldest first, seats prefetched, for
    their own NDJSON export: in play included (as far as the board shows it), hidden ones
    (game or result) and those with a banned player at the table never."""
    return (
        _shown(game_selectors.games_with_seats().filter(seats__user=player))
        .exclude(status__in=[Game.Status.OPEN, Game.Status.CANCELLED])
        .order_by("id")
    )


def iter_records(
    games: QuerySet[Game], *, chunk: int = 200
) -> Iterator[tuple[Game, dict[str, Any]]]:
    """Each game with its record, read ``chunk`` games at a time (memory stays flat)."""
    for game in games.iterator(chunk_size=chunk):
        record = game_record(game)
        if record is not None:
            yield game, record


# -- the daily challenge -----------------------------------------------------------------


def daily_cards(day: datetime.date) -> list[int]:
    """The day's sixteen cards, dealt as ``games.services`` deals the day's games."""
    return list(rebuild.deck().deal(random.Random(daily_seed(day))))


def daily_day_state(day: datetime.date) -> str:
    """``"future"``, ``"running"`` (today) or ``"over"``, or ``"before"`` the first day."""
    if day < FIRST_DAY:
        return "before"
    current = today()
    if day > current:
        return "future"
    return "running" if day == current else "over"
