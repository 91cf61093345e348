from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from accounts.signals import user_deleting
        from games.framing import game_framing, games_titling
        from games.signals import game_finished, lockstep_finished
        from tournaments import selectors, services

        # After leaderboards' receiver (INSTALLED_APPS order): the deal's table already
        # counts the result when the standings are marked as changed.
        game_finished.connect(services.game_finished, dispatch_uid="tournaments.game_finished")
        lockstep_finished.connect(
            services.live_table_finished, dispatch_uid="tournaments.live_table_finished"
        )
        game_framing.connect(selectors.game_frame, dispatch_uid="tournaments.game_frame")
        games_titling.connect(selectors.game_titles, dispatch_uid="tournaments.game_titles")
        user_deleting.connect(
            services.standings_forget_on_delete, dispatch_uid="tournaments.forget_deleted"
        )
