"""Queue the post-game analysis of finished games that have none (older games)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games import computer
from games.models import Game


class Command(BaseCommand):
    help = "Queue the analysis of every finished game without one; the worker computes them."

    def handle(self, *args: Any, **options: Any) -> None:
        missing = Game.objects.filter(status=Game.Status.FINISHED, analysis__isnull=True)
        count = 0
        for game in missing.iterator():
            computer.analysis_request(game=game)
            count += 1
        self.stdout.write(f"Queued {count} games.")
