"""Helpers shared by the browser tests."""

from __future__ import annotations

from typing import Any

from tests.factories import PASSWORD


def sign_in(page: Any, base: str, username: str) -> None:
    """Sign in through the form, as a player would, and land on the front page."""
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/")


#: True once the page's scripts have run and htmx has no request, swap or settle under way.
_SETTLED = """() => document.readyState === "complete"
  && !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")"""


def settle(page: Any) -> None:
    """Wait until the board is the one the server last drew, and live.

    A request's indicator goes before htmx has settled what it swapped in (its links and
    forms work only after that), and a form sent without htmx reloads the whole page, whose
    scripts load after its text shows: a key pressed in either gap is lost.
    """
    page.wait_for_function(_SETTLED)


def click_and_wait(page: Any, locator: Any, expect: str) -> None:
    """Click ``locator`` once the page is settled, and wait for ``expect`` to show."""
    settle(page)
    locator.click()
    page.locator(expect).first.wait_for()
    settle(page)


def play_round(page: Any, place_worker: bool) -> None:
    """Put the card on the last slot (and a worker on the first zone offered), commit."""
    settle(page)
    page.locator("[data-slot]").last.click()
    page.locator(".card--draft").first.wait_for()
    settle(page)
    if place_worker:
        page.locator("[data-role=place]").first.click()
        page.locator("[data-role=selected]").first.wait_for()
        settle(page)
    page.locator("[data-key=commit]").click()
