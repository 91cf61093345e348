"""A person plays a whole Winter game against three computers, by keyboard, no reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory
from wintergames.models import WinterGame

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

YOUR_TURN_OR_OVER = """() => {
  const board = document.querySelector("#winter-board");
  return board && (board.dataset.status !== "running" || board.querySelector("#winter-draft"));
}"""


def test_a_person_plays_three_computers_to_the_end_by_keyboard(
    page: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    UserFactory(username="ana")
    sign_in(page, base, "ana")
    page.goto(f"{base}/winter/")
    page.select_option("select[name=players]", "4")
    page.select_option("select[name=computers]", "3")
    page.select_option("select[name=level]", "easy")
    page.click("[data-testid=winter-create]")
    page.wait_for_url(f"{base}/winter/games/*/")
    settle(page)
    page.evaluate("window.sameDocument = true")
    expect(page.locator("[data-testid=winter-status]")).to_contain_text("Your turn")
    page.screenshot(path=str(artifacts / "winter-start.png"))

    turns = 0
    while True:
        # The computers' turns come in through the stream (or the poll): wait for ours.
        page.wait_for_function(YOUR_TURN_OR_OVER)
        settle(page)
        if page.locator("[data-testid=winter-board]").get_attribute("data-status") != "running":
            break
        version = page.locator("[data-testid=winter-board]").get_attribute("data-version")
        # The first legal place (an arrow with no draft), a follower now and then, Enter.
        page.keyboard.press("ArrowRight")
        if turns % 3 == 0:
            page.keyboard.press("f")
        expect(page.locator("[data-testid=winter-commit]")).to_be_enabled()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "v => document.querySelector('#winter-board').dataset.version !== v", arg=version
        )
        turns += 1
        assert turns < 60

    settle(page)
    assert page.evaluate("window.sameDocument") is True  # no reload all game long
    expect(page.locator("[data-testid=winter-status]")).to_contain_text("The game is over")
    expect(page.locator("[data-testid=winter-final]")).to_be_visible()
    page.screenshot(path=str(artifacts / "winter-end.png"), full_page=True)
    game = WinterGame.objects.get()
    assert game.status == WinterGame.Status.FINISHED
    assert {seat.place for seat in game.seats.all()} <= {1, 2, 3, 4}
    assert 15 <= turns <= 25
