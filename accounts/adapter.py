from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter

DELETED_USERNAME_PREFIX = "deleted-"


class AccountAdapter(DefaultAccountAdapter):
    """allauth hooks for Limes Online."""

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """Refuse names of the form deleted accounts are given, then allauth's checks."""
        if username.lower().startswith(DELETED_USERNAME_PREFIX):
            raise self.validation_error("username_blacklisted")
        return super().clean_username(username, shallow=shallow)
