from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts.signals import user_deleting
        from games.services import user_leave_games_on_delete

        user_deleting.connect(user_leave_games_on_delete, dispatch_uid="games-user-deleting")
