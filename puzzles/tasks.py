"""Background tasks (django-tasks) of puzzles. Each is safe to run twice."""

from __future__ import annotations

from django_tasks import task


@task()
def puzzles_make(game_id: int) -> int:
    """The puzzles of one analysed game (``services.puzzle_make_from_game``)."""
    # Imported here: the services enqueue this task, so they import this module.
    from puzzles import services

    return services.puzzle_make_from_game(game_id=game_id)
