from __future__ import annotations

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from accounts import checks  # (registers the deployment checks)

        # Every `migrate` also creates the database cache's table where that cache is used
        # (production without Redis): the throttles' counters have a place from the start.
        post_migrate.connect(checks.cache_tables_create, sender=self, dispatch_uid="cache_tables")
        from accounts import devices

        # Signing out of a shared browser stops its pushes for the player who signed out.
        user_logged_out.connect(devices.forget_on_sign_out, dispatch_uid="push_devices")
