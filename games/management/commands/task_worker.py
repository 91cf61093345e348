"""``manage.py task_worker``: django-tasks-db's ``db_worker`` that beats and takes back the
work of dead workers (``games.taskqueue``). Takes the same options."""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.db import close_old_connections, connection
from django_tasks_db.management.commands import db_worker

from games import taskqueue

logger = logging.getLogger(__name__)


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
            super().run()
        finally:
            self._stopped.set()
            beating.join(timeout=taskqueue.beat_seconds() * 2)
            taskqueue.worker_gone(worker_id=self.worker_id)

    def _beat(self) -> None:
        # Its own thread, so a long task (an analysis) does not stop the beats; and so its
        # own database connection, closed when the thread ends.
        try:
            while not self._stopped.is_set():
                try:
                    close_old_connections()
                    taskqueue.worker_beat(worker_id=self.worker_id)
                    taskqueue.tasks_reclaim()
                except Exception:
                    logger.exception("task worker %s: beat failed", self.worker_id)
                self._stopped.wait(taskqueue.beat_seconds())
        finally:
            connection.close()


class Command(db_worker.Command):
    help = "Run a background task worker that beats and takes back dead workers' tasks"

    def handle(self, **options: Any) -> None:
        # db_worker builds its Worker by name from its module: swap in this one.
        original = db_worker.Worker
        db_worker.Worker = BeatingWorker  # type: ignore[misc]
        try:
            super().handle(**options)
        finally:
            db_worker.Worker = original  # type: ignore[misc]
