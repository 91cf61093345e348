"""Add puzzles from seeded computer games to the demo data, so /puzzles/ has some."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from puzzles import services
from puzzles.models import Puzzle

#: Computer games enough for about 25 puzzles (two or three a game), in a few seconds.
DEMO_GAMES = 12
DEMO_SEED = 2026


class Command(BaseCommand):
    help = "Puzzles from a few seeded computer games (the same each time: idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        made = services.puzzle_make_from_computer(games=DEMO_GAMES, seed=DEMO_SEED)
        self.stdout.write(f"{made} new demo puzzles, {Puzzle.objects.count()} in all.")
