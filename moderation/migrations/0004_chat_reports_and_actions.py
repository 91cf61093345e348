"""Reports may point at a chat message; moderators hide messages and mute players.

The Moderators group gets exactly the chat permissions those actions need.
"""

import django.db.models.deletion
from django.contrib.auth.management import create_permissions
from django.db import migrations, models

GROUP = "Moderators"
PERMISSIONS = [
    ("social", "view_chatmessage"),
    ("social", "change_chatmessage"),
    ("social", "view_chatmute"),
]


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for group in Group.objects.filter(name=GROUP):
        for app_label, codename in PERMISSIONS:
            group.permissions.remove(
                *Permission.objects.filter(content_type__app_label=app_label, codename=codename)
            )


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0003_verbose_names"),
        ("social", "0001_friends_challenges_chat"),
    ]

    operations = [
        migrations.AddField(
            model_name="report",
            name="chat_message",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="reports",
                to="social.chatmessage",
                verbose_name="chat message",
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(
                choices=[
                    ("ban", "Ban"),
                    ("unban", "Unban"),
                    ("hide_result", "Hide result"),
                    ("unhide_result", "Unhide result"),
                    ("hide_game", "Hide game"),
                    ("unhide_game", "Unhide game"),
                    ("rename", "Reset username"),
                    ("clear_profile", "Clear profile"),
                    ("resolve_report", "Resolve report"),
                    ("dismiss_report", "Dismiss report"),
                    ("hide_message", "Hide chat message"),
                    ("unhide_message", "Unhide chat message"),
                    ("mute", "Mute in chat"),
                    ("unmute", "Unmute in chat"),
                ],
                max_length=16,
                verbose_name="action",
            ),
        ),
        migrations.AlterField(
            model_name="report",
            name="category",
            field=models.CharField(
                choices=[
                    ("name", "Offensive name or profile"),
                    ("abuse", "Abusive play"),
                    ("cheating", "Suspected cheating"),
                    ("chat", "Abusive chat message"),
                    ("other", "Other"),
                ],
                max_length=10,
                verbose_name="category",
            ),
        ),
        migrations.RunPython(grant, revoke),
    ]
