from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "social"
    verbose_name = _("Friends and chat")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from accounts.signals import user_deleting
        from games.export import export_sections
        from games.models import Game
        from social import export, services
        from wintergames.models import WinterGame

        user_deleting.connect(services.user_forget_social, dispatch_uid="social-user-deleting")
        post_save.connect(
            services.rematch_offered, sender=Game, dispatch_uid="social-rematch-offered"
        )
        post_save.connect(
            services.rematch_offered, sender=WinterGame, dispatch_uid="social-winter-rematch"
        )
        if export.social_export not in export_sections:
            export_sections.append(export.social_export)
