from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaderboardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"
    verbose_name = _("Ratings and leaderboards")

    def ready(self) -> None:
        from games.signals import game_finished
        from leaderboards import services

        game_finished.connect(services.game_finished, dispatch_uid="leaderboards.game_finished")
