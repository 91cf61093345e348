"""The admin site: one "Accounts" section for everything about players.

Django's groups (the Moderators group) and allauth's email addresses would otherwise
sit in sections of their own, one of them also called "Accounts".
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.http import HttpRequest

#: Apps whose models the admin lists under the ``accounts`` app.
MERGED_INTO_ACCOUNTS = ("auth", "account")


class LimesAdminSite(admin.AdminSite):
    def get_app_list(
        self, request: HttpRequest, app_label: str | None = None
    ) -> list[dict[str, Any]]:
        apps = super().get_app_list(request, app_label)
        accounts = next((app for app in apps if app["app_label"] == "accounts"), None)
        if accounts is None:
            return apps
        kept = []
        for app in apps:
            if app["app_label"] in MERGED_INTO_ACCOUNTS:
                accounts["models"].extend(app["models"])
            else:
                kept.append(app)
        accounts["models"].sort(key=lambda model: str(model["name"]))
        return kept


class LimesAdminConfig(AdminConfig):
    default_site = "limes_site.admin.LimesAdminSite"
