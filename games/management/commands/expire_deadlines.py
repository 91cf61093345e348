"""Time out players whose round deadline has passed, and send the turn mails whose batching
interval has passed; run it from a scheduler (cron)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from floor import mail
from games import services


class Command(BaseCommand):
    help = (
        "Time out every player whose round deadline has passed. Deadlines are also "
        "enforced whenever a game is opened or played; this catches games nobody touches."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = services.expire_deadlines()
        self.stdout.write(f"{count} game(s) had players time out.")
        # Where the task backend cannot wait for a turn mail's interval, this sends it.
        mailed = mail.turn_mails_due()
        self.stdout.write(f"{mailed} player(s) had a turn mail due.")
