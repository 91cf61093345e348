"""Two players of a Winter game chat beside its board, each message seen without a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import sign_in
from tests.factories import UserFactory
from wintergames import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_chat_during_their_winter_game(
    browser: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = services.game_create(
        user=ana, players=2, computers=0, level="", farmers=True, pace="untimed", seed=7
    )
    services.game_join(game_id=game.pk, user=ben)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ana_page, ben_page = (context.new_page() for context in contexts)
    try:
        for page, name in ((ana_page, "ana"), (ben_page, "ben")):
            page.set_default_timeout(15_000)
            sign_in(page, base, name)
            page.goto(f"{base}/winter/games/{game.pk}/")
            page.locator("[data-testid=winter-board]").wait_for()
            page.locator("[data-testid=chat-input]").wait_for()

        ana_page.locator("[data-testid=chat-input]").fill("Hi Ben <3, mind the cloister!")
        ana_page.locator("[data-testid=chat-input]").press("Enter")
        expect(ana_page.locator("[data-testid=chat-message]")).to_have_count(1)
        expect(ana_page.locator("[data-testid=chat-input]")).to_have_value("")

        # Ben's panel fetches it by itself, escaped as plain text, his page never reloaded.
        ben_page.evaluate("window.notReloaded = true")
        message = ben_page.locator("[data-testid=chat-message]")
        expect(message).to_have_count(1)
        expect(message).to_contain_text("ana: Hi Ben <3, mind the cloister!")
        assert ben_page.evaluate("window.notReloaded") is True

        # A quick phrase back; Ana sees it arrive, her board still in place beside it.
        ben_page.locator("[data-testid=phrase-thanks]").click()
        expect(ana_page.locator("[data-testid=chat-message]").last).to_contain_text("ben: Thanks!")
        expect(ana_page.locator("[data-testid=winter-board]")).to_be_visible()
        ana_page.screenshot(path=str(artifacts / "winter-chat.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
