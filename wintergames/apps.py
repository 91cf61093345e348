from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WinterGamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "wintergames"
    label = "wintergames"
    verbose_name = _("Carcassonne: Winter Edition")

    def ready(self) -> None:
        from floor.clocks import clock_source
        from floor.mail import turn_mail_source
        from wintergames.services import expire_deadlines
        from wintergames.turnmail import turns_waiting

        turn_mail_source(turns_waiting)
        clock_source(expire_deadlines)
