"""Personal API tokens: a player's key to their own data through /api/v1/."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import User

TOKEN_NAME_MAX_LENGTH = 60


class ApiToken(models.Model):
    """A personal token. Only its SHA-256 is stored: the token itself is shown once."""

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="api_tokens", verbose_name=_("player")
    )
    name = models.CharField(_("name"), max_length=TOKEN_NAME_MAX_LENGTH)
    digest = models.CharField(_("digest"), max_length=64, unique=True, editable=False)
    # The token's first characters, so that its owner can tell their tokens apart.
    prefix = models.CharField(_("prefix"), max_length=16, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
