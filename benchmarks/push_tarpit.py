"""A computer opponent's answer while push services that never answer hold the task workers.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        nice python benchmarks/push_tarpit.py [--rounds 3] [--patience 240]

Run by hand, on loopback only. In a throwaway database, a tarpit on 127.0.0.1 takes every
connection and never answers (it closes when the run ends). Two attackers subscribe their
devices to it and get one notification each; real task workers (``manage.py task_worker``,
subprocesses) take those pushes first. Then a player plays a live game against an easy
computer player, and each round the time from the player's commit to the computer's move
stored is measured (at most ``--patience`` seconds a round).

Two set-ups, one after the other:

- **before**: as the probe found it. Two workers serving every queue, 10 s per push
  service, no bound per notification, 20 devices an attacker (nothing capped them).
- **after**: as shipped. A worker serving every queue and one kept for the computers'
  queue (``--queue-name computers``), the push settings' defaults, and as many devices as
  an attacker may subscribe (``LIMES_PUSH_DEVICES_PER_PLAYER``; the rest are refused).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import in_throwaway_database  # noqa: E402

BEFORE = {
    "workers": [["--queue-name", "default,computers"], ["--queue-name", "default,computers"]],
    "env": {"LIMES_PUSH_TIMEOUT_SECONDS": "10", "LIMES_PUSH_TASK_SECONDS": "100000"},
    "devices": 20,
}
AFTER: dict[str, Any] = {"workers": [[], ["--queue-name", "computers"]], "env": {}, "devices": 0}


class Tarpit:
    """Takes every connection on 127.0.0.1 and never answers, until closed."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.held: list[socket.socket] = []
        threading.Thread(target=self._hold, daemon=True).start()

    def _hold(self) -> None:
        while True:
            try:
                held, _address = self.listener.accept()
            except OSError:
                return
            self.held.append(held)

    def close(self) -> None:
        self.listener.close()
        for held in self.held:
            held.close()


def _keys() -> tuple[str, str]:
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from accounts.vapid import b64url

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(public), b64url(os.urandom(16))


def run_setup(name: str, setup: dict[str, Any], rounds: int, patience: float, tag: str) -> None:
    from django.conf import settings
    from django.core.exceptions import ValidationError
    from django.db import connection
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    import rules
    from accounts.models import PushSubscription, User
    from accounts.services import push_subscription_save
    from floor import tasks
    from floor.models import TaskWorker
    from games import rebuild, services
    from games.models import Game, Move

    pit = Tarpit()
    devices = setup["devices"] or settings.LIMES_PUSH_DEVICES_PER_PLAYER + 5
    refused = 0
    attackers = []
    for number in range(2):
        attacker = User.objects.create_user(f"{tag}{name}attacker{number}", f"a{number}@x.org")
        attackers.append(attacker)
        for device in range(devices):
            p256dh, auth = _keys()
            endpoint = f"{pit.url}/{attacker.pk}/{device}"
            if name == "before":  # nothing capped them then
                PushSubscription.objects.create(
                    user=attacker, endpoint=endpoint, p256dh=p256dh, auth=auth
                )
                continue
            try:
                push_subscription_save(user=attacker, endpoint=endpoint, p256dh=p256dh, auth=auth)
            except ValidationError:
                refused += 1
        tasks.webpush_send.enqueue(attacker.pk, "Limes Online", "Your move", "/", "turn")
    subscribed = PushSubscription.objects.filter(user__in=attackers).count()

    db = connection.settings_dict
    url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "limes_site.settings.test",
        "DATABASE_URL": url,
        "LIMES_TEST_TASK_QUEUE": "database",
        **setup["env"],
    }
    processes = []
    for number, options in enumerate(setup["workers"]):
        command = [sys.executable, "manage.py", "task_worker", "--no-reload", "--interval", "0.25"]
        processes.append(
            subprocess.Popen(
                [*command, "--no-startup-delay", "--worker-id", f"{tag}{name}{number}", *options],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    try:
        started = time.monotonic()
        while TaskWorker.objects.filter(worker_id__startswith=f"{tag}{name}").count() < len(
            processes
        ) or DBTaskResult.objects.filter(
            task_path="floor.tasks.webpush_send", status=TaskResultStatus.RUNNING
        ).count() < min(2, len(processes) - (name == "after")):
            assert time.monotonic() - started < 120, "the workers did not start"
            time.sleep(0.1)

        human = User.objects.create_user(f"{tag}{name}player", f"p{name}@x.org")
        game = services.game_create_multi(
            user=human, seats_max=2, pace=Game.Pace.LIVE, bots=["easy"], seed=4242
        )
        game.refresh_from_db()
        bot_seat = game.seats.get(user__isnull=True)
        waits: list[float] = []
        for _ in range(rounds):
            # The computer's turn of this round first (it plays as the round opens).
            state = rebuild.rules_game(game)
            played = Move.objects.filter(seat=bot_seat).count()
            if played < state.round:
                waits.append(_wait_for(bot_seat, state.round, patience))
            game.refresh_from_db()
            state = rebuild.rules_game(game)
            card = state.current_card
            if card is None or (waits and waits[-1] >= patience):
                break
            turn = rules.reference_turn(state.boards[human.username], card, state.variants)
            services.move_submit(game_id=game.pk, user=human, round_number=state.round, turn=turn)
            game.refresh_from_db()
        pushes = DBTaskResult.objects.filter(task_path="floor.tasks.webpush_send")
        still = pushes.filter(status=TaskResultStatus.RUNNING).count()
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=70)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        pit.close()
        DBTaskResult.objects.all().delete()

    gave_up = sum(wait >= patience for wait in waits)
    print(f"## {name}")
    serving = ", ".join(" ".join(options) or "every queue" for options in setup["workers"])
    print(f"workers: {len(processes)} ({serving})")
    print(f"attackers' devices on the tarpit: {subscribed} ({refused} refused)")
    print(f"push tasks still held at the end: {still}; connections held: {len(pit.held)}")
    if waits:
        listed = ", ".join(f"{wait:.2f}" for wait in waits)
        print(
            f"computer's answer, {len(waits)} rounds: {listed} s "
            f"(median {statistics.median(waits):.2f} s, worst {max(waits):.2f} s)"
            + (f"; gave up at {patience:.0f} s: {gave_up}" if gave_up else "")
        )
    print()


def _wait_for(bot_seat: Any, round_number: int, patience: float) -> float:
    from games.models import Move

    start = time.monotonic()
    while not Move.objects.filter(seat=bot_seat, round=round_number).exists():
        if time.monotonic() - start >= patience:
            return patience
        time.sleep(0.02)
    return time.monotonic() - start


def run(rounds: int, patience: float, only: str) -> None:
    from django.test import override_settings

    override_settings(
        TASKS={
            "default": {
                "BACKEND": "django_tasks_db.DatabaseBackend",
                "QUEUES": ["default", "computers"],
            }
        }
    ).enable()
    tag = f"t{os.getpid()}"
    for name, setup in (("before", BEFORE), ("after", AFTER)):
        if only in ("both", name):
            run_setup(name, setup, rounds, patience, tag)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds timed (default 3)")
    parser.add_argument("--patience", type=float, default=240, help="seconds a round at most")
    parser.add_argument("--only", choices=("both", "before", "after"), default="both")
    args = parser.parse_args()
    in_throwaway_database(lambda: run(args.rounds, args.patience, args.only))


if __name__ == "__main__":
    main()
