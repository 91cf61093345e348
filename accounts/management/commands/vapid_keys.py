"""Make a VAPID key pair for web push and print it as environment lines."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.vapid import vapid_pair_make


class Command(BaseCommand):
    help = "Make a VAPID key pair for web push; prints LIMES_VAPID_* lines for the environment."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = vapid_pair_make()
        self.stdout.write(f"LIMES_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"LIMES_VAPID_PRIVATE_KEY={private}")
        self.stdout.write("LIMES_VAPID_SUBJECT=mailto:admin@example.org")
