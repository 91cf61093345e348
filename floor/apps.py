from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FloorConfig(AppConfig):
    """What every game on the site shares: notices, mail, web push, server push, the
    task queue and its worker (see CONTRIBUTING.md, "How a game plugs into the site")."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "floor"
    verbose_name = _("Site services")

    def ready(self) -> None:
        from floor import (
            internals,  # noqa: F401  (registers the check of Django's version)
            taskqueue,  # noqa: F401  (and of django-tasks-db's)
        )
