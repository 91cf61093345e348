"""One table of notification choices (event x channel) and the devices subscribed to push.

Every player's e-mail choices so far move into it: ``User.notify_by_email`` (the turn mails)
and ``social.EmailPreference`` (friend requests, challenges, rematches, chat). Only a choice
that differs from the new default needs a row; one is written for each choice made anyway,
so that nothing a player chose depends on a default.
"""

from typing import Any

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

#: The e-mail choices of ``social.EmailPreference`` kept their names as events.
KINDS = ("friend_request", "challenge", "rematch", "chat")
TURN, EMAIL = "turn", "email"


def email_choices_keep(apps: Any, schema_editor: Any) -> None:
    User = apps.get_model("accounts", "User")
    Preference = apps.get_model("accounts", "NotificationPreference")
    EmailPreference = apps.get_model("social", "EmailPreference")
    rows = [
        Preference(user_id=user_id, event=TURN, channel=EMAIL, enabled=False)
        for user_id in User.objects.filter(notify_by_email=False).values_list("pk", flat=True)
    ]
    rows += [
        Preference(user_id=user_id, event=kind, channel=EMAIL, enabled=by_email)
        for user_id, kind, by_email in EmailPreference.objects.filter(kind__in=KINDS).values_list(
            "user_id", "kind", "by_email"
        )
    ]
    Preference.objects.bulk_create(rows, batch_size=1000)


def email_choices_restore(apps: Any, schema_editor: Any) -> None:
    User = apps.get_model("accounts", "User")
    Preference = apps.get_model("accounts", "NotificationPreference")
    EmailPreference = apps.get_model("social", "EmailPreference")
    off = Preference.objects.filter(event=TURN, channel=EMAIL, enabled=False)
    User.objects.filter(pk__in=off.values("user_id")).update(notify_by_email=False)
    EmailPreference.objects.bulk_create(
        EmailPreference(user_id=user_id, kind=event, by_email=enabled)
        for user_id, event, enabled in Preference.objects.filter(
            event__in=KINDS, channel=EMAIL
        ).values_list("user_id", "event", "enabled")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_add_vacation"),
        # Read here, deleted by social's next migration once read.
        ("social", "0001_friends_challenges_chat"),
    ]

    operations = [
        migrations.CreateModel(
            name="PushSubscription",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "endpoint",
                    models.URLField(max_length=1000, unique=True, verbose_name="endpoint"),
                ),
                ("p256dh", models.CharField(max_length=100, verbose_name="public key")),
                ("auth", models.CharField(max_length=50, verbose_name="auth secret")),
                ("label", models.CharField(blank=True, max_length=100, verbose_name="device")),
                (
                    "created_at",
                    models.DateTimeField(
                        default=django.utils.timezone.now, verbose_name="created at"
                    ),
                ),
                (
                    "last_success_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="last delivered"),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="push_subscriptions",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "push subscription",
                "verbose_name_plural": "push subscriptions",
                "ordering": ["created_at", "pk"],
            },
        ),
        migrations.CreateModel(
            name="NotificationPreference",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "event",
                    models.CharField(
                        choices=[
                            ("turn", "Your turn in a correspondence game"),
                            ("live_turn", "Your turn in a live game while its tab is hidden"),
                            ("challenge", "A challenge to a game"),
                            ("friend_request", "A friend request, or yours accepted"),
                            ("rematch", "A rematch offer"),
                            ("tournament", "A tournament deal open, or a live one starting soon"),
                            ("chat", "A chat message while I am away from the game"),
                            ("moderation", "A moderator's answer"),
                        ],
                        max_length=16,
                        verbose_name="event",
                    ),
                ),
                (
                    "channel",
                    models.CharField(
                        choices=[
                            ("site", "On the site"),
                            ("email", "By e-mail"),
                            ("push", "By push"),
                        ],
                        max_length=8,
                        verbose_name="channel",
                    ),
                ),
                ("enabled", models.BooleanField(verbose_name="on")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notification_preferences",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "notification preference",
                "verbose_name_plural": "notification preferences",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "event", "channel"), name="notification_preference_once"
                    )
                ],
            },
        ),
        migrations.RunPython(email_choices_keep, email_choices_restore),
        migrations.RemoveField(
            model_name="user",
            name="notify_by_email",
        ),
    ]
