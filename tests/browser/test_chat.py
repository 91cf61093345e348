"""Two players chat beside their board: typed text and a quick phrase, each seen by the other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import sign_in
from tests.factories import UserFactory, started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_chat_during_their_game(
    browser: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = started_game([ana, ben])
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    # Ben reads on a phone.
    contexts[1] = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    ana_page, ben_page = (context.new_page() for context in contexts)
    try:
        for page, name in ((ana_page, "ana"), (ben_page, "ben")):
            page.set_default_timeout(15_000)
            sign_in(page, base, name)
            page.goto(f"{base}/games/{game.pk}/")
            page.locator("[data-testid=chat-input]").wait_for()

        # Ana types with the keyboard alone: the message goes with Enter.
        ana_page.locator("[data-testid=chat-input]").fill("Hi Ben <3, good luck!")
        ana_page.locator("[data-testid=chat-input]").press("Enter")
        expect(ana_page.locator("[data-testid=chat-message]")).to_have_count(1)
        expect(ana_page.locator("[data-testid=chat-input]")).to_have_value("")

        # Ben's panel fetches it by itself, escaped as plain text.
        message = ben_page.locator("[data-testid=chat-message]")
        expect(message).to_have_count(1)
        expect(message).to_contain_text("ana: Hi Ben <3, good luck!")

        # A quick phrase with one tap; Ana sees it arrive.
        ben_page.locator("[data-testid=phrase-thanks]").tap()
        expect(ben_page.locator("[data-testid=chat-message]")).to_have_count(2)
        expect(ana_page.locator("[data-testid=chat-message]").last).to_contain_text("ben: Thanks!")
        ben_page.screenshot(path=str(artifacts / "chat-phone.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
