"""The site as an app one installs: its web manifest, its service worker, the offline page.

The service worker (templates/installable/sw.js) keeps copies of the static files only,
under a cache named after the release's :func:`static_version`, so that a new release
installs a new worker that drops the old copies. Pages and API answers always come from
the network: when there is none, a navigation shows the offline page, which names no one
and is cached with the static files when the worker installs.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

#: Colours of the installed app's window: the header's green, the page's background.
THEME_COLOR = "#2f6b3a"
BACKGROUND_COLOR = "#f7f6f1"
#: The static files the offline page needs, cached when the worker installs.
OFFLINE_ASSETS = ("css/site.css", "favicon.svg", "icons/icon-192.png")


def static_version() -> str:
    """The release's name for its static files: ``LIMES_RELEASE``, else a hash of them all.

    Any change to a static file changes it, and with it the service worker's text, which is
    how browsers learn of a new release. Worked out once a process (every file is read),
    except under DEBUG, where files change while the server runs.
    """
    if settings.LIMES_RELEASE:
        return str(settings.LIMES_RELEASE)
    if settings.DEBUG:
        return _static_hash()
    return _static_hash_cached()


def _static_hash() -> str:
    digest = hashlib.sha256()
    files: dict[str, str] = {}
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            files.setdefault(path, storage.path(path))
    for path in sorted(files):
        digest.update(path.encode())
        with open(files[path], "rb") as file:
            digest.update(hashlib.sha256(file.read()).digest())
    return digest.hexdigest()[:16]


@cache
def _static_hash_cached() -> str:
    return _static_hash()


def _language(request: HttpRequest) -> str:
    """The ``lang`` asked for if the site speaks it, else the request's language.

    Browsers fetch the manifest without cookies, so the page names its language in the link.
    """
    asked = request.GET.get("lang", "")
    if asked in dict(settings.LANGUAGES):
        return asked
    return translation.get_language()


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: name, icons and colours of the site installed as an app."""
    language = _language(request)
    with translation.override(language):
        body = {
            "name": gettext("Limes Online"),
            "short_name": "Limes",
            "description": gettext(
                "Limes Online is free software for playing the card game Limes in the browser."
            ),
            "lang": language,
            "dir": "rtl" if translation.get_language_bidi() else "ltr",
            "id": "/",
            "start_url": reverse("games:home"),
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOR,
            "background_color": BACKGROUND_COLOR,
            "icons": [
                {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
                {
                    "src": static("icons/icon-maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
            ],
        }
    return HttpResponse(json.dumps(body), content_type="application/manifest+json")


@require_safe
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served at the root so that its scope is the whole site."""
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    config = {
        "version": static_version(),
        "staticPrefix": prefix,
        "offlineUrl": reverse("offline"),
        "precache": [static(path) for path in OFFLINE_ASSETS],
        # The picture of a push notification (templates/installable/sw.js).
        "icon": static("icons/icon-192.png"),
    }
    response = render(
        request,
        "installable/sw.js",
        {"config": json.dumps(config)},
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page a navigation shows with no network: the same for everyone, signed in or not."""
    return render(request, "installable/offline.html")
