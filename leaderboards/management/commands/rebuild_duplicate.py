"""Recount every deal's table of scores from the results (and link results to their deals)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from leaderboards.services import duplicate_rebuild


class Command(BaseCommand):
    help = (
        "Give every result of a shared deal (daily challenge, multiplayer, tournament) its "
        "deal and recount the deals' scores, from which matchpoints are read. Run once after "
        "the migration that adds deals; afterwards finishes and moderation keep them."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        rows = duplicate_rebuild()
        self.stdout.write(f"Counted {rows} deal scores.")
