"""Rebuild every Winter rating by replaying the finished games in the order they ended."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from leaderboards.services import winter_ratings_recompute


class Command(BaseCommand):
    help = (
        "Replay all finished Winter games no moderator hid, in finishing order, and rewrite "
        "the Winter ratings (hiding or showing a game from the admin does this already)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        rated = winter_ratings_recompute()
        self.stdout.write(f"Rated {rated} Winter games.")
