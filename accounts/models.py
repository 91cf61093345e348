from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

BIO_MAX_LENGTH = 500


class User(AbstractUser):
    """A player. Deleting an account anonymises the row so that its games keep a seat."""

    bio = models.TextField(
        _("bio"),
        max_length=BIO_MAX_LENGTH,
        blank=True,
        # A TextField's max_length only reaches the form widget; the validator makes
        # full_clean() enforce it too.
        validators=[MaxLengthValidator(BIO_MAX_LENGTH)],
    )
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True, editable=False)

    @property
    def is_deleted(self) -> bool:
        """Whether the player deleted their account."""
        return self.deleted_at is not None

    @property
    def display_name(self) -> str:
        """The name to show other players: the username, or "deleted player"."""
        if self.is_deleted:
            return gettext("deleted player")
        return self.username
