"""Make the weekly tournaments of this week and the next, for each ruleset, if missing, and
count the results of tournaments that have ended and are not counted yet."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.services import (
    tournaments_remind_due,
    tournaments_unseal_due,
    weekly_tournaments_ensure,
)


class Command(BaseCommand):
    help = (
        "Create this week's and next week's weekly tournament of each ruleset (Monday to "
        "Monday, UTC) unless they exist, and count on the boards the results of ended "
        "tournaments not counted yet. Safe to run any number of times: run it daily."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        made = weekly_tournaments_ensure()
        self.stdout.write(f"Created {len(made)} tournaments.")
        counted = tournaments_unseal_due()
        self.stdout.write(f"Counted {counted} results of ended tournaments.")
        reminded = tournaments_remind_due()
        self.stdout.write(f"Reminded the entrants of {reminded} tournaments.")
