"""Server time of the polls a waiting player's page makes, and their queries.

    DJANGO_SETTINGS_MODULE=limes_site.settings.test python benchmarks/poll_speed.py \
        [--games 50] [--polls 2000]

Run by hand. Sets up ``--games`` two-player games in play (on PostgreSQL if
``DATABASE_URL`` names it, in a throwaway database; else a temporary SQLite file), then,
in this process with Django's test client (server time: middleware, view, queries):

- polls that find nothing new (``204``): the goal is ≤ 5 ms at the 95th percentile;
- polls after the other player committed (table redrawn);
- polls after the round completed (table and board redrawn);
- lobby polls that find nothing new, with ``--games`` open games in the lobby.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import in_throwaway_database, ms, stopwatch  # noqa: E402

HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def run(games: int, polls: int) -> None:
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    import rules
    from accounts.models import User
    from core.tokens import poll_token
    from games import rebuild, selectors, services
    from games.models import Game

    password = "pw-limes-bench-1"
    users = []
    for n in range(2 * games):
        user = User.objects.create_user(f"bench{n}", f"bench{n}@example.com", password)
        users.append(user)
    played = []
    for n in range(games):
        ana, ben = users[2 * n], users[2 * n + 1]
        game = services.game_create_multi(
            user=ana, seats_max=2, pace=Game.Pace.LIVE, seed=n, listed=True
        )
        services.game_join(game=game, user=ben)
        played.append((Game.objects.get(pk=game.pk), ana, ben))
    for n in range(games):  # and as many open games waiting in the lobby
        services.game_create_multi(user=users[n], seats_max=4, pace=Game.Pace.LIVE)

    client = Client()
    client.login(username=users[0].username, password=password)
    rng = random.Random(2014)

    def poll_url(game: Game, version: int) -> str:
        url = reverse("games:poll", kwargs={"pk": game.pk})
        token = poll_token(game.pk, client.cookies[settings.SESSION_COOKIE_NAME].value)
        return f"{url}?v={version}&s=active&draft=0&t={token}"

    def commit(game: Game, user: User) -> None:
        game.refresh_from_db()
        state = rebuild.rules_game(game)
        card = state.current_card
        assert card is not None
        turn = rules.reference_turn(state.boards[user.username], card, state.variants)
        services.move_submit(game_id=game.pk, user=user, round_number=state.round, turn=turn)

    timings: dict[str, list[float]] = {name: [] for name in ("idle", "lobby", "played", "round")}
    queries: dict[str, set[int]] = {name: set() for name in timings}

    def measure(name: str, url: str, expect: int) -> None:
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as captured, stopwatch(timings[name]):
            response = client.get(url, **HTMX)
        assert response.status_code == expect, (url, response.status_code)
        queries[name].add(len(captured))

    for _ in range(2):  # the first pass warms caches; the second is timed
        for name in timings:
            timings[name].clear()
        for _ in range(polls):
            game, _ana, _ben = rng.choice(played)
            measure("idle", poll_url(game, game.version), 204)
        signature = selectors.lobby_signature()
        for _ in range(polls):
            measure("lobby", reverse("games:lobby_poll") + f"?since={signature}", 204)

    # A changed game: the other player committed, then the round completed.
    for game, ana, ben in played:
        before = Game.objects.get(pk=game.pk).version
        commit(game, ben)
        measure("played", poll_url(game, before), 200)
        before = Game.objects.get(pk=game.pk).version
        commit(game, ana)
        measure("round", poll_url(game, before), 200)

    print(f"{games} games in play, {games} open in the lobby; {polls} idle polls of each kind")
    print()
    print("| poll                               | ms median / p95 | queries |")
    print("|------------------------------------|-----------------|---------|")
    labels = {
        "idle": "game, nothing new (204)",
        "lobby": "lobby, nothing new (204)",
        "played": "game, the other player committed",
        "round": "game, the round completed",
    }
    for name, label in labels.items():
        counts = "/".join(str(n) for n in sorted(queries[name]))
        print(f"| {label:<34} | {ms(timings[name])} | {counts:>7} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games in play (default 50)")
    parser.add_argument("--polls", type=int, default=2000, help="idle polls timed per kind")
    args = parser.parse_args()
    in_throwaway_database(lambda: run(args.games, args.polls))


if __name__ == "__main__":
    main()
