"""The Winter board zooms by keys and by two fingers, as players of a growing board need."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory
from wintergames import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _width(page: Any) -> float:
    box = page.locator("[data-testid=winter-svg]").get_attribute("viewBox")
    return float(box.split()[2])


def _touch(cdp: Any, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)],
        },
    )


def test_keys_and_a_pinch_zoom_the_board(browser: Any, live_server: Any) -> None:
    base = live_server.url
    ana = UserFactory(username="ana")
    game = services.game_create(
        user=ana, players=2, computers=1, level="easy", farmers=True, pace="untimed", seed=5
    )
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    sign_in(page, base, "ana")
    page.goto(f"{base}/winter/games/{game.pk}/")
    settle(page)
    whole = _width(page)

    page.keyboard.press("+")
    closer = _width(page)
    assert closer < whole
    page.keyboard.press("-")
    page.keyboard.press("-")
    assert _width(page) > closer
    page.keyboard.press("0")
    assert _width(page) == whole

    # Two fingers spread apart on the board: it comes closer; brought together: it goes away.
    box = page.locator("[data-testid=winter-svg]").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = context.new_cdp_session(page)
    _touch(cdp, "touchStart", [(cx - 20, cy), (cx + 20, cy)])
    _touch(cdp, "touchMove", [(cx - 60, cy), (cx + 60, cy)])
    _touch(cdp, "touchEnd", [])
    pinched = _width(page)
    assert pinched < whole * 0.6
    _touch(cdp, "touchStart", [(cx - 60, cy), (cx + 60, cy)])
    _touch(cdp, "touchMove", [(cx - 30, cy), (cx + 30, cy)])
    _touch(cdp, "touchEnd", [])
    assert _width(page) > pinched * 1.5
    # The pinch chose no place: nothing is drafted.
    expect(page.locator("[data-testid=winter-commit]")).to_be_disabled()
    context.close()
