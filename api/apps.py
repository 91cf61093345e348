from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = _("Open data")

    def ready(self) -> None:
        from accounts.signals import user_deleting
        from api.services import tokens_delete_on_user_delete

        user_deleting.connect(tokens_delete_on_user_delete, dispatch_uid="api-tokens-deleting")
