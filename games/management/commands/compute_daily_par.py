"""Compute the daily challenge's par now, in this process (e.g. from a scheduler at 00:05)."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.computer import daily_par_compute
from games.daily import today
from games.models import Ruleset


class Command(BaseCommand):
    help = (
        "Work out a day's par: the strong bot's score on the day's cards and the best score "
        "a search finds knowing all 16 in advance. Today by default; a day already done is "
        "left as it is."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", help="YYYY-MM-DD (default: today, UTC)")
        parser.add_argument("--ruleset", default=Ruleset.STANDARD, choices=Ruleset.values)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = datetime.date.fromisoformat(options["day"]) if options["day"] else today()
        except ValueError:
            raise CommandError("--day must be a date, YYYY-MM-DD") from None
        par = daily_par_compute(day=day, ruleset=options["ruleset"])
        self.stdout.write(
            f"{day} ({options['ruleset']}): bot {par.bot_score}, best found {par.best_score}"
        )
