"""Reads: games as the rules package sees them, and lists for pages."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Avg, Count, Max, Q, QuerySet

import rules
from accounts.models import User
from games.models import Game, Move, Seat, SoloResult


def deck() -> rules.Deck:
    """The deck in use: ``settings.LIMES_DECK`` or the standard one."""
    return rules.load_deck(settings.LIMES_DECK)


def move_to_turn(move: Move) -> rules.Turn:
    """A stored round as a rules ``Turn``."""
    worker: rules.WorkerAction = None
    if move.worker == Move.Worker.PLACE:
        worker = rules.PlaceWorker(tuple(move.worker_to))  # type: ignore[arg-type]
    elif move.worker == Move.Worker.MOVE:
        worker = rules.MoveWorker(tuple(move.worker_from), tuple(move.worker_to))  # type: ignore[arg-type]
    return rules.Turn(rules.Placement((move.card_row, move.card_col), move.rotation), worker)


def player_key(seat: Seat) -> str:
    """The seat's name inside the rules game and in records."""
    return seat.user.username


def game_moves(game: Game) -> list[Move]:
    """Every stored round of the game, in the order they are replayed."""
    return list(Move.objects.filter(seat__game=game).order_by("round", "seat__position"))


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
    for move in moves:
        state.play(by_seat[move.seat_id], move_to_turn(move))
    return state


def seat_for(game: Game, user: User) -> Seat | None:
    """The user's seat in the game, if any."""
    if not user.is_authenticated:
        return None
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


def games_of(user: User) -> QuerySet[Game]:
    """The user's games, newest first, with seats and players loaded."""
    return (
        Game.objects.filter(seats__user=user)
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )


@dataclass(frozen=True)
class PlayerSummary:
    """What a public profile shows of a player's games."""

    games_played: int
    games_finished: int
    best_solo_score: int | None
    solo_average: float | None


def player_summary(user: User) -> PlayerSummary:
    """Counts, best and average solo score, from two aggregate queries."""
    seats = Seat.objects.filter(user=user).aggregate(
        played=Count("id"), finished=Count("id", filter=Q(game__status=Game.Status.FINISHED))
    )
    solo = SoloResult.objects.filter(user=user, hidden=False).aggregate(
        best=Max("score"), average=Avg("score")
    )
    return PlayerSummary(seats["played"], seats["finished"], solo["best"], solo["average"])
