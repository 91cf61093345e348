"""The Moderators group and exactly the permissions it needs.

Moderators see players, games, results, reports, bans and the audit log, and may change
players, games, results and reports, which is what the admin's moderation actions (ban,
rename, clear profile, hide, resolve) require; the change forms themselves are read-only
for them. They may add or delete nothing and never change the audit log or permissions.
"""

from __future__ import annotations

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("accounts", "view_user"),
    ("accounts", "change_user"),
    ("games", "view_game"),
    ("games", "change_game"),
    ("games", "view_seat"),
    ("games", "view_soloresult"),
    ("games", "change_soloresult"),
    ("moderation", "view_report"),
    ("moderation", "change_report"),
    ("moderation", "view_ban"),
    ("moderation", "view_auditentry"),
]


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations ran; this group needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    permissions = []
    for app_label, codename in PERMISSIONS:
        permissions.append(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    group.permissions.set(permissions)


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
