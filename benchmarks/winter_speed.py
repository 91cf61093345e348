"""How fast the winter engine is: legal moves on a 70-tile board, a whole game replayed.

    python benchmarks/winter_speed.py [--games 4] [--repeat 5] [--profile]

Run by hand; prints each figure beside its goal (issue #48). Boards come from seeded games
of the normal computer player, so every run measures the same work and followers stand
on the board as in play. Each figure is the best of ``--repeat`` timings, per operation.
``--profile`` adds what dominates each, by cProfile's own time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from winter import TILE_NAMES, Game, deal, game_from_record, game_to_record
from winter.bot import bot_turn

LEGAL_GOAL_MS, REPLAY_GOAL_MS = 2.0, 30.0


def played(seed: int, tiles: int | None = None) -> Game:
    """A normal-against-normal game on deal ``seed``, stopped at ``tiles`` placed tiles."""
    game = Game(["ana", "ben"], order=deal(seed))
    while game.drawn is not None and (tiles is None or len(game.board) < tiles):
        game.play(bot_turn("normal", game))
    return game


def best_ms(statement: Any, repeat: int, number: int) -> float:
    return min(timeit.repeat(statement, repeat=repeat, number=number)) / number * 1000


def profile(statement: Any, rounds: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(rounds):
        statement()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="seeded games (boards) to use")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    # Only boards where the player to move has a follower: then every option is worked out.
    boards: list[Game] = []
    seed = 0
    while len(boards) < args.games:
        seed += 1
        board = played(seed, tiles=70)
        if board.supply(board.to_move):
            boards.append(board)
    worst, worst_at, per_board = 0.0, "", []
    for number, game in enumerate(boards, 1):
        times = {}
        for name in TILE_NAMES:
            game.legal_moves(name)  # warms the per-process cache of fitting rotations
            times[name] = best_ms(lambda g=game, n=name: g.legal_moves(n), args.repeat, 20)
        slowest = max(times, key=times.__getitem__)
        per_board.append(sum(times.values()) / len(times))
        if times[slowest] > worst:
            worst, worst_at = times[slowest], f"{slowest} on board {number}"
        moves = sum(len(game.legal_moves(name)) for name in TILE_NAMES)
        print(
            f"board {number}: {len(game.board)} tiles, {len(game.open_places())} open places, "
            f"supply {game.supply(game.to_move)}, {moves} moves over the 36 kinds"
        )
    print(
        f"legal placements and followers, one tile on a 70-tile board: mean "
        f"{sum(per_board) / len(per_board):.3f} ms, worst {worst:.3f} ms ({worst_at})"
        f"  [goal <= {LEGAL_GOAL_MS} ms]"
    )

    records = [game_to_record(played(seed)) for seed in range(1, args.games + 1)]
    replays = []
    for record in records:
        replays.append(best_ms(lambda r=record: game_from_record(r).end_points(), args.repeat, 10))
    entries = sum(len(record["turns"]) for record in records) / len(records)
    print(
        f"replay of a whole game ({entries:.0f} entries, checked and scored): mean "
        f"{sum(replays) / len(replays):.2f} ms, worst {max(replays):.2f} ms"
        f"  [goal <= {REPLAY_GOAL_MS} ms]"
    )
    if args.profile:
        print("\nwhat dominates legal moves:")
        profile(lambda: [g.legal_moves(n) for g in boards for n in TILE_NAMES], 20)
        print("what dominates a replay:")
        profile(lambda: [game_from_record(r).end_points() for r in records], 10)


if __name__ == "__main__":
    main()
