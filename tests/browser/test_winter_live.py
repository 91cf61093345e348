"""Two people play a live Winter game to its end: one at a desktop by keyboard, the
other on a 390 px phone by taps on the board and the bottom bar."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory
from wintergames.models import WinterGame

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MINE_OR_OVER = """() => {
  const board = document.querySelector("#winter-board");
  return board && (board.dataset.status !== "running" || board.querySelector("#winter-draft"));
}"""


def _version(page: Any) -> str:
    return str(page.locator("[data-testid=winter-board]").get_attribute("data-version"))


def _over(page: Any) -> bool:
    status = page.locator("[data-testid=winter-board]").get_attribute("data-status")
    return bool(status == "finished")


def test_two_people_play_live_by_keyboard_and_by_phone_taps(
    browser: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    UserFactory(username="ana")
    UserFactory(username="ben")
    desk = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    ).new_page()
    for page in (desk, phone):
        page.set_default_timeout(15_000)
    sign_in(desk, base, "ana")
    sign_in(phone, base, "ben")

    desk.goto(f"{base}/winter/")
    desk.select_option("select[name=players]", "2")
    desk.select_option("select[name=computers]", "0")
    desk.select_option("select[name=pace]", "live")
    desk.click("[data-testid=winter-create]")
    desk.wait_for_url(f"{base}/winter/games/*/")
    game = WinterGame.objects.get()
    expect(desk.locator("[data-testid=winter-status]")).to_contain_text("Waiting for players")

    phone.goto(f"{base}/winter/")
    phone.locator("[data-testid=winter-open] a").first.click()
    phone.locator("[data-testid=winter-join]").click()
    phone.wait_for_url(f"{base}/winter/games/{game.pk}/")
    # Ana's page hears that the game started, without a reload.
    expect(desk.locator("[data-testid=winter-status]")).to_contain_text("Your turn")
    # The tab says whose move it is, as Limes' does (static/js/yourmove.mjs).
    expect(desk).to_have_title(re.compile(r"^● Your move · "))
    expect(phone).not_to_have_title(re.compile("Your move"))
    for page in (desk, phone):
        page.evaluate("window.sameDocument = true")

    turns = 0
    while True:
        mover = desk if turns % 2 == 0 else phone
        mover.wait_for_function(MINE_OR_OVER)
        settle(mover)
        if _over(mover):
            break
        version = _version(mover)
        if mover is desk:
            mover.keyboard.press("ArrowDown")
            mover.keyboard.press("r")
            expect(mover.locator("[data-testid=winter-commit]")).to_be_enabled()
            mover.keyboard.press("Enter")
        else:
            bar = mover.locator("[data-testid=winter-bar]")
            if turns == 1:
                expect(bar).to_be_in_viewport()
                box = bar.bounding_box()
                assert box is not None and box["y"] + box["height"] >= 843  # at the bottom
                mover.screenshot(path=str(artifacts / "winter-phone.png"))
            mover.locator(".w-place").first.tap()
            expect(mover.locator("[data-testid=winter-commit]")).to_be_enabled()
            mover.locator("[data-testid=winter-commit]").tap()
        mover.wait_for_function(
            "v => document.querySelector('#winter-board').dataset.version !== v", arg=version
        )
        if turns == 0:  # the move passed on: so did the title
            expect(phone).to_have_title(re.compile(r"^● Your move · "))
            expect(desk).not_to_have_title(re.compile("Your move"))
        turns += 1
        assert turns <= 83

    for page in (desk, phone):
        page.wait_for_function(
            "() => document.querySelector('#winter-board').dataset.status === 'finished'"
        )
        assert page.evaluate("window.sameDocument") is True
        expect(page.locator("[data-testid=winter-status]")).to_contain_text("The game is over")
    desk.screenshot(path=str(artifacts / "winter-live-end.png"), full_page=True)
    game.refresh_from_db()
    assert game.status == WinterGame.Status.FINISHED
    assert sorted(seat.place or 0 for seat in game.seats.all()) in ([1, 2], [1, 1])
    desk.context.close()
    phone.context.close()
