"""The ``limes-game/1`` game record (docs/formats.md section 2)."""

from __future__ import annotations

import json
from typing import Any

from rules.deck import Deck
from rules.errors import InvalidInputError
from rules.game import Game
from rules.model import MoveWorker, Placement, PlaceWorker, Point, Turn, Variants, WorkerAction

RECORD_FORMAT = "limes-game/1"


def turn_to_json(turn: Turn) -> dict[str, Any]:
    """One player's turn in the record's shape."""
    worker: dict[str, Any] | None
    if isinstance(turn.worker, PlaceWorker):
        worker = {"place": list(turn.worker.zone)}
    elif isinstance(turn.worker, MoveWorker):
        worker = {"move": {"from": list(turn.worker.source), "to": list(turn.worker.target)}}
    else:
        worker = None
    return {
        "card_at": list(turn.placement.card_at),
        "rotation": turn.placement.rotation,
        "worker": worker,
    }


def turn_from_json(data: object, where: str = "turn") -> Turn:
    """Parse one player's turn; raises ``InvalidInputError`` naming ``where``."""
    if not isinstance(data, dict):
        raise InvalidInputError(f"{where}: a turn is an object")
    rotation = data.get("rotation")
    if not isinstance(rotation, int) or isinstance(rotation, bool):
        raise InvalidInputError(f'{where}: "rotation" must be a whole number of degrees')
    placement = Placement(_point(data.get("card_at"), f"{where}: card_at"), rotation)
    return Turn(placement, _worker_from_json(data.get("worker"), where))


def _worker_from_json(data: object, where: str) -> WorkerAction:
    if data is None:
        return None
    if isinstance(data, dict) and set(data) == {"place"}:
        return PlaceWorker(_point(data["place"], f"{where}: worker place"))
    if isinstance(data, dict) and set(data) == {"move"} and isinstance(data["move"], dict):
        move = data["move"]
        return MoveWorker(
            _point(move.get("from"), f"{where}: worker move from"),
            _point(move.get("to"), f"{where}: worker move to"),
        )
    raise InvalidInputError(f'{where}: "worker" must be null, {{"place": …}} or {{"move": …}}')


def _point(data: object, where: str) -> Point:
    if (
        isinstance(data, list)
        and len(data) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in data)
    ):
        return (data[0], data[1])
    raise InvalidInputError(f"{where} must be [row, col] whole numbers, not {json.dumps(data)}")


def game_to_record(game: Game) -> dict[str, Any]:
    """The record of a game, finished or not: revealed cards and every turn played."""
    return {
        "format": RECORD_FORMAT,
        "variants": game.variants.names(),
        "cards": list(game.revealed),
        "players": list(game.players),
        "turns": [
            {player: turn_to_json(turn) for player, turn in round_turns.items()}
            for round_turns in game.turns
        ],
    }


def game_from_record(record: object, *, deck: Deck | None = None) -> Game:
    """Replay a record move by move.

    Raises ``InvalidInputError`` if it is malformed, ``IllegalMoveError`` (naming the round
    and player) at the first move that breaks a rule.
    """
    if not isinstance(record, dict):
        raise InvalidInputError("a game record is a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise InvalidInputError(f'"format" must be "{RECORD_FORMAT}"')
    variants = record.get("variants", [])
    cards = record.get("cards")
    players = record.get("players")
    turns = record.get("turns")
    if not isinstance(variants, list):
        raise InvalidInputError('"variants" must be a list')
    if not isinstance(cards, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in cards
    ):
        raise InvalidInputError('"cards" must be a list of card numbers')
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidInputError('"players" must be a list of names')
    if not isinstance(turns, list):
        raise InvalidInputError('"turns" must be a list of rounds')
    if len(turns) > len(cards):
        raise InvalidInputError(f"{len(turns)} rounds of turns but only {len(cards)} cards")
    if len(cards) > 16:
        raise InvalidInputError("a game reveals at most 16 cards")
    parsed = []
    for number, round_turns in enumerate(turns, start=1):
        if not isinstance(round_turns, dict):
            raise InvalidInputError(f"round {number}: a round maps player names to turns")
        for player in round_turns:
            if player not in players:
                raise InvalidInputError(f"round {number}: {player!r} is not among the players")
        missing = [player for player in players if player not in round_turns]
        if missing and number < len(turns):
            # Only the round in play may be partly played: a later round cannot have begun.
            raise InvalidInputError(f"round {number}: no turn of {', '.join(missing)}")
        parsed.append(
            {
                player: turn_from_json(data, f"round {number}, player {player}")
                for player, data in round_turns.items()
            }
        )
    game = Game(players, cards, variants=Variants.from_names(variants), deck=deck)
    game.replay_turns(parsed)
    return game
