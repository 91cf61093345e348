"""Make puzzles from analysed games (and, for a new site, from computer games)."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from games.models import GameAnalysis
from puzzles import services


class Command(BaseCommand):
    help = (
        "Make puzzles from the games analysed in the last --days days (positions already "
        "made are skipped), and from --from-computer-games N seeded computer games."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=1, help="Analyses of the last N days.")
        parser.add_argument("--from-computer-games", type=int, default=0, metavar="N")
        parser.add_argument("--seed", type=int, default=0, help="Seed of the computer games.")

    def handle(self, *args: Any, **options: Any) -> None:
        since = timezone.now() - datetime.timedelta(days=options["days"])
        game_ids = GameAnalysis.objects.filter(
            status=GameAnalysis.Status.DONE, completed_at__gte=since
        ).values_list("game_id", flat=True)
        made = sum(services.puzzle_make_from_game(game_id=pk) for pk in game_ids)
        if options["from_computer_games"]:
            made += services.puzzle_make_from_computer(
                games=options["from_computer_games"], seed=options["seed"]
            )
        self.stdout.write(f"{made} new puzzles.")
