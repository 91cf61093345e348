from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.signals import user_deleting, vacation_changed
        from floor.clocks import clock_source
        from floor.mail import turn_mail_source
        from games.services import (
            expire_deadlines,
            games_touch_on_vacation,
            user_leave_games_on_delete,
        )
        from games.showcase import showcase_forget_on_commit
        from games.turnmail import turns_waiting

        user_deleting.connect(user_leave_games_on_delete, dispatch_uid="games-user-deleting")
        user_deleting.connect(showcase_forget_on_commit, dispatch_uid="games-showcase-deleting")
        vacation_changed.connect(games_touch_on_vacation, dispatch_uid="games-vacation")
        turn_mail_source(turns_waiting)
        clock_source(expire_deadlines)
