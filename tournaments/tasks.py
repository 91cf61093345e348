"""Background tasks (django-tasks) of tournaments. Each is safe to run twice."""

from __future__ import annotations

from django_tasks import task


@task()
def tournaments_schedule() -> int:
    """The weekly tournaments of this week and the next (``services.weekly_tournaments_ensure``)."""
    from tournaments import services

    return len(services.weekly_tournaments_ensure())
