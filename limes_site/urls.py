"""Top-level URL map: each app owns its own paths below its prefix."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts.views import language_set

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("players/", include("accounts.urls", namespace="accounts")),
    path("i18n/", language_set, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("moderation.urls", namespace="moderation")),
    path("", include("leaderboards.urls", namespace="leaderboards")),
    path("", include("games.urls", namespace="games")),
]
