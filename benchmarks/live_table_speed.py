"""A live table at size: dealing a deal to everyone, each commit, and the deal of the next card.

    python benchmarks/live_table_speed.py [--players 100,1000] [--rounds 2]

On a throwaway PostgreSQL database (``limes_bench_web_*``, removed afterwards), for each
table size: ``services.lockstep_create`` (a game for each player, the first card dealt,
as a live tournament's deal starts); then ``--rounds`` rounds in which every player
commits the reference player's turn through ``services.move_submit``, in autocommit as
the site does, so each commit's after-commit work runs too (``lockstep_advance``: the
table's count of who is still to play, pushed). The last commit of a round also deals the
next card to every game (one UPDATE, a new version and clock for each). The turns are
worked out before the clock starts. Times are wall milliseconds, median / 95th
percentile (nearest rank) for the commits.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.web_speed import in_throwaway_database, percentile


def run(sizes: list[int], rounds: int) -> None:
    from django.contrib.auth.hashers import make_password
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    import rules
    from accounts.models import User
    from games import rebuild, services
    from games.models import Game, Lockstep

    password = make_password("bench")
    print(
        f"{'players':>7}  {'deal a deal':>11}  {'commit (median / p95)':>22}  {'queries':>7}  "
        f"{'last commit, deals the next card':>32}"
    )
    for size in sizes:
        users = User.objects.bulk_create(
            User(username=f"live{size}_{i}", email=f"live{size}_{i}@example.com", password=password)
            for i in range(size)
        )
        start = time.perf_counter()
        table, games = services.lockstep_create(
            users=users, seed=size, diagonal=False, ferryman=False, round_seconds=60
        )
        dealt = time.perf_counter() - start
        commits: list[float] = []
        last: list[float] = []
        queries: list[int] = []
        for _round in range(rounds):
            turns = []
            for game, user in zip(games, users, strict=True):
                game = Game.objects.get(pk=game.pk)
                state = rebuild.rules_game(game)
                card = state.current_card
                assert card is not None
                board = state.boards[user.username]
                turns.append(
                    (game, user, state.round, rules.reference_turn(board, card, state.variants))
                )
            for i, (game, user, number, turn) in enumerate(turns):
                reset_queries()
                with CaptureQueriesContext(connection) as captured:
                    begin = time.perf_counter()
                    services.move_submit(game_id=game.pk, user=user, round_number=number, turn=turn)
                    took = time.perf_counter() - begin
                (last if i == len(turns) - 1 else commits).append(took)
                if i == len(turns) // 2:
                    queries.append(len(captured.captured_queries))
        table = Lockstep.objects.get(pk=table.pk)
        assert table.round == rounds + 1, table.round
        print(
            f"{size:>7}  {dealt * 1e3:9.0f} ms  "
            f"{statistics.median(commits) * 1e3:9.2f} / {percentile(commits, 0.95) * 1e3:6.2f} ms  "
            f"{max(queries):>7}  {statistics.median(last) * 1e3:29.0f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="100,1000", help="table sizes (default 100,1000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds played (default 2)")
    args = parser.parse_args()
    sizes = [int(size) for size in args.players.split(",")]
    in_throwaway_database(lambda: run(sizes, args.rounds))


if __name__ == "__main__":
    main()
