"""A person plays a whole Winter game against three computers, by keyboard, no reload."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import winter
from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory
from wintergames import services
from wintergames.models import WinterGame, WinterTurn

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


IN_BOARD = "() => !!document.activeElement.closest('.w-svg')"
FOCUSED = "() => document.activeElement.getAttribute('class')"


def test_the_board_is_one_tab_stop_with_the_arrows_inside(page: Any, live_server: Any) -> None:
    base = live_server.url
    ana = UserFactory(username="ana")
    game = services.game_create(
        user=ana, players=2, computers=1, level="easy", farmers=True, pace="untimed", seed=5
    )
    sign_in(page, base, "ana")
    page.goto(f"{base}/winter/games/{game.pk}/")
    settle(page)
    stops = page.locator(".w-svg [tabindex='0']")
    expect(stops).to_have_count(1)
    assert page.locator(".w-svg .w-place").count() > 1 and page.locator(".w-seg").count() > 1

    # One Tab from the zoom buttons enters the board, the next one leaves it.
    page.locator("[data-zoom=fit]").focus()
    page.keyboard.press("Tab")
    assert page.evaluate(IN_BOARD)
    page.keyboard.press("Tab")
    assert not page.evaluate(IN_BOARD)
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(IN_BOARD)

    # The arrows choose a place and the focus follows it; the choice is said in words.
    page.keyboard.press("ArrowRight")
    assert "w-place--chosen" in page.evaluate(FOCUSED)
    say = page.locator("[data-testid=winter-say]")
    expect(say).to_contain_text("Place (")
    expect(say).to_contain_text("No follower.")
    expect(stops).to_have_count(1)
    # Shift and an arrow look at the features already laid; a plain arrow goes back.
    page.keyboard.press("Shift+ArrowUp")
    assert page.evaluate(FOCUSED).startswith("w-seg")
    expect(page.locator("[data-testid=winter-feature-info]")).to_contain_text("at stake")
    page.keyboard.press("ArrowLeft")
    assert "w-place" in page.evaluate(FOCUSED)

    # F takes a follower, named in words on its button; Enter commits it.
    for _ in range(4):
        page.keyboard.press("r")
        if page.locator("[data-followers] [data-follower]").count():
            break
    page.keyboard.press("f")
    chosen = page.locator("[data-followers] [aria-pressed=true]")
    words = chosen.inner_text()
    assert re.search(r"knight|thief|monk|farmer", words), words
    expect(say).to_contain_text(f"{words}: ")
    follower = page.locator("input[name=follower]").input_value()
    assert follower in winter.FOLLOWER_PLACES
    version = page.locator("[data-testid=winter-board]").get_attribute("data-version")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => document.querySelector('#winter-board').dataset.version !== v", arg=version
    )
    first = WinterTurn.objects.filter(game=game).order_by("number").first()
    assert first is not None and first.entry["follower"] == follower

    # A first game points to the guide until the player hides the hint for good.
    hint = page.locator("[data-testid=winter-first-game]")
    hint.get_by_role("button").click()
    expect(hint).to_have_count(0)
    page.reload()
    settle(page)
    expect(hint).to_have_count(0)


def test_on_a_phone_the_bar_holds_the_follower_words(browser: Any, live_server: Any) -> None:
    base = live_server.url
    ana = UserFactory(username="ana")
    game = services.game_create(
        user=ana, players=2, computers=1, level="easy", farmers=True, pace="untimed", seed=5
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    sign_in(page, base, "ana")
    page.goto(f"{base}/winter/games/{game.pk}/")
    settle(page)
    bar = page.locator("[data-testid=winter-bar]")
    places = page.locator(".w-place")
    for index in range(places.count()):
        places.nth(index).tap()
        if page.locator("[data-followers] [data-follower]").count():
            break
    buttons = page.locator("[data-followers] [data-follower]")
    assert buttons.count() > 1
    buttons.last.tap()
    expect(buttons.last).to_have_attribute("aria-pressed", "true")
    box = bar.bounding_box()
    assert box is not None and box["y"] + box["height"] >= 843 and box["height"] < 844 / 3
    for selector in ("[data-testid=winter-commit]", "[data-testid=winter-turn]"):
        expect(page.locator(selector)).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    version = page.locator("[data-testid=winter-board]").get_attribute("data-version")
    page.locator("[data-testid=winter-commit]").tap()
    page.wait_for_function(
        "v => document.querySelector('#winter-board').dataset.version !== v", arg=version
    )
    assert WinterTurn.objects.filter(game=game).exists()
    context.close()
