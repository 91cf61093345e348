"""The games' background tasks (django-tasks) that run a service: live tables' clock and
data exports. The computer's own (its players' turns, analyses, the par) are beside their
work in ``games.computer``; mail and push are the floor's (``floor.tasks``).

The task worker runs them (``manage.py task_worker``, ``floor.taskqueue``); the tests run
them at once. Each is safe to run twice.
"""

from __future__ import annotations

from django_tasks import task


@task()
def lockstep_tick(lockstep_id: int) -> bool:
    """A live table's round clock ran out: move it on (``services.lockstep_advance``)."""
    # Imported here: the services enqueue these tasks, so they import this module.
    from games import services

    return services.lockstep_advance(lockstep_id=lockstep_id)


@task()
def data_export_build(export_id: int) -> str:
    """A player's "Download my data" zip (``services.data_export_build``)."""
    from games import services

    return services.data_export_build(export_id=export_id)
