"""Reads: games as the rules package sees them, and lists for pages."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, F, Max, Prefetch, QuerySet
from django.utils import timezone

import rules
from accounts.models import User
from games.models import Game, Move, Seat


def deck() -> rules.Deck:
    """The deck in use: ``settings.LIMES_DECK`` or the standard one."""
    return rules.load_deck(settings.LIMES_DECK)


def move_to_turn(move: Move) -> rules.Turn:
    """A stored round as a rules ``Turn``."""
    worker: rules.WorkerAction = None
    if move.worker == Move.Worker.PLACE:
        worker = rules.PlaceWorker(_zone(move.worker_to))
    elif move.worker == Move.Worker.MOVE:
        worker = rules.MoveWorker(_zone(move.worker_from), _zone(move.worker_to))
    return rules.Turn(rules.Placement((move.card_row, move.card_col), move.rotation), worker)


def _zone(stored: list[int] | None) -> rules.Point:
    # A JSON [row, col]; the worker kind says which of the two columns are set.
    assert stored is not None
    row, col = stored
    return (row, col)


def player_key(seat: Seat) -> str:
    """The seat's name inside the rules game and in records."""
    return seat.user.username


def game_moves(game: Game, *, before_round: int | None = None) -> list[Move]:
    """The game's stored rounds (those before ``before_round`` if given), in replay order."""
    moves = Move.objects.filter(seat__game=game)
    if before_round is not None:
        moves = moves.filter(round__lt=before_round)
    # Within a round, in the order they were committed: a player who left mid-round must
    # leave the rebuilt game at the same point as they left the real one.
    return list(moves.order_by("round", "id"))


def rules_game(
    game: Game, seats: list[Seat] | None = None, moves: list[Move] | None = None
) -> rules.Game:
    """Rebuild the game from its stored rounds; ``seats`` and ``moves`` save their queries."""
    if seats is None:
        seats = list(game.seats.select_related("user"))
    if moves is None:
        moves = game_moves(game)
    by_seat = {seat.pk: player_key(seat) for seat in seats}
    state = rules.Game(
        [by_seat[s.pk] for s in seats],
        game.cards,
        variants=rules.Variants(diagonal=game.diagonal, ferryman=game.ferryman),
        deck=deck(),
    )
    # A player who left (resigned, timed out) leaves the rebuilt game right after their
    # last round, so the rounds after it no longer wait for them.
    left = {s.pk: s.rounds_played for s in seats if s.status != Seat.Status.PLAYING}
    for seat_pk, rounds in left.items():
        if rounds == 0:
            state.retire(by_seat[seat_pk])
    for move in moves:
        state.play(by_seat[move.seat_id], move_to_turn(move))
        if left.get(move.seat_id) == move.round:
            state.retire(by_seat[move.seat_id])
    return state


def games_with_seats() -> QuerySet[Game]:
    """Games with their seats and the seats' players loaded (one query each)."""
    return Game.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def game_by_invite_code(code: str) -> Game | None:
    """The game an invitation code opens, in any letter case."""
    return Game.objects.filter(invite_code=code.upper()).first()


def game_version(pk: int) -> tuple[int, datetime.datetime | None] | None:
    """The game's version and round deadline (what a poll compares), or None: one query."""
    return Game.objects.filter(pk=pk).values_list("version", "deadline").first()


def seat_of(seats: Iterable[Seat], user: User | AnonymousUser) -> Seat | None:
    """The user's seat among ``seats``, if any."""
    if not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def seat_for(game: Game, user: User | AnonymousUser) -> Seat | None:
    """The user's seat in the game, if any (from the prefetched seats when there are)."""
    return seat_of(game.seats.all(), user)


def games_of(user: User) -> QuerySet[Game]:
    """The user's games, newest first, with seats and players loaded."""
    return (
        Game.objects.filter(seats__user=user)
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )


def can_watch(game: Game, user: User | AnonymousUser, seat: Seat | None) -> bool:
    """Whether ``user`` may see the game's page (players always may).

    A game in play or waiting for players is public only if it is listed in the lobby,
    and then only to signed-in players; a finished one is public unless a moderator hid
    it, except that a daily challenge of a day still running is shown only to those who
    have finished their own attempt of that day.
    """
    if seat is not None:
        return True
    if game.status in (Game.Status.OPEN, Game.Status.ACTIVE):
        return game.listed and user.is_authenticated
    if game.status == Game.Status.CANCELLED:
        return False
    if game.hidden and not user.is_staff:
        return False
    if game.daily is not None and game.daily >= timezone.now().date():
        return (
            user.is_authenticated
            and Game.objects.filter(
                daily=game.daily, created_by=user, status=Game.Status.FINISHED
            ).exists()
        )
    return True


def lobby_games() -> QuerySet[Game]:
    """Games waiting for players that anyone may join, oldest first, with their seats."""
    return (
        Game.objects.filter(status=Game.Status.OPEN, listed=True)
        .select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("created_at")
    )


def games_to_watch(limit: int = 20) -> QuerySet[Game]:
    """Lobby games in play, most recently active first, for spectators."""
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, listed=True, mode=Game.Mode.MULTI)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-updated_at")[:limit]
    )


def lobby_signature() -> str:
    """Changes whenever a game enters or leaves the lobby, or someone joins or leaves one."""
    values = Game.objects.filter(status=Game.Status.OPEN, listed=True).aggregate(
        count=Count("id"), latest=Max("updated_at")
    )
    latest = values["latest"].timestamp() if values["latest"] else 0
    return f"{values['count']}-{latest:.6f}"


@dataclass(frozen=True)
class MyGame:
    """A running game of the player, and whether it waits for their move."""

    game: Game
    seat: Seat
    your_move: bool


def my_games(user: User) -> list[MyGame]:
    """The user's games in play or waiting for players; those waiting for them first."""
    seats = (
        Seat.objects.filter(
            user=user,
            status=Seat.Status.PLAYING,
            game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
        )
        .select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
    )
    result = [MyGame(s.game, s, s.game.is_active and s.rounds_played < s.game.round) for s in seats]
    return sorted(result, key=lambda g: (not g.your_move, -g.game.updated_at.timestamp()))


def waiting_count(user: User) -> int:
    """How many multiplayer games wait for the user's move (the count in the menu)."""
    return Seat.objects.filter(
        user=user,
        status=Seat.Status.PLAYING,
        game__status=Game.Status.ACTIVE,
        game__mode=Game.Mode.MULTI,
        rounds_played__lt=F("game__round"),
    ).count()
