"""Stored rows turned into a rules game: the deck, a stored round as a ``rules.Turn``, a
game rebuilt from its seats' stored turns or replayed from its moves."""

from __future__ import annotations

from typing import Protocol

from django.conf import settings

import rules
from games.models import Game, Move, Ruleset, Seat
from games.policy import dealt_cards


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
    return seat.player_key


def game_moves(game: Game, *, before_round: int | None = None) -> list[Move]:
    """The game's stored rounds (those before ``before_round`` if given), in replay order."""
    moves = Move.objects.filter(seat__game=game)
    if before_round is not None:
        moves = moves.filter(round__lt=before_round)
    # Within a round, in the order they were committed: a player who left mid-round must
    # leave the rebuilt game at the same point as they left the real one.
    return list(moves.order_by("round", "id"))


def unseen_cards(state: rules.Game) -> list[rules.Card]:
    """The deck's cards not yet revealed in ``state``: what a fair player may know of them."""
    revealed = set(state.revealed)
    return [card for card in state.deck if card.number not in revealed]


def rules_game(
    game: Game,
    seats: list[Seat] | None = None,
    moves: list[Move] | None = None,
    *,
    before_round: int | None = None,
) -> rules.Game:
    """The game as the rules package sees it; ``seats`` and ``moves`` save their queries.

    It knows only the cards dealt so far (``policy.dealt_cards``): at a live table, a
    player who has played the table's round has no current card until the table deals.

    Without ``moves``, it is rebuilt from the seats' stored turns (``Seat.turns``), with
    no query and no rule checked; a seat whose copy is missing or out of step with its
    rounds makes it read and replay the moves instead. Given ``moves`` (some rounds
    only, say), it replays those. ``before_round``: the game as it stood once the rounds
    before that one were played (as replaying ``game_moves(game, before_round=…)``).
    """
    if seats is None:
        seats = list(game.seats.select_related("user"))
    if moves is None:
        state = _from_stored_turns(game, seats, before_round)
        if state is not None:
            return state
        moves = game_moves(game, before_round=before_round)
    elif before_round is not None:
        moves = [move for move in moves if move.round < before_round]
    by_seat = {seat.pk: player_key(seat) for seat in seats}
    state = rules.Game(
        [by_seat[s.pk] for s in seats],
        dealt_cards(game, seats),
        variants=variants_of(game),
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


class HasVariants(Protocol):
    """A stored thing with the rulebook's variants: a game, a puzzle."""

    @property
    def diagonal(self) -> bool: ...

    @property
    def ferryman(self) -> bool: ...


def variants_of(stored: HasVariants | Ruleset | str) -> rules.Variants:
    """The ``rules.Variants`` of a stored game or puzzle, or of a ruleset."""
    if isinstance(stored, str):
        diagonal, ferryman = Ruleset(stored).flags
        return rules.Variants(diagonal=diagonal, ferryman=ferryman)
    return rules.Variants(diagonal=stored.diagonal, ferryman=stored.ferryman)


def stored_turns(seat: Seat) -> list[rules.Turn] | None:
    """The seat's rounds from its stored copy, or ``None`` if the copy cannot be trusted."""
    stored = seat.turns
    if not isinstance(stored, list) or len(stored) != seat.rounds_played:
        return None
    return [rules.turn_from_json(turn) for turn in stored]


def _from_stored_turns(
    game: Game, seats: list[Seat], before_round: int | None
) -> rules.Game | None:
    rounds = rules.ROUNDS if before_round is None else max(0, before_round - 1)
    turns = {}
    for seat in seats:
        own = stored_turns(seat)
        if own is None:
            return None
        turns[player_key(seat)] = own[:rounds]
    # A player who left did so after their last round: in the game as it stood after
    # ``rounds``, only if that last round is among them.
    left = [s for s in seats if s.status != Seat.Status.PLAYING and s.rounds_played <= rounds]
    return rules.Game.from_turns(
        [player_key(seat) for seat in seats],
        dealt_cards(game, seats),
        turns,
        retired=[player_key(seat) for seat in left],
        variants=variants_of(game),
        deck=deck(),
    )
