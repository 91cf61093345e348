from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from games.showcase import showcase_forget_on_commit
        from moderation.models import AuditEntry

        # Every moderator action writes one AuditEntry; the front page's showcase may show
        # the game or player it concerns, so it is drawn afresh once the action commits.
        post_save.connect(
            showcase_forget_on_commit, sender=AuditEntry, dispatch_uid="moderation-showcase"
        )
