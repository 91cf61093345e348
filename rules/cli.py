"""``python -m rules``: the command line of docs/formats.md section 3."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from rules.deck import DEFAULT_DECK_PATH, load_deck
from rules.errors import IllegalMoveError, InvalidInputError
from rules.landscape import Landscape
from rules.record import game_from_record

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
    args = parser.parse_args(argv)

    source = getattr(args, "zonemap", None) or getattr(args, "record", None)
    if source is None:  # the deck command: faults in the deck file are located in it
        source = os.environ.get("LIMES_DECK") or str(DEFAULT_DECK_PATH)
    try:
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
