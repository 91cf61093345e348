"""A partial index on accounts_user for the boards: the few players no board shows.

Boards exclude banned and deleted players at query time (a ban ends by itself). Without
this index that means reading the whole user table on each board request; with it, a few
hundred index entries. It lives here because only the boards need it.
"""

from django.db import migrations

INDEX = "leaderboards_hidden_players"


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_user_ban_reason_user_banned_until_user_must_rename_and_more"),
        ("leaderboards", "0001_initial"),
    ]

    operations = [
        migrations.RunSQL(
            sql=(
                f"CREATE INDEX {INDEX} ON accounts_user (id) "
                "WHERE deleted_at IS NOT NULL OR banned_until IS NOT NULL"
            ),
            reverse_sql=f"DROP INDEX {INDEX}",
        ),
    ]
