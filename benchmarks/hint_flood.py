"""One player asking for hints as fast as one connection can: what it costs the server.

    DATABASE_URL=postgres://…/limes_bench DJANGO_SETTINGS_MODULE=limes_site.settings.dev \
        nice -n 10 python benchmarks/hint_flood.py [--seconds 10]

On a migrated database: a new player, a solo game, then ``POST /games/<pk>/hint/`` (htmx)
back to back for ``--seconds`` through Django's test client, in this process. Prints the
requests sent, how many were answered with a hint (200) or refused (429), and the CPU
seconds this process spent per second: the share of a core one such player takes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def run(seconds: float) -> None:
    import django

    django.setup()
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from accounts.models import User
    from games import services

    player = User.objects.create_user(f"h{uuid.uuid4().hex[:8]}", password="bench-pw-123")
    game = services.game_create_solo(user=player)
    client = Client(HTTP_HOST="localhost")
    client.force_login(player)
    cache.clear()
    url = reverse("games:hint", kwargs={"pk": game.pk})
    statuses: Counter[int] = Counter()
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start_wall < seconds:
        statuses[client.post(url, headers={"HX-Request": "true"}).status_code] += 1
    wall = time.perf_counter() - start_wall
    cpu = time.process_time() - start_cpu
    sent = sum(statuses.values())
    others = sent - statuses[200] - statuses[429]
    print(
        f"{sent} hint requests in {wall:.1f} s ({sent / wall:.1f}/s): "
        f"{statuses[200]} hints, {statuses[429]} refused (429), {others} other"
    )
    print(f"server CPU: {cpu / wall:.2f} s per second ({cpu * 1e3 / sent:.1f} ms a request)")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.dev")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    run(parser.parse_args().seconds)
