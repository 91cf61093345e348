"""The installed app in Chromium: the service worker registers, and with the network cut a
page shows our offline page, never a copy of a page the player saw before."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Resolves once a service worker controls the page (it claims the page it installs from).
_CONTROLLED = """async () => {
  const registration = await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener(
      "controllerchange", resolve, { once: true }));
  }
  return registration.scope;
}"""

_CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
  }
  return urls;
}"""


def controlled(page: Any) -> str:
    """Waits for the service worker to control the page; its scope."""
    return str(page.evaluate(_CONTROLLED))


def test_the_worker_registers_for_the_whole_site(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/lobby/")

    assert controlled(page) == f"{live_server.url}/"
    cached = page.evaluate(_CACHED_URLS)
    assert "/offline/" in cached
    assert "/static/css/site.css" in cached


def test_with_the_network_cut_a_page_shows_our_offline_page(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/")
    controlled(page)

    page.context.set_offline(True)
    page.goto(f"{live_server.url}/lobby/")

    expect(page.get_by_test_id("offline")).to_contain_text("Your games are safe on the server")
    # Its styles come from the worker's cache: the page is drawn, not bare text.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    page.context.set_offline(False)
    page.reload()
    expect(page.get_by_test_id("offline")).to_have_count(0)


def test_a_personal_page_seen_online_is_not_shown_from_a_cache(page: Any, live_server: Any) -> None:
    player = UserFactory(username="pia")
    sign_in(page, live_server.url, player.username)
    controlled(page)
    page.goto(f"{live_server.url}/players/settings/")
    expect(page.locator("main")).to_be_visible()
    page.goto(f"{live_server.url}/api/v1/openapi.json")

    cached = page.evaluate(_CACHED_URLS)
    assert all(url.startswith("/static/") or url == "/offline/" for url in cached), cached

    page.context.set_offline(True)
    page.goto(f"{live_server.url}/players/settings/")
    expect(page.get_by_test_id("offline")).to_be_visible()
    assert "pia" not in page.content()


#: Asks for the worker again and waits (10 s at most) for the caches to be ``cacheName`` only.
_UPDATED = """async (cacheName) => {
  const registration = await navigator.serviceWorker.getRegistration();
  await registration.update();
  let names = [];
  for (let tries = 0; tries < 100; tries += 1) {
    names = await caches.keys();
    if (names.length === 1 && names[0] === cacheName) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return names;
}"""


def test_a_new_release_replaces_the_worker_and_its_cache(
    page: Any, live_server: Any, settings: Any
) -> None:
    settings.LIMES_RELEASE = "2026.06.1"
    page.goto(f"{live_server.url}/")
    controlled(page)
    assert page.evaluate("caches.keys()") == ["limes-static-2026.06.1"]

    settings.LIMES_RELEASE = "2026.06.2"
    # The new worker takes over without waiting for the tab to close, and drops the old copies.
    assert page.evaluate(_UPDATED, "limes-static-2026.06.2") == ["limes-static-2026.06.2"]
    page.context.set_offline(True)
    page.goto(f"{live_server.url}/lobby/")
    expect(page.get_by_test_id("offline")).to_be_visible()
