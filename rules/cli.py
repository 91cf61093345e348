"""``python -m rules``: the command line of docs/formats.md section 3."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import IO, Any

from rules.board import Board
from rules.bot import BOT_LEVELS, MASTER_BUDGET, Budget, bot_turn
from rules.deck import DEFAULT_DECK_PATH, Deck, load_deck
from rules.errors import IllegalMoveError, InvalidInputError, RulesError
from rules.landscape import Landscape
from rules.model import ROUNDS, Turn, Variants
from rules.record import game_from_record, turn_from_json, turn_to_json

BOT_FORMAT = "limes-bot/1"

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m rules", description="The rules of Limes.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("deck", help="print the deck in use")
    score = commands.add_parser("score", help="score a landscape given as a zone map")
    score.add_argument("zonemap", help="zone map file, or - for standard input")
    moves = commands.add_parser("moves", help="where each worker of a zone map may move")
    moves.add_argument("zonemap", help="zone map file, or - for standard input")
    moves.add_argument("--ferryman", action="store_true", help="play the ferryman variant")
    replay = commands.add_parser("replay", help="check and score a limes-game/1 record")
    replay.add_argument("record", help="record file, or - for standard input")
    bot = commands.add_parser("bot", help="answer limes-bot/1 positions, one a line, with turns")
    bot.add_argument("--level", choices=BOT_LEVELS, default="strong", help="default: strong")
    bot.add_argument("--seed", type=int, default=0, help="fixes any randomness (default 0)")
    bot.add_argument(
        "--budget",
        type=_seconds,
        default=MASTER_BUDGET.seconds,
        metavar="SECONDS",
        help=f"the master's CPU seconds a line (default {MASTER_BUDGET.seconds})",
    )
    args = parser.parse_args(argv)

    source = getattr(args, "zonemap", None) or getattr(args, "record", None)
    if source is None:  # the deck command: faults in the deck file are located in it
        source = os.environ.get("LIMES_DECK") or str(DEFAULT_DECK_PATH)
    try:
        if args.command == "bot":
            deck = load_deck()  # faults in the deck file are reported before any line is read
            budget = Budget(seconds=args.budget)
            return _serve_bot(deck, args.level, args.seed, sys.stdin.buffer, sys.stdout, budget)
        if args.command == "deck":
            result: Any = load_deck().to_json()
        elif args.command == "score":
            result = Landscape.from_zone_map(_read(source)).score().to_json()
        elif args.command == "moves":
            result = _moves(Landscape.from_zone_map(_read(source)), ferryman=args.ferryman)
        else:
            result = _replay(_read(source))
    except InvalidInputError as error:
        print(error.located("<stdin>" if source == "-" else source), file=sys.stderr)
        return EXIT_MALFORMED
    except IllegalMoveError as error:
        print(f"{source}: {error}", file=sys.stderr)
        return EXIT_ILLEGAL
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return EXIT_OK


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise InvalidInputError(f"cannot read the file: {reason}") from None


def _moves(landscape: Landscape, *, ferryman: bool) -> dict[str, Any]:
    return {
        "workers": [
            {
                "zone": list(zone),
                "to": [list(p) for p in landscape.worker_targets(zone, ferryman=ferryman)],
            }
            for zone in sorted(set(landscape.workers))
        ]
    }


def _replay(text: str) -> dict[str, Any]:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInputError(
            f"not JSON: {error.msg}", line=error.lineno, column=error.colno
        ) from None
    game = game_from_record(record)
    outcome = game.outcome()
    return {
        "players": {
            player: {"total": score.total, "tiebreak": list(score.tiebreak)}
            for player, score in outcome.scores.items()
        },
        "ranking": [list(group) for group in outcome.ranking],
    }


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"seconds are 0 or more: {text!r}")
    return seconds


def _serve_bot(
    deck: Deck,
    level: str,
    seed: int,
    lines: IO[bytes],
    out: IO[str],
    budget: Budget = MASTER_BUDGET,
) -> int:
    # One answer a line, flushed at once: the caller waits for it before the next line.
    for raw in iter(lines.readline, b""):
        try:
            answer = turn_to_json(_bot_answer(deck, level, seed, raw, budget))
        except (RulesError, ValueError, RecursionError) as error:
            answer = {"error": str(error) or type(error).__name__}
        except Exception as error:  # a bug must not end every game this process serves
            answer = {"error": f"internal error: {type(error).__name__}: {error}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return EXIT_OK


def _bot_answer(deck: Deck, level: str, seed: int, raw: bytes, budget: Budget) -> Turn:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInputError("the line is not UTF-8") from None
    if not text.strip():
        raise InvalidInputError("an empty line; a position is one JSON object")
    try:
        position = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInputError(f"not JSON: {error.msg} at column {error.colno}") from None
    if not isinstance(position, dict):
        raise InvalidInputError("a position is a JSON object")
    if position.get("format") != BOT_FORMAT:
        raise InvalidInputError(f'"format" must be "{BOT_FORMAT}"')
    names = position.get("variants", [])
    cards = position.get("cards")
    turns = position.get("turns")
    if not isinstance(names, list):
        raise InvalidInputError('"variants" must be a list')
    variants = Variants.from_names(names)
    if not isinstance(cards, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in cards
    ):
        raise InvalidInputError('"cards" must be a list of card numbers')
    if not 1 <= len(cards) <= ROUNDS:
        raise InvalidInputError(f'"cards" lists 1 to {ROUNDS} card numbers, not {len(cards)}')
    if len(set(cards)) != len(cards):
        raise InvalidInputError('a card appears twice in "cards"')
    revealed = [deck.card(number) for number in cards]
    if not isinstance(turns, list):
        raise InvalidInputError('"turns" must be a list of this player\'s turns')
    if len(turns) != len(cards) - 1:
        raise InvalidInputError(
            f'"turns" must have one fewer entry than "cards": {len(cards)} cards, '
            f"{len(turns)} turns"
        )
    board = Board()
    for number, (card, data) in enumerate(zip(revealed, turns, strict=False), start=1):
        turn = turn_from_json(data, f"round {number}")
        try:
            board = board.play(card, turn, variants)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"round {number}: {error}") from None
    unseen = [card for card in deck if card.number not in set(cards)]
    return bot_turn(
        board, revealed[-1], unseen=unseen, variants=variants, level=level, seed=seed, budget=budget
    )
