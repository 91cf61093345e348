"""``python -m winter``: the command line of FORMATS.md section 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from winter.errors import IllegalMoveError, InvalidInputError
from winter.game import Game, rank
from winter.record import game_from_record, read_record
from winter.tiles import TILE_KINDS, tile_kind

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's own exit status is 2 as well
        self.print_usage(sys.stderr)
        self.exit(EXIT_MALFORMED, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 done, 1 a rule broken, 2 malformed)."""
    parser = _Parser(prog="python -m winter", description="Carcassonne: Winter Edition.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("tiles", help="print the catalogue of tiles")
    replay = commands.add_parser("replay", help="check and score a winter-game/1 record")
    replay.add_argument("record", help="record file, or - for standard input")
    moves = commands.add_parser("moves", help="where a tile may go next, with the followers")
    moves.add_argument("record", help="record file, or - for standard input")
    moves.add_argument("tile", help="the tile's name, e.g. WinE")
    args = parser.parse_args(argv)
    source = getattr(args, "record", None)
    try:
        if args.command == "tiles":
            result: Any = [kind.to_json() for kind in TILE_KINDS]
        elif args.command == "replay":
            result = replay_json(game_from_record(_load(source or "-")))
        else:
            data = _load(source or "-")
            tile_kind(args.tile)
            read_record(data)
            result = moves_json(game_from_record(data), args.tile)
    except InvalidInputError as error:
        print(f"{source}: {error}", file=sys.stderr)
        return EXIT_MALFORMED
    except IllegalMoveError as error:
        print(f"{source}: {error}", file=sys.stderr)
        return EXIT_ILLEGAL
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return EXIT_OK


def _load(path: str) -> object:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise InvalidInputError(f"cannot read the file: {reason}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInputError(f"not JSON: {error}") from None
    except RecursionError:
        raise InvalidInputError("not JSON that can be read: nested too deeply") from None


def replay_json(game: Game) -> dict[str, Any]:
    """``replay``'s answer: each player's points during play, at the end, and the ranking."""
    end = game.end_points()
    totals = [during + after for during, after in zip(game.scores, end, strict=True)]
    return {
        "players": {
            name: {
                "during": game.score(seat),
                "end": end[seat],
                "total": totals[seat],
                "supply": game.supply(seat),
            }
            for seat, name in enumerate(game.players)
        },
        "ranking": [[game.players[seat] for seat in place] for place in rank(totals)],
    }


def moves_json(game: Game, tile: str) -> dict[str, Any]:
    """``moves``' answer; raises IllegalMoveError when the bag holds no such tile."""
    if game.is_over():
        raise IllegalMoveError(f"turn {len(game.turns) + 1}: the game is over: the bag is empty")
    if not game.bag().get(tile):
        raise IllegalMoveError(f"turn {len(game.turns) + 1}: no {tile} is left in the bag")
    return {
        "moves": [
            {"at": list(move.at), "rotation": move.rotation, "followers": list(move.followers)}
            for move in game.legal_moves(tile)
        ]
    }
