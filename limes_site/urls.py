"""Top-level URL map: each app owns its own paths below its prefix."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

# Registers the <name:…> and <code:…> converters before the apps' URL maps use them.
import limes_site.converters  # noqa: F401

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("players/", include("accounts.urls", namespace="accounts")),
    path("i18n/", set_language, name="set_language"),
    path("", include("moderation.urls", namespace="moderation")),
    path("", include("leaderboards.urls", namespace="leaderboards")),
    path("", include("games.urls", namespace="games")),
]
