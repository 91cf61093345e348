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
