"""Enforce every game's passed turn deadlines, and send the turn mails whose batching
interval has passed; run it from a scheduler (cron, every minute)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from floor import clocks, mail


class Command(BaseCommand):
    help = (
        "Enforce every turn deadline that has passed, in every game the site offers. "
        "Deadlines are also enforced whenever a game is opened or played; this catches "
        "games nobody touches."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = clocks.expire_deadlines()
        self.stdout.write(f"{count} game(s) had players time out.")
        # Where the task backend cannot wait for a turn mail's interval, this sends it.
        mailed = mail.turn_mails_due()
        self.stdout.write(f"{mailed} player(s) had a turn mail due.")
