"""Top-level URL map: each app owns its own paths below its prefix."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

import accounts.urls
import leaderboards.views
from accounts.views import language_set
from limes_site.observability import health

# A player's pages: their account's, and the public profile, whose view belongs to the
# boards (it shows their statistics); one namespace, so the names stay accounts:*.
players = [
    *accounts.urls.urlpatterns,
    path("<str:username>/", leaderboards.views.profile, name="profile"),
]

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("players/", include((players, accounts.urls.app_name))),
    path("i18n/", language_set, name="set_language"),
    # Our strings live under LOCALE_PATHS, which every catalogue includes; naming one app
    # (it has none of its own) keeps the admin's JavaScript strings out of every page.
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["games"]), name="javascript-catalog"),
    path("", include("moderation.urls", namespace="moderation")),
    path("", include("leaderboards.urls", namespace="leaderboards")),
    path("", include("games.urls", namespace="games")),
]
