"""The task queue's safety and fairness, around django-tasks' database backend.

- **No stuck work.** django-tasks-db marks a claimed task "running" and nothing looks at it
  again: a worker killed mid-task (kill -9, out of memory, a lost machine) would leave it so
  for ever. Each worker started by ``manage.py task_worker`` writes a beat (``TaskWorker``)
  every few seconds, and puts back in the queue the running tasks whose worker's beat is
  older than the lease. A task's writes are one transaction that dies with its worker, and
  every task is safe to run twice (it finds its work done), so the work is done once.
- **Work a person waits for never waits behind the rest.** Two queues: what a person at a
  table waits for (computers' turns, live tables' clock) on ``COMPUTERS``, served by
  workers of its own (``task_worker --queue-name computers``), so that no mail, push,
  export or analysis, however slow its outside service, holds it up; everything else on
  ``DEFAULT``. A worker started without ``--queue-name`` serves both.
- **No work lost to a database outage.** A task whose connection PostgreSQL dropped (a
  restart, a failover, an idle kill) did not fail: its worker puts it back in the queue
  (``task_requeue``) once the database answers, and goes on.
- **Fair order.** A person waiting for the computers' turn comes before any analysis, and
  one player's flood of games waits behind everyone else's: each new task of a player's
  games is queued one priority step below the same task of their games already waiting
  (``fair_priority`` over ``opened_by_the_same``; the games choose the priorities:
  ``games.computer``, ``wintergames.computer``). Each game counts its own tasks: one
  person's Limes and Winter computers are each held to their cap (``floor.limits``).

Written against django-tasks-db 0.13 (``TASKS_DB_WRITTEN_FOR``), whose private parts the
worker builds on (``manage.py task_worker`` swaps ``db_worker.Worker`` for its own, runs its
loop again after an outage and wraps a task result's ``set_failed``), as this module builds
on ``DBTaskResult``'s fields. On any other version the system check ``limes.E002`` stops
``manage.py`` (the worker among it) until someone has read both against it, run
``tests/games/test_task_worker.py`` and added it.
"""

from __future__ import annotations

import datetime
import logging
import uuid
from typing import Any

import django_tasks_db
from django.conf import settings
from django.core.checks import CheckMessage, Tags, register
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django_tasks.base import DEFAULT_TASK_QUEUE_NAME, TaskResultStatus
from django_tasks_db.models import DBTaskResult

from core.fences import version_fence
from floor.models import TaskWorker

logger = logging.getLogger(__name__)

#: The queue of mail, push, exports, analyses and the par: nobody sits waiting for them.
DEFAULT = DEFAULT_TASK_QUEUE_NAME
#: The queue of the work a person at a table waits for.
COMPUTERS = "computers"
#: Every queue (the ``QUEUES`` of ``settings.TASKS``).
QUEUES = (DEFAULT, COMPUTERS)

#: The django-tasks-db versions (major, minor) whose worker internals were read for this.
TASKS_DB_WRITTEN_FOR = frozenset({(0, 13)})

# Runs of a task whose workers all died with it: past this, it is a task that kills its
# worker (memory, a crash), and it fails instead of taking the next worker down too.
MAX_ATTEMPTS = 3
# Runs of a task that lost its database connection each time: past this, it fails.
MAX_RUNS = 10
# The lowest a player's backlog pushes their tasks (django-tasks allows -100 to 100).
LOWEST_STEP = 40


def tasks_db_version() -> tuple[int, int]:
    """The installed django-tasks-db's (major, minor)."""
    major, minor, *_rest = django_tasks_db.__version__.split(".")
    return int(major), int(minor)


@register(Tags.compatibility)
def check_tasks_db_version(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """An error on a django-tasks-db whose worker the task worker was not written for."""
    return version_fence(
        what="manage.py task_worker patches django-tasks-db's worker",
        library="django-tasks-db",
        installed=tasks_db_version(),
        shown=django_tasks_db.__version__,
        written_for=TASKS_DB_WRITTEN_FOR,
        hint="Read floor/management/commands/task_worker.py and floor/taskqueue.py "
        "against this version, run tests/games/test_task_worker.py, then add it to "
        "floor.taskqueue.TASKS_DB_WRITTEN_FOR; or pin django-tasks-db as "
        "requirements.txt says.",
        id="limes.E002",
    )


def lease() -> datetime.timedelta:
    """How long a worker may go without a beat before its running tasks are taken back."""
    return datetime.timedelta(seconds=settings.LIMES_TASK_LEASE_SECONDS)


def beat_seconds() -> float:
    """How often a worker beats: several beats to a lease, so one late beat is no death."""
    return float(settings.LIMES_TASK_LEASE_SECONDS) / 4


def worker_beat(*, worker_id: str) -> None:
    """Record that ``worker_id`` is alive now."""
    TaskWorker.objects.update_or_create(worker_id=worker_id, defaults={"beat_at": timezone.now()})


def worker_gone(*, worker_id: str) -> None:
    """Forget a worker that stopped on its own (its tasks are finished)."""
    TaskWorker.objects.filter(worker_id=worker_id).delete()


@transaction.atomic
def tasks_reclaim(*, now: datetime.datetime | None = None) -> int:
    """Put back in the queue the running tasks of workers that stopped beating.

    A task claimed less than a lease ago is left alone (its worker may not have beaten
    yet), as is one whose worker beats. One that has already taken ``MAX_ATTEMPTS``
    workers down with it is marked failed. Returns how many tasks were taken back or failed.
    """
    now = now or timezone.now()
    cutoff = now - lease()
    alive = set(TaskWorker.objects.filter(beat_at__gte=cutoff).values_list("worker_id", flat=True))
    stale = DBTaskResult.objects.filter(
        Q(started_at__lt=cutoff) | Q(started_at__isnull=True),
        status=TaskResultStatus.RUNNING,
    )
    # Another worker reaping at the same moment skips the rows this one holds.
    orphans = [
        result
        for result in stale.select_for_update(skip_locked=True)
        if not result.worker_ids or result.worker_ids[-1] not in alive
    ]
    for result in orphans:
        if len(result.worker_ids) >= MAX_ATTEMPTS:
            result.status = TaskResultStatus.FAILED
            result.finished_at = now
            result.exception_class_path = "floor.taskqueue.WorkerLost"
            result.traceback = f"Its worker stopped beating {len(result.worker_ids)} times."
            result.save(
                update_fields=["status", "finished_at", "exception_class_path", "traceback"]
            )
            logger.error("task %s failed: %s", result.pk, result.traceback)
        else:
            result.status = TaskResultStatus.READY
            result.started_at = None
            result.save(update_fields=["status", "started_at"])
            logger.warning("task %s taken back from worker %s", result.pk, result.worker_ids[-1:])
    return len(orphans)


@transaction.atomic
def task_requeue(*, task_id: uuid.UUID | str, claimed: list[str]) -> bool:
    """Queue again a running task whose run lost its database connection.

    ``claimed`` is its ``worker_ids`` as its worker claimed it: if they changed (its worker
    was taken for dead and another took the task back meanwhile), it is left alone.
    Returns whether it was queued again; one that has run ``MAX_RUNS`` times fails instead.
    """
    result = (
        DBTaskResult.objects.select_for_update()
        .filter(pk=task_id, status=TaskResultStatus.RUNNING)
        .first()
    )
    if result is None or result.worker_ids != claimed:
        return False
    if len(result.worker_ids) >= MAX_RUNS:
        result.status = TaskResultStatus.FAILED
        result.finished_at = timezone.now()
        result.exception_class_path = "floor.taskqueue.ConnectionLost"
        result.traceback = f"It lost its database connection {len(result.worker_ids)} times."
        result.save(update_fields=["status", "finished_at", "exception_class_path", "traceback"])
        logger.error("task %s failed: %s", result.pk, result.traceback)
        return False
    result.status = TaskResultStatus.READY
    result.started_at = None
    result.save(update_fields=["status", "started_at"])
    return True


def opened_by_the_same(running: QuerySet[Any], game_id: int) -> list[int]:
    """``game_id`` and the games of ``running`` (one game's rows: its ``created_by``) that
    the same person opened: whose queued tasks a new task of this game waits behind."""
    creator = (
        running.model.objects.filter(pk=game_id).values_list("created_by_id", flat=True).first()
    )
    if creator is None:
        return [game_id]
    return [game_id, *running.filter(created_by_id=creator).values_list("pk", flat=True)]


def fair_priority(task_path: str, base: int, ids: list[int]) -> int:
    """``base``, one step down for each queued ``task_path`` of these ids (its first
    argument) already waiting: a player with forty games queued gets their forty-first
    after everyone else's first."""
    waiting = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY,
        task_path=task_path,
        args_kwargs__args__0__in=ids,
    ).count()
    return base - min(waiting, LOWEST_STEP)
