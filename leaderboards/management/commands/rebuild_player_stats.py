"""Rebuild the boards' rows of every player (or some) from their games."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts.models import User
from games.models import Seat
from leaderboards.services import player_stats_rebuild


class Command(BaseCommand):
    help = (
        "Recompute results, solo standings and weekly bests from the games, for the named "
        "players or everyone who finished a game (e.g. after restoring data)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("usernames", nargs="*", help="only these players")

    def handle(self, *args: Any, **options: Any) -> None:
        users = User.objects.order_by("pk")
        if options["usernames"]:
            users = users.filter(username__in=options["usernames"])
        else:
            users = users.filter(pk__in=Seat.objects.filter(score__isnull=False).values("user"))
        count = 0
        for user in users.iterator():
            player_stats_rebuild(user=user)
            count += 1
        self.stdout.write(f"Rebuilt the statistics of {count} players.")
