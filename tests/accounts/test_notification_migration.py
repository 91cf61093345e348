"""The move to one table of notification choices keeps every player's e-mail choices."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from accounts.notifications import Channel, Event
from accounts.selectors import notification_channels

BEFORE = [("accounts", "0006_add_vacation"), ("social", "0001_friends_challenges_chat")]
AFTER = [
    ("accounts", "0007_notification_preferences_and_push"),
    ("social", "0004_email_preferences_to_accounts"),
]


@pytest.mark.django_db(transaction=True)
def test_the_e_mail_choices_made_before_are_kept() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldUser = old.get_model("accounts", "User")
    EmailPreference = old.get_model("social", "EmailPreference")
    quiet = OldUser.objects.create(username="quiet", email="q@example.com", notify_by_email=False)
    keen = OldUser.objects.create(username="keen", email="k@example.com")
    EmailPreference.objects.create(user=keen, kind="chat", by_email=True)
    EmailPreference.objects.create(user=keen, kind="challenge", by_email=False)
    EmailPreference.objects.create(user=quiet, kind="rematch", by_email=True)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    # And whatever came after them, so the database is as the other tests expect.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    quiet_now, keen_now = User.objects.get(username="quiet"), User.objects.get(username="keen")
    assert Channel.EMAIL not in notification_channels(quiet_now, Event.TURN)
    assert Channel.EMAIL in notification_channels(quiet_now, Event.REMATCH)
    assert Channel.EMAIL in notification_channels(keen_now, Event.TURN)
    assert Channel.EMAIL in notification_channels(keen_now, Event.CHAT)
    assert Channel.EMAIL not in notification_channels(keen_now, Event.CHALLENGE)
    # Choices nobody made are the new defaults: a chat message is not mailed.
    assert Channel.EMAIL not in notification_channels(quiet_now, Event.CHAT)
