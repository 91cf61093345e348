"""Task workers killed mid-task (kill -9): another takes their work up and does it once.

Real worker processes (``manage.py task_worker``) on the test database; the test holds the
rows a task needs so that it is caught inside its transaction when its worker is killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from accounts.models import PushSubscription, User
from accounts.vapid import b64url
from floor import taskqueue, tasks
from floor.models import TaskWorker
from games import computer
from games.models import Game, GameAnalysis, Move, SeatAnalysis
from tests.conftest import Tarpit
from tests.factories import DATABASE_QUEUE, UserFactory, play_turn, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LEASE_SECONDS = 1.0


class Workers:
    """Start worker processes on the test database; every one is stopped at the end."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.running: dict[str, subprocess.Popen[bytes]] = {}

    def start(
        self, worker_id: str, *more: str, env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        db = connection.settings_dict
        url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "limes_site.settings.test",
            "DATABASE_URL": url,
            "LIMES_TEST_TASK_QUEUE": "database",
            "LIMES_TASK_LEASE_SECONDS": str(LEASE_SECONDS),
            **(env or {}),
        }
        command = [sys.executable, "manage.py", "task_worker", "--no-reload"]
        options = ["--no-startup-delay", "--interval", "0.1", "--worker-id", worker_id, *more]
        with (self.logs / f"{worker_id}.log").open("wb") as log:
            process = subprocess.Popen(
                [*command, *options], cwd=settings.BASE_DIR, env=env, stdout=log, stderr=log
            )
        self.running[worker_id] = process
        return process

    def log(self, worker_id: str) -> str:
        return (self.logs / f"{worker_id}.log").read_text()


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    pool = Workers(tmp_path)
    yield pool
    for process in pool.running.values():
        if process.poll() is None:
            process.kill()
            process.wait()


def _until(condition: Callable[[], bool], what: str, workers: Workers) -> None:
    # A bound on a wait, not a timing assert: a slow machine only waits longer.
    for _ in range(1800):
        if condition():
            return
        time.sleep(0.1)
    logs = "\n".join(workers.log(worker_id) for worker_id in workers.running)
    pytest.fail(f"never happened: {what}\n{logs}")


def _running() -> int:
    return DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).count()


def _ready() -> int:
    return DBTaskResult.objects.filter(status=TaskResultStatus.READY).count()


@pytest.fixture
def bots_waiting() -> Game:
    """A game against a strong computer at its last round: the person has played it, and
    the computer's turn waits in the queue."""
    human: User = UserFactory()
    game = started_game([human], seats_max=2, bots=["strong"])
    for _ in range(14):
        game = play_turn(game, human)
    with override_settings(TASKS=DATABASE_QUEUE):
        game = play_turn(game, human)
        game = play_turn(game, human)
    # The workers run on the real clock, months past the tests' pinned one.
    Game.objects.filter(pk=game.pk).update(deadline=None)
    return game


@pytest.fixture
def analysis_waiting(play_rounds: Callable[[Game, int], Game]) -> Game:
    """A finished solo game whose analysis waits in the queue."""
    from games import services

    game = services.game_create_solo(user=UserFactory(), seed=11)
    with override_settings(TASKS=DATABASE_QUEUE):
        return play_rounds(game, 16)


def test_work_of_killed_workers_is_done_by_another_exactly_once(
    workers: Workers, bots_waiting: Game, analysis_waiting: Game
) -> None:
    bot_seat = bots_waiting.seats.get(user__isnull=True)
    assert Move.objects.filter(seat=bot_seat).count() == 15
    assert GameAnalysis.objects.get(game=analysis_waiting).status == GameAnalysis.Status.PENDING
    assert _ready() == 2

    with transaction.atomic():
        # Held: the computer's move waits for its game, the analysis for its row.
        Game.objects.select_for_update().get(pk=bots_waiting.pk)
        GameAnalysis.objects.select_for_update().get(game=analysis_waiting)
        first = workers.start("w1")
        _until(lambda: _running() == 1, "w1 claims a task", workers)
        second = workers.start("w2")
        _until(lambda: _running() == 2, "w2 claims the other", workers)
        first.send_signal(signal.SIGKILL)
        second.send_signal(signal.SIGKILL)
        first.wait()
        second.wait()
    # Killed, they left both tasks "running", and nothing of their work.
    assert _running() == 2
    assert Move.objects.filter(seat=bot_seat).count() == 15

    third = workers.start("w3")
    _until(
        lambda: GameAnalysis.objects.filter(status=GameAnalysis.Status.DONE).count() == 2,
        "both games analysed",
        workers,
    )
    # The queue is done when nothing waits or runs: the analyses queue the puzzles' work.
    _until(lambda: _running() == 0 and _ready() == 0, "the queue is done", workers)
    third.send_signal(signal.SIGTERM)
    third.wait()

    # The computer played its last round once, which finished the game.
    bots_waiting.refresh_from_db()
    assert bots_waiting.status == Game.Status.FINISHED
    assert Move.objects.filter(seat=bot_seat).count() == 16
    assert Move.objects.filter(seat=bot_seat, round=16).count() == 1
    # Each game analysed once: one analysis of its one person.
    for game in (bots_waiting, analysis_waiting):
        assert SeatAnalysis.objects.filter(analysis__game=game).count() == 1
    results = {
        (r.task_path.rsplit(".", 1)[1], r.args_kwargs["args"][0]): r
        for r in DBTaskResult.objects.all()
    }
    assert len(results) == DBTaskResult.objects.count()
    assert {r.status for r in results.values()} == {TaskResultStatus.SUCCESSFUL}
    # Each finished analysis queued its game's puzzles once, done by the worker alive.
    made = {key: r for key, r in results.items() if key[0] == "puzzles_make"}
    assert sorted(made) == sorted(
        ("puzzles_make", game.pk) for game in (bots_waiting, analysis_waiting)
    )
    assert {tuple(r.worker_ids) for r in made.values()} == {("w3",)}
    assert len(results) - len(made) == 3
    assert results["bots_play_task", bots_waiting.pk].return_value == 1
    assert results["bots_play_task", bots_waiting.pk].worker_ids == ["w1", "w3"]
    assert results["game_analyse_task", analysis_waiting.pk].worker_ids == ["w2", "w3"]
    assert results["game_analyse_task", bots_waiting.pk].worker_ids == ["w3"]
    # The one that stopped on its own signed off; the killed ones beat no more.
    assert set(TaskWorker.objects.values_list("worker_id", flat=True)) == {"w1", "w2"}


def test_a_computers_turn_is_played_while_push_holds_every_other_worker(
    workers: Workers, tarpit: Tarpit
) -> None:
    """A player's devices on a push service that never answers hold the worker that pushes
    (here as long as the test wants): another player's computer opponent still answers,
    from the worker kept for the computers' queue."""
    mallory, human = UserFactory(), UserFactory()
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    PushSubscription.objects.create(
        user=mallory,
        endpoint=f"{tarpit.url}/x",
        p256dh=b64url(key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)),
        auth=b64url(os.urandom(16)),
    )
    with override_settings(TASKS=DATABASE_QUEUE):
        push = tasks.webpush_send.enqueue(mallory.pk, "Limes Online", "Your move", "/", "turn")
    held = {"LIMES_PUSH_TIMEOUT_SECONDS": "600", "LIMES_PUSH_TASK_SECONDS": "600"}
    workers.start("everything", env=held)
    _until(tarpit.arrived.is_set, "the push reaches the tarpit", workers)

    game = started_game([human], seats_max=2, bots=["easy"])
    for _ in range(14):
        game = play_turn(game, human)
    bot_seat = game.seats.get(user__isnull=True)
    assert Move.objects.filter(seat=bot_seat).count() == 15
    with override_settings(TASKS=DATABASE_QUEUE):
        game = play_turn(game, human)
    Game.objects.filter(pk=game.pk).update(deadline=None)  # the worker's clock is real
    workers.start("computers", "--queue-name", taskqueue.COMPUTERS, env=held)
    _until(
        lambda: Move.objects.filter(seat=bot_seat).count() == 16,
        "the computer plays its turn",
        workers,
    )
    assert DBTaskResult.objects.get(pk=push.id).status == TaskResultStatus.RUNNING


@pytest.mark.django_db
def test_a_task_that_took_three_workers_down_fails_instead_of_a_fourth() -> None:
    with override_settings(TASKS=DATABASE_QUEUE):
        result = computer.game_analyse_task.enqueue(123)
    long_ago = timezone.now() - taskqueue.lease() * 2
    DBTaskResult.objects.filter(pk=result.id).update(
        status=TaskResultStatus.RUNNING, started_at=long_ago, worker_ids=["a", "b", "c"]
    )
    TaskWorker.objects.create(worker_id="c", beat_at=long_ago)
    assert taskqueue.tasks_reclaim() == 1
    assert DBTaskResult.objects.get(pk=result.id).status == TaskResultStatus.FAILED


def test_a_beating_worker_keeps_its_task() -> None:
    with override_settings(TASKS=DATABASE_QUEUE):
        result = computer.game_analyse_task.enqueue(123)
    long_ago = timezone.now() - taskqueue.lease() * 2
    DBTaskResult.objects.filter(pk=result.id).update(
        status=TaskResultStatus.RUNNING, started_at=long_ago, worker_ids=["a"]
    )
    taskqueue.worker_beat(worker_id="a")
    assert taskqueue.tasks_reclaim() == 0
    assert DBTaskResult.objects.get(pk=result.id).status == TaskResultStatus.RUNNING


def _drop_connections() -> int:
    # What a PostgreSQL restart, a failover or an idle kill does to every other connection.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def test_a_task_that_lost_its_connection_runs_again_and_the_worker_goes_on(
    workers: Workers, bots_waiting: Game
) -> None:
    bot_seat = bots_waiting.seats.get(user__isnull=True)
    task = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    with transaction.atomic():
        # Held: the computer's move waits for its game, inside its task's transaction.
        Game.objects.select_for_update().get(pk=bots_waiting.pk)
        worker = workers.start("w1")
        _until(lambda: _running() == 1, "w1 claims the task", workers)
        assert _drop_connections() >= 1
        _until(
            lambda: DBTaskResult.objects.filter(pk=task.pk, worker_ids=["w1", "w1"]).exists(),
            "the task is queued again and claimed again",
            workers,
        )
    _until(lambda: _running() == 0 and _ready() == 0, "the queue is done", workers)
    bots_waiting.refresh_from_db()
    assert bots_waiting.status == Game.Status.FINISHED
    assert Move.objects.filter(seat=bot_seat, round=16).count() == 1
    task.refresh_from_db()
    assert task.status == TaskResultStatus.SUCCESSFUL
    assert DBTaskResult.objects.filter(status=TaskResultStatus.FAILED).count() == 0

    # Dropped again while it waits for work: it reconnects and takes the next task.
    assert _drop_connections() >= 1
    with override_settings(TASKS=DATABASE_QUEUE):
        again = computer.game_analyse_task.enqueue(bots_waiting.pk)
    _until(
        lambda: DBTaskResult.objects.filter(
            pk=again.id, status=TaskResultStatus.SUCCESSFUL
        ).exists(),
        "the worker runs a task queued after the drop",
        workers,
    )
    assert worker.poll() is None
    assert "queued again" in workers.log("w1")


@pytest.mark.django_db
def test_a_task_that_loses_its_connection_every_time_fails_in_the_end() -> None:
    with override_settings(TASKS=DATABASE_QUEUE):
        result = computer.game_analyse_task.enqueue(123)
    DBTaskResult.objects.filter(pk=result.id).update(status=TaskResultStatus.RUNNING)
    claimed = ["w"] * taskqueue.MAX_RUNS
    DBTaskResult.objects.filter(pk=result.id).update(worker_ids=claimed[:1])
    assert taskqueue.task_requeue(task_id=result.id, claimed=["w"])
    assert DBTaskResult.objects.get(pk=result.id).status == TaskResultStatus.READY
    # Taken back by another worker meanwhile: the one that lost it leaves it alone.
    DBTaskResult.objects.filter(pk=result.id).update(
        status=TaskResultStatus.RUNNING, worker_ids=["w", "other"]
    )
    assert not taskqueue.task_requeue(task_id=result.id, claimed=["w"])
    assert DBTaskResult.objects.get(pk=result.id).status == TaskResultStatus.RUNNING
    DBTaskResult.objects.filter(pk=result.id).update(worker_ids=claimed)
    assert not taskqueue.task_requeue(task_id=result.id, claimed=claimed)
    assert DBTaskResult.objects.get(pk=result.id).status == TaskResultStatus.FAILED
