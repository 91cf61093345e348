from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"
    verbose_name = _("Puzzles")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from games.models import GameAnalysis
        from puzzles import services

        # The games app knows nothing of puzzles: a finished analysis is the event.
        post_save.connect(
            services.analysis_saved, sender=GameAnalysis, dispatch_uid="puzzles.analysis_saved"
        )
