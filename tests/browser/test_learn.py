"""A newcomer on a phone plays the first two lessons of /learn/ with the keyboard alone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.pages import settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def explained(page: Any) -> str:
    settle(page)
    page.locator("[data-testid=explanation] p").wait_for()
    text: str = page.locator("[data-testid=explanation]").inner_text()
    return text


def test_the_first_two_lessons_by_keyboard_at_phone_width(browser: Any, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/learn/1/")
        assert "Step 1 of 9" in page.locator("[data-testid=progress]").inner_text()
        # Lesson 1: turn the card once (R), put it on slot 4, below the lake, and commit.
        settle(page)
        page.keyboard.press("r")
        settle(page)
        page.keyboard.press("4")
        page.locator(".card--draft").wait_for()
        settle(page)
        page.keyboard.press("Enter")
        assert explained(page).startswith("Right!")
        assert "the lake now has 2 zones" in explained(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        # Enter goes on to the next lesson.
        page.keyboard.press("Enter")
        page.wait_for_url(f"{live_server.url}/learn/2/")
        assert "Step 2 of 9" in page.locator("[data-testid=progress]").inner_text()
        # Lesson 2: a wrong move first (no farmer), refused, then the field made large
        # with a farmer on it: the refused card stays on slot 3, so R turns it there, then
        # P to the first zone of the new card, Space, Enter.
        settle(page)
        page.keyboard.press("3")
        page.locator(".card--draft").wait_for()
        settle(page)
        page.keyboard.press("Enter")
        assert explained(page).startswith("Not yet.")
        assert page.locator("[data-testid=next]").count() == 0
        settle(page)
        page.keyboard.press("r")
        settle(page)
        page.locator(".card--draft").wait_for()
        page.keyboard.press("p")
        page.keyboard.press(" ")
        page.locator(".zone--selected").wait_for()
        settle(page)
        page.keyboard.press("Enter")
        text = explained(page)
        assert text.startswith("Right!") and "Your farmer scores 4" in text
    finally:
        context.close()


def test_not_yet_keeps_the_card_where_the_learner_put_it(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/learn/2/")
    settle(page)
    page.keyboard.press("3")
    page.locator(".card--draft").wait_for()
    settle(page)
    page.keyboard.press("Enter")
    assert explained(page).startswith("Not yet.")
    # The card stays on slot 3 to be turned or moved, not taken back into the hand.
    assert page.locator(".card--draft").count() == 1
    assert page.locator("[data-testid=commit]").is_enabled()
    # A reload shows the same draft.
    page.reload()
    settle(page)
    assert page.locator(".card--draft").count() == 1


def test_show_me_keeps_keyboard_focus(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/learn/1/")
    settle(page)
    page.locator("[data-testid=show-me]").focus()
    page.keyboard.press("Enter")
    page.locator(".card--draft").wait_for()
    settle(page)
    focused = page.evaluate("document.activeElement.dataset.testid || ''")
    assert focused == "show-me"


@pytest.mark.parametrize("locale", ["cs-CZ", "fr-FR"])
def test_show_me_fits_a_phone(browser: Any, live_server: Any, locale: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/learn/1/")
        settle(page)
        fits = """() => {
            const el = document.querySelector('[data-testid=show-me]');
            const box = el.getBoundingClientRect();
            return {left: box.left, right: box.right, clipped: el.scrollWidth > el.clientWidth,
                    page: document.documentElement.scrollWidth};
        }"""
        for _ in range(2):  # as drawn, then with the card placed (Commit enabled)
            found = page.evaluate(fits)
            assert found["left"] >= 0 and found["right"] <= 390, found
            assert not found["clipped"] and found["page"] <= 390, found
            page.keyboard.press("1")
            page.locator(".card--draft").wait_for()
            settle(page)
    finally:
        context.close()
