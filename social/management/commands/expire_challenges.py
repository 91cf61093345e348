from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from social.services import challenges_expire


class Command(BaseCommand):
    help = "Mark challenges nobody answered in time as expired (run it every hour or so)."

    def handle(self, *args: Any, **options: Any) -> None:
        count = challenges_expire()
        self.stdout.write(f"{count} challenge(s) expired.")
