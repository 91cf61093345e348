"""The site as an installable app: its manifest, icons, service worker and offline page."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.pages import csp_policy

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    """Width and height from a PNG's header chunk."""
    header = Path(path).read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_the_manifest_names_the_app_and_how_it_opens(client: Client) -> None:
    response = client.get(reverse("manifest"))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Limes Online"
    assert manifest["short_name"] == "Limes"
    assert "card game Limes" in manifest["description"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["lang"] == "en"
    assert manifest["theme_color"].startswith("#")
    assert manifest["background_color"].startswith("#")


def test_the_manifest_speaks_the_language_of_the_page_that_links_it(client: Client) -> None:
    # Browsers fetch the manifest without cookies: the link names the page's language.
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    link = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=de">' in link

    manifest = Client().get("/manifest.webmanifest?lang=de").json()

    assert manifest["lang"] == "de"
    assert manifest["description"].startswith("Limes Online ist")


@pytest.mark.parametrize("lang", ["xx", "", "../../etc", "de" * 500])
def test_a_language_the_site_does_not_speak_gets_the_default(client: Client, lang: str) -> None:
    response = client.get(reverse("manifest"), {"lang": lang})

    assert response.status_code == 200
    assert response.json()["lang"] == settings.LANGUAGE_CODE


def test_the_icons_exist_in_the_sizes_the_manifest_states(client: Client) -> None:
    icons = client.get(reverse("manifest")).json()["icons"]

    stated = {(icon["sizes"], icon.get("purpose", "any")) for icon in icons}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= stated
    for icon in icons:
        assert icon["type"] == "image/png"
        path = finders.find(icon["src"].removeprefix(settings.STATIC_URL))
        assert path, f"{icon['src']} is missing"
        width, height = png_size(path)
        assert f"{width}x{height}" == icon["sizes"]


@pytest.mark.parametrize("url", ["/", "/lobby/", "/accounts/login/", "/no-such-page/"])
def test_every_page_links_the_manifest_and_the_worker_script(client: Client, url: str) -> None:
    page = client.get(url).content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest' in page
    assert 'data-service-worker="/sw.js"' in page


def test_the_service_worker_is_javascript_allowed_the_whole_site(client: Client) -> None:
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    # Browsers check for a new worker on their own schedule; no cache may delay a release.
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_service_worker_changes_with_the_release(client: Client, settings: object) -> None:
    settings.LIMES_RELEASE = "2026.06.1"  # type: ignore[attr-defined]
    first = client.get("/sw.js").content
    settings.LIMES_RELEASE = "2026.06.2"  # type: ignore[attr-defined]
    second = client.get("/sw.js").content

    assert b'"version": "2026.06.1"' in first
    assert b'"version": "2026.06.2"' in second


def test_without_a_release_name_the_version_is_a_hash_of_the_static_files(client: Client) -> None:
    body = client.get("/sw.js").content.decode()

    version = json.loads(body.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])["version"]
    assert len(version) == 16
    assert int(version, 16) >= 0


def test_the_offline_page_is_the_same_for_everyone(client: Client, user: User) -> None:
    anonymous = client.get(reverse("offline"))
    client.force_login(user)
    signed_in = client.get(reverse("offline"))

    assert anonymous.status_code == 200
    assert "Your games are safe on the server" in anonymous.content.decode()
    # It is cached once for every page of whoever installed the worker: no name, no token.
    assert user.username not in signed_in.content.decode()
    assert "csrfmiddlewaretoken" not in signed_in.content.decode()
    assert anonymous.content == signed_in.content


def test_the_offline_page_is_translated(client: Client) -> None:
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})

    page = client.get(reverse("offline")).content.decode()

    assert '<html lang="fr">' in page
    assert "Vos parties sont en sécurité sur le serveur" in page


@pytest.mark.parametrize("url", ["/manifest.webmanifest", "/sw.js", "/offline/"])
def test_the_new_addresses_keep_the_content_security_policy(client: Client, url: str) -> None:
    policy = csp_policy(client.get(url))

    assert policy["default-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["script-src"]


@pytest.mark.parametrize("url", ["/manifest.webmanifest", "/sw.js", "/offline/"])
def test_the_new_addresses_refuse_a_post(client: Client, url: str) -> None:
    assert client.post(url).status_code == 405
