from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaderboardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"
    verbose_name = _("Ratings and leaderboards")

    def ready(self) -> None:
        from accounts.signals import user_deleting
        from games.signals import game_finished
        from leaderboards import services
        from wintergames.signals import winter_game_finished

        game_finished.connect(services.game_finished, dispatch_uid="leaderboards.game_finished")
        winter_game_finished.connect(
            services.winter_game_finished, dispatch_uid="leaderboards.winter_game_finished"
        )
        # After the games app's receiver (apps are ready in INSTALLED_APPS order): a game
        # the deletion finishes is counted, then forgotten with the player's others.
        user_deleting.connect(
            services.duplicate_forget_on_delete, dispatch_uid="leaderboards.duplicate_forget"
        )
