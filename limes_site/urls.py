"""Top-level URL map: each app owns its own paths below its prefix."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

import accounts.urls
import games.views
import leaderboards.views

# Registers the <name:…> and <code:…> converters before the URL maps below use them.
import limes_site.converters  # noqa: F401
from limes_site.observability import health

# A player's pages: their account's, and the public profile, whose view belongs to the
# boards (it shows their statistics); one namespace, so the names stay accounts:*.
players = [
    *accounts.urls.urlpatterns,
    path("settings/data.zip", games.views.data_export, name="data_export"),
    path("<name:username>/", leaderboards.views.profile, name="profile"),
]

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("players/", include((players, accounts.urls.app_name))),
    path("i18n/", set_language, name="set_language"),
    path("", include("moderation.urls", namespace="moderation")),
    path("", include("leaderboards.urls", namespace="leaderboards")),
    path("", include("games.urls", namespace="games")),
]
