"""Writes: creating games and committing rounds. Each function is one transaction."""

from __future__ import annotations

import datetime
import random
import secrets

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import leaderboards.services
import rules
from accounts.models import User
from games.models import Game, Move, Ruleset, Seat, SoloResult
from games.selectors import deck, game_moves, move_to_turn, player_key, rules_game


class MoveRejected(ValidationError):
    """A round the server will not apply; the message says why. Nothing was written."""

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@transaction.atomic
def game_create_solo(
    *,
    user: User,
    diagonal: bool = False,
    ferryman: bool = False,
    seed: int | None = None,
    daily: datetime.date | None = None,
) -> Game:
    """Start a solo game for ``user`` with a freshly dealt, server-side card sequence."""
    if seed is None:
        seed = secrets.randbits(62)
    the_deck = deck()
    game = Game(
        mode=Game.Mode.SOLO,
        diagonal=diagonal,
        ferryman=ferryman,
        ruleset=Ruleset.of(diagonal=diagonal, ferryman=ferryman),
        seed=seed,
        deck_name=the_deck.name,
        cards=list(the_deck.deal(random.Random(seed))),
        created_by=user,
        daily=daily,
        started_at=timezone.now(),
    )
    game.full_clean()
    game.save()
    Seat.objects.create(game=game, user=user, position=1)
    return game


def move_submit(*, game: Game, user: User, round_number: int, turn: rules.Turn) -> Game:
    """Commit ``user``'s round ``round_number``: all of it, exactly once, or nothing.

    Raises ``PermissionDenied`` for a game the user does not sit in and ``MoveRejected``
    for a finished game, a round that is not current, or a move that breaks a rule. A
    repeat of a round already committed with the same move (double click, second tab)
    is accepted and changes nothing.
    """
    try:
        with transaction.atomic():
            return _move_submit(game_id=game.pk, user=user, round_number=round_number, turn=turn)
    except IntegrityError:
        # The row lock already serialises commits; the unique constraint is the last word
        # should two requests for one round ever get past it.
        raise MoveRejected(_("This round has already been played."), status=409) from None


def _move_submit(*, game_id: int, user: User, round_number: int, turn: rules.Turn) -> Game:
    # The row lock serialises commits to one game, so the round advances exactly once.
    game = Game.objects.select_for_update().get(pk=game_id)
    seats = list(game.seats.select_related("user"))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise PermissionDenied(_("You do not play in this game."))
    moves = game_moves(game)
    existing = next((m for m in moves if m.seat_id == seat.pk and m.round == round_number), None)
    if existing is not None:
        if move_to_turn(existing) == turn:
            return game
        raise MoveRejected(_("You have already played round %d.") % round_number, status=409)
    if game.is_finished:
        raise MoveRejected(_("This game is over."), status=409)
    if round_number != game.round:
        raise MoveRejected(
            _("Round %(sent)d is not the round in play (round %(current)d).")
            % {"sent": round_number, "current": game.round},
            status=409,
        )
    state = rules_game(game, seats, moves)
    card = state.current_card
    try:
        state.play(player_key(seat), turn)
    except rules.RulesError as error:
        raise MoveRejected(str(error)) from None
    assert card is not None
    Move.objects.create(
        seat=seat,
        round=round_number,
        card=card.number,
        card_row=turn.placement.card_at[0],
        card_col=turn.placement.card_at[1],
        rotation=turn.placement.rotation,
        **_worker_fields(turn.worker),
    )
    if state.round != game.round:
        game.round = state.round
        if state.is_over:
            _finish(game, state, seats)
        # Only the columns a commit owns: an admin save elsewhere must not be overwritten.
        game.save(update_fields=["round", "status", "finished_at", "updated_at"])
    return game


def _worker_fields(worker: rules.WorkerAction) -> dict[str, object]:
    if isinstance(worker, rules.PlaceWorker):
        return {"worker": Move.Worker.PLACE, "worker_to": list(worker.zone)}
    if isinstance(worker, rules.MoveWorker):
        return {
            "worker": Move.Worker.MOVE,
            "worker_from": list(worker.source),
            "worker_to": list(worker.target),
        }
    return {"worker": Move.Worker.NONE}


def _finish(game: Game, state: rules.Game, seats: list[Seat]) -> None:
    now = timezone.now()
    game.status = Game.Status.FINISHED
    game.finished_at = now
    standings = {s.player: s for s in state.outcome().standings}
    for seat in seats:
        standing = standings[player_key(seat)]
        seat.score = standing.score.total
        seat.tiebreak = list(standing.score.tiebreak)
        seat.place = standing.place
        seat.shared_place = standing.shared
    Seat.objects.bulk_update(seats, ["score", "tiebreak", "place", "shared_place"])
    if game.mode == Game.Mode.SOLO:
        seat = seats[0]
        assert seat.score is not None
        SoloResult.objects.create(
            game=game,
            user=seat.user,
            ruleset=game.ruleset,
            score=seat.score,
            rating=rules.solo_rating(seat.score).value,
            finished_at=now,
            daily=game.daily,
        )
    leaderboards.services.game_finished(game=game, seats=seats)
