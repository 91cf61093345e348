"""Background tasks (django-tasks): computer players' turns, analyses, the daily par, live
tables' clock, data exports, mail.

Workers run them: ``manage.py task_worker`` (``games/management/commands/task_worker.py``,
django-tasks-db's ``db_worker`` with heartbeats), started by ``scripts/serve`` and
``scripts/cluster``, ``deploy/systemd/limes-worker.service`` and ``limes-computers.service``
in production. The tests run them at once. Each is safe to run twice.

Two queues: what a person at a table waits for (computers' turns, live tables' clock) on
``COMPUTERS``, served by workers of its own (``task_worker --queue-name computers``), so
that no mail, push, export or analysis, however slow its outside service, holds it up;
everything else on ``DEFAULT``. A worker started without ``--queue-name`` serves both.
"""

from __future__ import annotations

import datetime

from django_tasks import task
from django_tasks.base import DEFAULT_TASK_QUEUE_NAME

#: The queue of mail, push, exports, analyses and the par: nobody sits waiting for them.
DEFAULT = DEFAULT_TASK_QUEUE_NAME
#: The queue of the work a person at a table waits for.
COMPUTERS = "computers"
#: Every queue (the ``QUEUES`` of ``settings.TASKS``).
QUEUES = (DEFAULT, COMPUTERS)


@task(queue_name=COMPUTERS)
def bots_play(game_id: int, round_number: int) -> int:
    """The computer players' turns of one round (``computer.bots_play``)."""
    # Imported here: the services enqueue these tasks, so they import this module.
    from games import computer

    return computer.bots_play(game_id=game_id, round_number=round_number)


@task()
def game_analyse(game_id: int) -> str:
    """The post-game analysis of one finished game (``computer.game_analyse``)."""
    from games import computer

    analysis = computer.game_analyse(game_id=game_id)
    return analysis.status if analysis is not None else "no such finished game"


@task()
def daily_par_compute(day: str, ruleset: str) -> int | None:
    """The par of ``day`` (ISO date) in ``ruleset`` (``computer.daily_par_compute``)."""
    from games import computer

    par = computer.daily_par_compute(day=datetime.date.fromisoformat(day), ruleset=ruleset)
    return par.bot_score


@task(queue_name=COMPUTERS)
def lockstep_tick(lockstep_id: int) -> bool:
    """A live table's round clock ran out: move it on (``services.lockstep_advance``)."""
    from games import services

    return services.lockstep_advance(lockstep_id=lockstep_id)


@task()
def data_export_build(export_id: int) -> str:
    """A player's "Download my data" zip (``services.data_export_build``)."""
    from games import services

    return services.data_export_build(export_id=export_id)


@task()
def mail_send(to: str, subject: str, body: str, headers: dict[str, str], attempt: int) -> str:
    """Deliver one e-mail, queued again on failure (``mail.mail_deliver``)."""
    from games import mail

    return mail.mail_deliver(to=to, subject=subject, body=body, headers=headers, attempt=attempt)


@task()
def turn_mail(user_id: int, origin: str) -> str:
    """A player's batched turn mail (``mail.turn_mail_send``)."""
    from games import mail

    return mail.turn_mail_send(user_id=user_id, origin=origin)


@task()
def webpush_send(user_id: int, title: str, body: str, url: str, tag: str) -> str:
    """One notification pushed to each of a player's devices (``webpush.push_deliver``)."""
    from games import webpush

    return webpush.push_deliver(user_id=user_id, title=title, body=body, url=url, tag=tag)
