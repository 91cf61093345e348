"""The e-mail choices moved into accounts.NotificationPreference (accounts 0007 copies them)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("social", "0003_hidden_presence"),
        ("accounts", "0007_notification_preferences_and_push"),
    ]

    operations = [
        migrations.DeleteModel(
            name="EmailPreference",
        ),
    ]
