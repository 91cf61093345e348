"""Background tasks (django-tasks) of tournaments. Each is safe to run twice."""

from __future__ import annotations

from django_tasks import task

from floor.taskqueue import COMPUTERS


@task(queue_name=COMPUTERS)
def live_advance(tournament_id: int) -> bool:
    """A live tournament's window opened: deal its first deal (``services.live_advance``)."""
    from tournaments import services
    from tournaments.models import Tournament

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return tournament is not None and services.live_advance(tournament=tournament)


@task()
def tournament_unseal(tournament_id: int) -> int:
    """A tournament's window closed: count its results (``services.tournament_unseal``)."""
    from tournaments import services
    from tournaments.models import Tournament

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return 0 if tournament is None else services.tournament_unseal(tournament=tournament)


@task()
def tournament_remind(tournament_id: int) -> int:
    """Tell a tournament's entrants it opens (``services.tournament_remind``)."""
    from tournaments import services
    from tournaments.models import Tournament

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return 0 if tournament is None else services.tournament_remind(tournament=tournament)
