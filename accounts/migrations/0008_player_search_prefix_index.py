"""An index for the player search (``selectors.players_named``), on PostgreSQL.

``username__istartswith`` is ``UPPER("username"::text) LIKE UPPER('ana%')`` there: without an
index of that very expression (with ``text_pattern_ops``, so that ``LIKE`` can use it in
any collation) each search read the whole table. SQLite (``scripts/serve``) has no such
index and needs none at its size.
"""

from typing import Any

from django.db import migrations

INDEX = "accounts_user_name_prefix"


def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON accounts_user "
            '(UPPER("username"::text) text_pattern_ops)'
        )


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0007_notification_preferences_and_push")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
