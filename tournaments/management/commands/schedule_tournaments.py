"""Make the weekly tournaments of this week and the next, for each ruleset, if missing."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.services import weekly_tournaments_ensure


class Command(BaseCommand):
    help = (
        "Create this week's and next week's weekly tournament of each ruleset (Monday to "
        "Monday, UTC) unless they exist. Safe to run any number of times: run it daily."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        made = weekly_tournaments_ensure()
        self.stdout.write(f"Created {len(made)} tournaments.")
