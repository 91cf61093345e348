"""``manage.py task_worker``: django-tasks-db's ``db_worker`` that beats, takes back the
work of dead workers (``floor.taskqueue``) and lives through a lost database connection.
Takes the same options; without ``--queue-name`` it serves every queue
(``floor.taskqueue.QUEUES``), with ``--queue-name computers`` only the work a person at a
table waits for.

It builds on db_worker's private parts (its ``Worker``, that class's loop and a task
result's ``set_failed``): it starts only on a django-tasks-db it was read against
(``floor.taskqueue.TASKS_DB_WRITTEN_FOR``, the check ``limes.E002``)."""

from __future__ import annotations

import logging
import threading
import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError
from django.db import DatabaseError, close_old_connections, connection
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from core.faults import is_connection_lost
from floor import taskqueue

logger = logging.getLogger(__name__)

# How long the worker waits for the database after losing it, doubling up to the longest.
RECONNECT_SECONDS = 0.5
RECONNECT_MAX_SECONDS = 5.0


class BeatingWorker(db_worker.Worker):
    """A worker that, beside its tasks, beats and reclaims the tasks of dead workers."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._stopped = threading.Event()

    def run(self) -> None:
        # The first beat before the first claim: no task of this worker looks orphaned.
        taskqueue.worker_beat(worker_id=self.worker_id)
        beating = threading.Thread(target=self._beat, name="task-worker-beat", daemon=True)
        beating.start()
        try:
            self._run_through_outages()
        finally:
            self._stopped.set()
            beating.join(timeout=taskqueue.beat_seconds() * 2)
            try:
                taskqueue.worker_gone(worker_id=self.worker_id)
            except DatabaseError:
                # Its beat goes stale instead, and nothing of it runs: the same in a lease.
                logger.warning("task worker %s: could not sign off", self.worker_id)

    def _run_through_outages(self) -> None:
        # db_worker's loop ends with the first error of its own queries (claiming a task):
        # a PostgreSQL restart would end every worker. Wait for the database and go on.
        pause = RECONNECT_SECONDS
        while self.running:
            try:
                super().run()
                return
            except DatabaseError as error:
                if not is_connection_lost(error):
                    raise
                logger.warning("task worker %s: lost the database, waiting", self.worker_id)
            connection.close()
            time.sleep(pause)
            pause = min(pause * 2, RECONNECT_MAX_SECONDS)

    def run_task(self, db_task_result: DBTaskResult[Any, Any]) -> None:
        claimed = list(db_task_result.worker_ids)
        lost = _LostConnection.watch(db_task_result)
        try:
            super().run_task(db_task_result)
        except DatabaseError as error:
            # Recording the task's end failed too: the database is still away.
            if not is_connection_lost(error):
                raise
            lost.error = lost.error or error
        if lost.error is not None:
            self._requeue(db_task_result, claimed)

    def _requeue(self, db_task_result: DBTaskResult[Any, Any], claimed: list[str]) -> None:
        # The task lost its connection: its transaction died uncommitted (or committed and
        # the task finds its work done when it runs again). Back in the queue, once the
        # database answers; a worker stopped before that leaves it to the lease.
        pause = RECONNECT_SECONDS
        while True:
            try:
                connection.close()
                if taskqueue.task_requeue(task_id=db_task_result.pk, claimed=claimed):
                    logger.warning(
                        "task %s lost its database connection: queued again", db_task_result.pk
                    )
                return
            except DatabaseError as error:
                if not is_connection_lost(error) or not self.running:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, RECONNECT_MAX_SECONDS)

    def _beat(self) -> None:
        # Its own thread, so a long task (an analysis) does not stop the beats; and so its
        # own database connection, closed when the thread ends.
        try:
            while not self._stopped.is_set():
                try:
                    close_old_connections()
                    taskqueue.worker_beat(worker_id=self.worker_id)
                    taskqueue.tasks_reclaim()
                except Exception as error:
                    if is_connection_lost(error):
                        logger.warning("task worker %s: beat missed, no database", self.worker_id)
                        connection.close()
                    else:
                        logger.exception("task worker %s: beat failed", self.worker_id)
                self._stopped.wait(taskqueue.beat_seconds())
        finally:
            connection.close()


class _LostConnection:
    """Keeps db_worker from marking failed a task that only lost its connection."""

    def __init__(self, record_failure: Any) -> None:
        self.record_failure = record_failure
        self.error: BaseException | None = None

    @classmethod
    def watch(cls, db_task_result: DBTaskResult[Any, Any]) -> _LostConnection:
        watcher = cls(db_task_result.set_failed)
        # db_worker records any error of the task with set_failed: this one is not the
        # task's fault, and it runs again instead.
        db_task_result.set_failed = watcher.set_failed
        return watcher

    def set_failed(self, error: BaseException) -> None:
        if is_connection_lost(error):
            self.error = error
            return
        self.record_failure(error)


class Command(db_worker.Command):
    help = "Run a background task worker that beats and takes back dead workers' tasks"

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        # Every queue unless told: a worker started as before leaves no computer waiting.
        parser.set_defaults(queue_name=",".join(taskqueue.QUEUES))

    def handle(self, **options: Any) -> None:
        # Never on a version the swap below was not read against, even with --skip-checks.
        for error in taskqueue.check_tasks_db_version():
            raise CommandError(f"{error.msg} {error.hint}")
        # db_worker builds its Worker by name from its module: swap in this one.
        original = db_worker.Worker
        db_worker.Worker = BeatingWorker  # type: ignore[misc]
        try:
            super().handle(**options)
        finally:
            db_worker.Worker = original  # type: ignore[misc]
