"""One player's flood of computer games against another player's computer reply.

    DATABASE_URL=postgres://…/limes_bench DJANGO_SETTINGS_MODULE=limes_site.settings.dev \
        nice -n 10 python benchmarks/queue_fairness.py [--flood 40] [--after-resign 15] [--no-cap]

On a migrated database (``manage.py migrate`` first), with one real task worker
(``task_worker`` where the code has it, else ``db_worker``) started by the script:

1. **alone**: a player opens a game against one strong computer; the time until the
   computer's first turn is committed (the computer's reply, as the player waits for it).
2. **flood**: another player opens up to ``--flood`` games with seven strong computers each,
   as fast as the services take them; then the first player opens a game against one strong
   computer, and the same time is measured, then the time until the queue is empty.
3. **after resigning**: the flooder resigns every game; the computers' turns committed in
   the ``--after-resign`` seconds that follow (computers playing on alone).

Prints one line per figure. Run it on the code before and after a change to compare.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _reply_seconds(game_id: int, started: float, limit: float) -> float | None:
    from games.models import Move

    while time.perf_counter() - started < limit:
        if Move.objects.filter(seat__game_id=game_id, seat__user__isnull=True).exists():
            return time.perf_counter() - started
        time.sleep(0.05)
    return None


def _queue_empty(started: float, limit: float) -> float | None:
    from django_tasks_db.models import DBTaskResult

    while time.perf_counter() - started < limit:
        if not DBTaskResult.objects.filter(status__in=("READY", "RUNNING")).exists():
            return time.perf_counter() - started
        time.sleep(0.2)
    return None


def _open_bot_game(user: object, levels: list[str]) -> int | None:
    from core.errors import ActionRefused
    from games import services
    from games.models import Game

    try:
        game = services.game_create_multi(
            user=user,  # type: ignore[arg-type]
            seats_max=len(levels) + 1,
            pace=Game.Pace.LIVE,
            bots=levels,
        )
    except ActionRefused:
        return None
    return game.pk


def run(flood: int, after_resign: float, limit: float, no_cap: bool) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django_tasks_db.models import DBTaskResult

    from accounts.models import User
    from games import services
    from games.models import Game, Move

    if no_cap:
        # The queue's order alone, without the cap on games with computers (floor.limits;
        # games.services before the floor had it).
        try:
            from floor import limits

            limits.MAX_COMPUTER_GAMES = flood + 1
        except ImportError:
            if hasattr(services, "MAX_BOT_GAMES"):
                services.MAX_BOT_GAMES = flood + 1
    DBTaskResult.objects.filter(status__in=("READY", "RUNNING")).delete()
    tag = uuid.uuid4().hex[:6]
    player = User.objects.create_user(f"q{tag}p", password="bench-pw-123")
    flooder = User.objects.create_user(f"q{tag}f", password="bench-pw-123")
    has_beats = (ROOT / "floor/management/commands/task_worker.py").exists()
    command = "task_worker" if has_beats else "db_worker"
    worker = subprocess.Popen(
        [sys.executable, "manage.py", command, "--no-reload", "--interval", "0.1"],
        cwd=settings.BASE_DIR,
        env=os.environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(3)  # the worker's start-up
        print(f"worker: {command}")
        started = time.perf_counter()
        alone = _open_bot_game(player, ["strong"])
        assert alone is not None
        print(f"alone: computer's reply after {_reply_seconds(alone, started, limit):.2f} s")
        services.seat_resign(game=Game.objects.get(pk=alone), user=player)

        started = time.perf_counter()
        opened = [g for g in (_open_bot_game(flooder, ["strong"] * 7) for _ in range(flood)) if g]
        print(
            f"flood: {len(opened)} of {flood} games with 7 strong computers accepted "
            f"in {time.perf_counter() - started:.2f} s"
        )
        started = time.perf_counter()
        mine = _open_bot_game(player, ["strong"])
        assert mine is not None
        reply = _reply_seconds(mine, started, limit)
        print(f"flood: the other player's computer reply after {reply:.2f} s" if reply else "none")
        empty = _queue_empty(started, limit)
        print(f"flood: queue empty after {empty:.2f} s" if empty else "flood: queue not empty")

        for game in Game.objects.filter(pk__in=opened):
            services.seat_resign(game=game, user=flooder)
        bot_moves = Move.objects.filter(seat__game_id__in=opened, seat__user__isnull=True)
        before = bot_moves.count()
        time.sleep(after_resign)
        still = Game.objects.filter(pk__in=opened, status=Game.Status.ACTIVE).count()
        print(
            f"after resigning: {bot_moves.count() - before} computers' turns in "
            f"{after_resign:.0f} s, {still} of {len(opened)} games still in play"
        )
    finally:
        worker.terminate()
        worker.wait(timeout=60)


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.dev")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flood", type=int, default=40)
    parser.add_argument("--after-resign", type=float, default=15.0)
    parser.add_argument("--limit", type=float, default=300.0, help="give up waiting after")
    parser.add_argument("--no-cap", action="store_true", help="lift the cap on bot games")
    arguments = parser.parse_args()
    run(arguments.flood, arguments.after_resign, arguments.limit, arguments.no_cap)
