"""Compare solo results with the player's earlier ones and with the reference player."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from moderation.selectors import suspicious_results
from moderation.services import result_checks_fill


class Command(BaseCommand):
    help = (
        "Check every solo result not checked yet, newest first, so that the admin's "
        "'suspicious results' list is complete. Safe to stop and run again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="Check at most this many.")

    def handle(self, *args: Any, limit: int | None, **options: Any) -> None:
        checked = result_checks_fill(limit=limit)
        flagged = suspicious_results().count()
        self.stdout.write(f"Checked {checked} results; {flagged} stand out.")
