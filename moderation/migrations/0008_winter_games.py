"""Moderation covers Carcassonne: Winter Edition: a report or an audit entry may name a
Winter game (one game at most, of either kind), and moderators see Winter games and their
seats and may change games (hide and unhide them, through the admin's actions)."""

from __future__ import annotations

import django.db.models.deletion
from django.contrib.auth.management import create_permissions
from django.db import migrations, models

GROUP = "Moderators"
PERMISSIONS = [
    ("wintergames", "view_wintergame"),
    ("wintergames", "change_wintergame"),
    ("wintergames", "view_winterseat"),
]


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
            for app_label, codename in PERMISSIONS
        )
    )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=GROUP).first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(
                content_type__app_label="wintergames",
                codename__in=[codename for _app, codename in PERMISSIONS],
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0007_audit_actions_chat_and_tournaments"),
        ("wintergames", "0004_rematch_clock_hidden"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="winter_game",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="wintergames.wintergame",
                verbose_name="Winter game",
            ),
        ),
        migrations.AddField(
            model_name="report",
            name="winter_game",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="reports",
                to="wintergames.wintergame",
                verbose_name="Winter game",
            ),
        ),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("game__isnull", True), ("winter_game__isnull", True), _connector="OR"
                ),
                name="audit_one_game_at_most",
            ),
        ),
        migrations.AddConstraint(
            model_name="report",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("game__isnull", True), ("winter_game__isnull", True), _connector="OR"
                ),
                name="report_one_game_at_most",
            ),
        ),
        migrations.RunPython(grant, revoke),
    ]
