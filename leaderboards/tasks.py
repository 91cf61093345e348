"""Background tasks (django-tasks) of the boards: the daily challenge's par."""

from __future__ import annotations

import datetime

from django_tasks import task


@task()
def daily_par(day: str, ruleset: str) -> int | None:
    """Compute the par of ``day`` (ISO date) in ``ruleset``; returns the bot's score."""
    # Imported here: the services enqueue this task, so they import this module.
    from leaderboards import services

    par = services.daily_par_compute(day=datetime.date.fromisoformat(day), ruleset=ruleset)
    return par.bot_score
