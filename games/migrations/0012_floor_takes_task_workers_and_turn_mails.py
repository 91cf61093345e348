from django.db import migrations


class Migration(migrations.Migration):
    # The models move to the floor app (floor 0001), their tables stay as they are.
    dependencies = [
        ("games", "0011_turn_mail_batches"),
        ("floor", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="TaskWorker"),
                migrations.DeleteModel(name="TurnMail"),
            ],
        ),
    ]
