"""Memory and time of a player's NDJSON export (/api/v1/account/games.ndjson) by size.

    createdb -h 127.0.0.1 -U postgres limes_ndjson && export DATABASE_URL=postgresql://…/limes_ndjson
    DJANGO_SETTINGS_MODULE=limes_site.settings.test python manage.py migrate
    python benchmarks/ndjson_export.py [--sizes 1000 10000]

Gives a player of each size that many finished solo games (one game played by the
reference player, its sixteen turns copied into every seat, as a finished game stores
them), then streams their export through Django's test client with their token: once
timed, once under ``tracemalloc``: the most Python memory held at any thousandth line, and
the peak (a chunk of games being read). Constant memory: neither grows with the games.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.test")
    import django

    django.setup()
    from django.test import Client
    from django.utils import timezone

    import rules
    from accounts.models import User
    from api import limits
    from api.services import token_create
    from games.models import Game, Seat
    from games.rebuild import deck

    limits.TOKEN_PER_WINDOW = limits.ADDRESS_CEILING = limits.EXPORT_PAGES_PER_WINDOW = 10**9

    def _pages(client: Client, url: str) -> Iterator[bytes]:
        # Every page, following the Link headers (500 games a page).
        following: str | None = url
        while following is not None:
            response = client.get(following)
            yield from response.streaming_content  # type: ignore[attr-defined]
            link = response.get("Link")
            following = link.split(">")[0].lstrip("<") if link else None

    the_deck = deck()
    cards = list(the_deck.deal(random.Random(1)))
    state = rules.Game(["p"], cards, deck=the_deck)
    turns = []
    while (card := state.current_card) is not None:
        turn = rules.reference_turn(state.boards["p"], card, state.variants)
        state.play("p", turn)
        turns.append(rules.turn_to_json(turn))
    score = state.boards["p"].landscape.score().total
    print(f"each game: 16 rounds, score {score}")
    print("\n  games    lines   MB sent   seconds   MB held   MB peak   (tracemalloc)")
    for size in args.sizes:
        user, made = User.objects.get_or_create(username=f"ndjson-{size}")
        if made:
            now = timezone.now()
            for start in range(0, size, 2000):
                games = Game.objects.bulk_create(
                    Game(
                        mode=Game.Mode.SOLO,
                        status=Game.Status.FINISHED,
                        seed=1,
                        cards=cards,
                        round=17,
                        created_by=user,
                        finished_at=now,
                    )
                    for _ in range(start, min(size, start + 2000))
                )
                Seat.objects.bulk_create(
                    Seat(game=g, user=user, rounds_played=16, turns=turns, score=score, place=1)
                    for g in games
                )
        secret = token_create(user=user, name="bench").secret
        client = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
        url = "/api/v1/account/games.ndjson"
        start_time = time.perf_counter()
        lines = sent = 0
        for chunk in _pages(client, url):
            lines += chunk.count(b"\n")
            sent += len(chunk)
        seconds = time.perf_counter() - start_time
        tracemalloc.start()
        tracemalloc.reset_peak()
        held = 0.0  # the most memory held at any thousandth line
        for n, _chunk in enumerate(_pages(client, url), 1):
            if n % 1000 == 0:
                held = max(held, tracemalloc.get_traced_memory()[0])
        _now, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(
            f"{size:7,}  {lines:7,}  {sent / 1e6:8.1f}  {seconds:8.2f}  {held / 1e6:8.2f}"
            f"  {peak / 1e6:8.2f}"
        )


if __name__ == "__main__":
    main()
