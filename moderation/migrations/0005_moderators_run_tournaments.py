"""Moderators run tournaments: they create one-off tournaments (and invite players to
them) and disqualify entrants, which is all they add or change there."""

from __future__ import annotations

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("tournaments", "view_tournament"),
    ("tournaments", "add_tournament"),
    ("tournaments", "view_invitation"),
    ("tournaments", "add_invitation"),
    ("tournaments", "view_entrant"),
    ("tournaments", "change_entrant"),
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
                content_type__app_label="tournaments",
                codename__in=[codename for _app, codename in PERMISSIONS],
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0004_audit_disqualify_action"),
        ("tournaments", "0001_tournaments_entrants_and_plays"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
