"""What a Winter turn's commit costs, and how big the board page grows (issue #49).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        nice python benchmarks/winter_commit.py [--games 3]

Run by hand. On a throwaway database (as ``web_speed.py``) it plays ``--games`` whole games
of one person against three computers (a fixed seed each), the person's turns through the
play view (htmx, as the page sends them), the computers' through their task, and measures
for each of the person's commits the CPU time of the request (``time.process_time``: the
service, the computers' turns that follow it in this process, and the board fragment
drawn) and its queries; then the size in bytes of the full game page and of its fragment
once the 84 tiles are down.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import in_throwaway_database  # noqa: E402


def run(games: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from wintergames import computer, services
    from wintergames.models import WinterGame
    from wintergames.rebuild import winter_game

    user = User.objects.create_user(username="bench", password=None)
    client = Client()
    client.force_login(user)
    alone: list[float] = []  # the person's turn, the computers queued, not played
    with_bots: list[float] = []  # the request with the three computers' turns after it
    queries: list[int] = []
    queue = computer.bots_play_enqueue
    held: list[tuple[int, int]] = []
    for seed in range(games):
        game = services.game_create(
            user=user,
            players=4,
            computers=3,
            level="normal",
            farmers=True,
            pace="untimed",
            seed=seed,
        )
        while True:
            game.refresh_from_db()
            if not game.is_running:
                break
            seats = list(game.seats.select_related("user").order_by("position"))
            state = winter_game(game, seats)
            if state.to_move != 0:
                computer.bots_play(game_id=game.pk, turn_number=len(state.turns))
                continue
            assert state.drawn is not None
            move = state.legal_moves(state.drawn)[0]
            fields = {
                "at": f"{move.at[0]},{move.at[1]}",
                "rotation": str(move.rotation),
                "follower": "",
                "turn": str(len(state.turns)),
            }
            url = f"/winter/games/{game.pk}/play/"
            # Every other commit with the task queue held back: the person's turn alone.
            hold = len(alone) <= len(with_bots)
            if hold:
                computer.bots_play_enqueue = lambda game_id, turn_number: held.append(
                    (game_id, turn_number)
                )
            with CaptureQueriesContext(connection) as captured:
                start = time.process_time()
                answer = client.post(url, fields, HTTP_HX_REQUEST="true")
                spent = time.process_time() - start
            computer.bots_play_enqueue = queue
            assert answer.status_code == 200, answer.content[:200]
            # Outside a test's transaction the computers' turns run on commit, in the
            # request (the immediate task backend), unless held back.
            (alone if hold else with_bots).append(spent * 1000)
            if hold:
                queries.append(len(captured))
            while held:
                game_id, number = held.pop()
                computer.bots_play(game_id=game_id, turn_number=number)
    last = WinterGame.objects.order_by("-pk").first()
    assert last is not None
    page = client.get(f"/winter/games/{last.pk}/")
    fragment = client.get(f"/winter/games/{last.pk}/", HTTP_HX_REQUEST="true")
    board = winter_game(last, list(last.seats.all()))
    print(f"games: {games}, the person's commits: {len(alone) + len(with_bots)}")
    for name, values in (("commit alone", alone), ("commit + 3 computers", with_bots)):
        if values:
            print(
                f"{name}: CPU ms median {statistics.median(values):.1f}, "
                f"max {max(values):.1f} (n={len(values)})"
            )
    print(f"queries per commit (alone): median {statistics.median(queries)}, max {max(queries)}")
    print(
        f"board page at {len(board.board)} tiles: {len(page.content)} bytes, "
        f"fragment {len(fragment.content)} bytes"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    in_throwaway_database(lambda: run(args.games))


if __name__ == "__main__":
    main()
