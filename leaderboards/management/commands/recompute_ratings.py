"""Rebuild every multiplayer rating by replaying the finished games in the order they ended."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from leaderboards.services import ratings_recompute


class Command(BaseCommand):
    help = (
        "Replay all finished, visible multiplayer games in finishing order and rewrite the "
        "ratings and each seat's rating before and after (run after hiding or unhiding a game)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        rated = ratings_recompute()
        self.stdout.write(f"Rated {rated} games.")
