"""Web push: a commit's time with 50 subscribed devices waiting against none, and the task
worker's time per notification at a stand-in push service.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        python benchmarks/push_fanout.py [--games 12] [--devices 50]

Run by hand. In a throwaway database (PostgreSQL if ``DATABASE_URL`` names it, else a
temporary SQLite file), tasks queued in the database as in production (nothing runs them
during the commits). Two-player correspondence games are played with the reference
player; in each round the second commit (the one that starts the next round and notifies
both players) is timed through ``games.services.move_submit``, after-commit work
included. Half the games have ``--devices`` subscribed devices on the waiting player,
half none, interleaved so that both see the same machine.

Then the queued pushes are delivered by hand as the worker would (``floor.webpush``),
each to every device of its player, at a stand-in push service on 127.0.0.1 (an HTTP
server in this process answering 201): the worker's time per notification and per
device (encryption, VAPID signature, HTTP round trip).
"""

from __future__ import annotations

import argparse
import http.server
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import clocks, in_throwaway_database, ms  # noqa: E402


class _Accept(http.server.BaseHTTPRequestHandler):
    received = 0

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        _Accept.received += 1
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _keys() -> tuple[str, str]:
    import os

    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from accounts.vapid import b64url

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(public), b64url(os.urandom(16))


def run(games: int, devices: int) -> None:
    from django.db import connection
    from django.test import override_settings
    from django_tasks_db.models import DBTaskResult

    import rules
    from accounts.models import PushSubscription, User
    from floor import webpush
    from games import rebuild, services
    from games.models import Game

    override_settings(
        TASKS={
            "default": {
                "BACKEND": "django_tasks_db.DatabaseBackend",
                "QUEUES": ["default", "computers"],
            }
        }
    ).enable()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Accept)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    p256dh, auth = _keys()

    def commit(game: Game, user: User) -> None:
        state = rebuild.rules_game(game)
        card = state.current_card
        assert card is not None
        turn = rules.reference_turn(state.boards[user.username], card, state.variants)
        services.move_submit(game_id=game.pk, user=user, round_number=state.round, turn=turn)

    times: dict[int, list[float]] = {0: [], devices: []}
    before = clocks(str(connection.settings_dict["NAME"]))
    for number in range(games):
        waiting_devices = devices if number % 2 else 0
        mover = User.objects.create_user(f"mover{number}", f"m{number}@example.org")
        waiting = User.objects.create_user(f"waiting{number}", f"w{number}@example.org")
        PushSubscription.objects.bulk_create(
            PushSubscription(
                user=waiting, endpoint=f"{base}/{number}/{n}", p256dh=p256dh, auth=auth
            )
            for n in range(waiting_devices)
        )
        game = services.game_create_multi(
            user=mover, seats_max=2, pace=Game.Pace.CORRESPONDENCE, seed=5000 + number
        )
        services.game_join(game=game, user=waiting)
        game.refresh_from_db()
        if game.is_open:
            services.game_start(game=game, user=mover)
            game.refresh_from_db()
        while not game.is_finished:
            commit(game, waiting)
            game.refresh_from_db()
            if game.is_finished:
                break
            start = time.perf_counter()
            commit(game, mover)
            times[waiting_devices].append(time.perf_counter() - start)
            game.refresh_from_db()
    after = clocks(str(connection.settings_dict["NAME"]))
    wall, own, db, machine = (b - a for a, b in zip(before, after, strict=True))

    queued = list(
        DBTaskResult.objects.filter(task_path="floor.tasks.webpush_send").order_by("enqueued_at")
    )
    per_notification: list[float] = []
    sent_devices = 0
    for row in queued:
        kwargs = dict(
            zip(("user_id", "title", "body", "url", "tag"), row.args_kwargs["args"], strict=True)
        )
        start = time.perf_counter()
        outcome = webpush.push_deliver(**kwargs)
        per_notification.append(time.perf_counter() - start)
        sent_devices += int(outcome.split()[1].rstrip(","))
    server.shutdown()

    rounds = len(times[0])
    print(f"{games} correspondence games, {rounds} + {len(times[devices])} timed commits")
    print()
    print("| the commit that starts a round       | ms median / p95 |")
    print("|--------------------------------------|-----------------|")
    print(f"| waiting player with no device        | {ms(times[0])} |")
    print(f"| waiting player with {devices:>3} devices      | {ms(times[devices])} |")
    print()
    print(f"{len(queued)} pushes queued by those commits, {sent_devices} deliveries accepted")
    if per_notification:
        each = statistics.median(per_notification) / devices * 1e3
        print(f"worker, per notification to {devices} devices: {ms(per_notification)} ms")
        print(f"worker, per device (median / {devices}): {each:.2f} ms")
    print(
        f"CPU while committing: this process {own:.1f} s, database {db:.1f} s, anything "
        f"else {machine - own - db:.1f} s; {wall:.1f} s wall."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games played (default 12)")
    parser.add_argument("--devices", type=int, default=50, help="devices of a waiting player")
    args = parser.parse_args()
    in_throwaway_database(lambda: run(args.games, args.devices))


if __name__ == "__main__":
    main()
