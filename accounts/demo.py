"""The demo accounts that ``scripts/serve`` signs visitors in with, for every game's demo."""

from __future__ import annotations

from accounts.models import User
from accounts.services import notification_preferences_set

DEMO_USERNAME = "demo"
# A second player, so each game's demo shows a finished game of two and a game waiting.
RIVAL_USERNAME = "demo-rival"
DEMO_PASSWORD = "demo-limes"


def demo_account(username: str) -> User:
    """The demo account ``username``, made with the demo password if missing."""
    # Round e-mails off: the demo games are played out at once, and nobody reads
    # example.org.
    user, created = User.objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.org"}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
        notification_preferences_set(user=user, choices={("turn", "email"): False})
    return user
