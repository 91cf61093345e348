"""A friend request from a profile, accepted; a challenge, accepted: the two play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.pages import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_friends_meet_on_a_profile_and_play_a_challenge(
    browser: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    UserFactory(username="ana")
    UserFactory(username="ben")
    contexts = [browser.new_context(viewport={"width": 1024, "height": 800}) for _ in range(2)]
    ana, ben = (context.new_page() for context in contexts)
    try:
        for page, name in ((ana, "ana"), (ben, "ben")):
            page.set_default_timeout(15_000)
            sign_in(page, base, name)

        ana.goto(f"{base}/players/ben/")
        ana.click("[data-testid=befriend-ben]")
        expect(ana.locator("[data-testid=request-sent]")).to_be_visible()

        ben.goto(f"{base}/")
        ben.click("[data-testid=nav-friends]")
        expect(ben.locator("[data-testid=request-received]")).to_contain_text("ana")
        ben.click("[data-testid=accept-ana]")
        expect(ben.locator("[data-testid=friend]")).to_contain_text("ana")

        # Ben challenges Ana to a diagonal game with the keyboard alone.
        ben.locator("[data-testid=challenge-ana]").focus()
        ben.keyboard.press("Enter")
        ben.locator("select[name=round_seconds]").select_option("300")
        ben.locator("input[name=diagonal]").check()
        ben.locator("[data-testid=send-challenge-ana]").press("Enter")
        expect(ben.locator("[data-testid=challenge-sent]")).to_contain_text("ana")
        ben.screenshot(path=str(artifacts / "friends-page.png"), full_page=True)

        ana.goto(f"{base}/friends/")
        ana.click("[data-testid=accept-challenge]")
        ana.wait_for_url(f"{base}/games/*/")
        game = Game.objects.get()
        assert (game.status, game.diagonal, game.round_seconds) == ("active", True, 300)
        expect(ana.locator("[data-testid=round]")).to_have_text("Round 1 of 16")
        ben.goto(f"{base}/friends/")
        expect(ben.locator("[data-testid=playing-now]")).to_contain_text("ana")
    finally:
        for context in contexts:
            context.close()
