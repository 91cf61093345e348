"""Server time and queries of a game's chat: its poll, drawing the panel, sending a message.

    DJANGO_SETTINGS_MODULE=limes_site.settings.test python benchmarks/chat_speed.py \
        [--games 20] [--polls 1000]

Run by hand. Sets up ``--games`` two-player games in play, each with 40 messages (on
PostgreSQL if ``DATABASE_URL`` names it, in a throwaway database; else a temporary SQLite
file), then, in this process with Django's test client:

- chat polls that find nothing new (``204``): like the board's, no query;
- chat polls after a message arrived (the log redrawn);
- the panel drawn (htmx GET) and a message sent (htmx POST, panel redrawn).
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
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from accounts.models import User
    from core.tokens import chat_token
    from games import services
    from games.models import Game
    from social import selectors
    from social.models import ChatMessage

    password = "pw-limes-bench-1"
    users = [
        User.objects.create_user(f"bench{n}", f"bench{n}@example.com", password)
        for n in range(2 * games)
    ]
    played: list[Game] = []
    for n in range(games):
        game = services.game_create_multi(user=users[2 * n], seats_max=2, pace=Game.Pace.LIVE)
        services.game_join(game=game, user=users[2 * n + 1])
        ChatMessage.objects.bulk_create(
            ChatMessage(game=game, author=users[2 * n + i % 2], text=f"message {i}")
            for i in range(40)
        )
        played.append(game)
    # One reader: a player of the first game, a spectator of the others (listed games).
    reader = users[1]
    client = Client()
    client.login(username=reader.username, password=password)
    rng = random.Random(2014)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value

    def poll_url(game: Game) -> str:
        url = reverse("social:chat_poll", kwargs={"pk": game.pk})
        token = chat_token(game.pk, cookie, reader.pk)
        return f"{url}?v={selectors.chat_version(game.pk)}&t={token}&u={reader.pk}"

    timings: dict[str, list[float]] = {n: [] for n in ("idle", "changed", "panel", "send")}
    queries: dict[str, set[int]] = {name: set() for name in timings}

    def measure(name: str, method: str, url: str, expect: int, **data: Any) -> None:
        with CaptureQueriesContext(connection) as captured, stopwatch(timings[name]):
            response = getattr(client, method)(url, data, **HTMX)
        assert response.status_code == expect, (url, response.status_code)
        queries[name].add(len(captured))

    for _ in range(2):  # the first pass warms caches; the second is timed
        for name in timings:
            timings[name].clear()
        urls = {game.pk: poll_url(game) for game in played}
        for _ in range(polls):
            game = rng.choice(played)
            measure("idle", "get", urls[game.pk], 204)
    for game in played:
        url = poll_url(game)
        ChatMessage.objects.create(game=game, author=game.created_by, text="news")
        cache.delete(selectors.chat_version_key(game.pk))  # as chat_post does on commit
        measure("changed", "get", url, 200)
        measure("panel", "get", reverse("social:chat", kwargs={"pk": game.pk}), 200)
    # Sending, in the reader's own game; their earlier messages go, so no throttle bites.
    for _ in played:
        ChatMessage.objects.filter(author=reader).delete()
        url = reverse("social:chat", kwargs={"pk": played[0].pk})
        measure("send", "post", url, 200, text="hi")

    print(f"{games} games in play, 40 messages each; {polls} idle polls")
    print()
    print("| chat request                       | ms median / p95 | queries |")
    print("|------------------------------------|-----------------|---------|")
    labels = {
        "idle": "poll, nothing new (204)",
        "changed": "poll, a message arrived",
        "panel": "panel drawn (htmx GET)",
        "send": "message sent (htmx POST)",
    }
    for name, label in labels.items():
        counts = "/".join(str(n) for n in sorted(queries[name]))
        print(f"| {label:<34} | {ms(timings[name])} | {counts:>7} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games in play (default 20)")
    parser.add_argument("--polls", type=int, default=1000, help="idle polls timed")
    args = parser.parse_args()
    in_throwaway_database(lambda: run(args.games, args.polls))


if __name__ == "__main__":
    main()
