"""Top-level URL map: each app owns its own paths below its prefix."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from django.views.i18n import JavaScriptCatalog

import accounts.urls
import api.views
import games.views
import leaderboards.views

# Registers the <name:…> and <code:…> converters before the URL maps below use them.
import limes_site.converters  # noqa: F401
from accounts.views import language_set
from api.v1 import api as api_v1
from limes_site import installable
from limes_site.observability import health

# A player's pages: their account's, and the public profile, whose view belongs to the
# boards (it shows their statistics); one namespace, so the names stay accounts:*.
players = [
    *accounts.urls.urlpatterns,
    path("settings/data.zip", games.views.data_export, name="data_export"),
    path("settings/data/", games.views.data_export_page, name="data_export_page"),
    path("settings/data/prepare/", games.views.data_export_prepare, name="data_export_prepare"),
    path("settings/api/", api.views.tokens, name="api_tokens"),
    path("settings/api/<int:token_id>/revoke/", api.views.token_revoke, name="api_token_revoke"),
    path("<name:username>/", leaderboards.views.profile, name="profile"),
]

urlpatterns = [
    path("health/", health, name="health"),
    # The site as an installed app (issue 38): the worker's scope is the folder it is in.
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("sw.js", installable.service_worker, name="service_worker"),
    path("offline/", installable.offline, name="offline"),
    path(
        "robots.txt",
        TemplateView.as_view(template_name="robots.txt", content_type="text/plain"),
        name="robots",
    ),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("players/", include((players, accounts.urls.app_name))),
    path("i18n/", language_set, name="set_language"),
    # Our strings live under LOCALE_PATHS, which every catalogue includes; naming one app
    # (it has none of its own) keeps the admin's JavaScript strings out of every page.
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["games"]), name="javascript-catalog"),
    # The public read API (/api/v1/, its schema and docs) and the embeds (issue 28).
    path("api/v1/", api_v1.urls),
    path("", include("api.urls", namespace="api")),
    path("", include("moderation.urls", namespace="moderation")),
    path("", include("social.urls", namespace="social")),
    path("", include("puzzles.urls", namespace="puzzles")),
    path("", include("leaderboards.urls", namespace="leaderboards")),
    path("", include("tournaments.urls", namespace="tournaments")),
    path("", include("learn.urls", namespace="learn")),
    # Carcassonne: Winter Edition, the second game, under a prefix of its own.
    path("winter/", include("wintergames.urls", namespace="winter")),
    path("", include("games.urls", namespace="games")),
]
