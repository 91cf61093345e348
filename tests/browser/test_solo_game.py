"""A person signs up and plays a whole solo game by clicking, in a real browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games import rebuild
from games.models import Game, Move
from tests.browser.pages import click_and_wait, settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_up(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", "ana")
    page.fill("input[name=email]", "ana@example.com")
    page.fill("input[name=password1]", "limes-ana-2014")
    page.fill("input[name=password2]", "limes-ana-2014")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/")


def test_sign_up_and_play_a_whole_solo_game_with_both_variants(
    page: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    sign_up(page, base)
    page.check("input[name=diagonal]")
    page.check("input[name=ferryman]")
    page.click("[data-testid=start-solo]")
    page.wait_for_url(f"{base}/games/*/")

    moved = False
    for round_number in range(1, 17):
        assert page.locator("[data-testid=round]").inner_text() == f"Round {round_number} of 16"
        if round_number % 3 == 0:  # turn the card with the keyboard now and then
            page.keyboard.press("r")
            page.wait_for_url("**rot=90**")
            # The redrawn board turns on from 90 degrees.
            page.locator('[data-key=rotate][href*="rot=180"]').wait_for()
            settle(page)
        click_and_wait(page, page.locator("[data-slot]").last, ".card--draft")
        sources = page.locator("[data-role=source]")
        if round_number >= 3 and not moved and sources.count():
            click_and_wait(page, sources.first, "[data-role=target]")
            click_and_wait(page, page.locator("[data-role=target]").first, "[data-role=selected]")
            moved = True
        elif round_number <= 7:
            click_and_wait(page, page.locator("[data-role=place]").first, "[data-role=selected]")
        settle(page)
        page.locator("[data-key=commit]").click()
        expect = "[data-testid=final-result]" if round_number == 16 else "[data-testid=round]"
        page.locator(expect).wait_for()
        if round_number < 16:
            page.get_by_text(f"Round {round_number + 1} of 16", exact=True).wait_for()

    game = Game.objects.get()
    assert game.is_finished and (game.diagonal, game.ferryman) == (True, True)
    assert moved and Move.objects.filter(seat__game=game, worker="move").exists()
    # The score on the page is the one the rules compute from the stored moves.
    stored = rebuild.rules_game(game).scores()[User.objects.get().username]
    shown = page.locator("[data-testid=score-total]").first.inner_text()
    assert int(shown) == stored.total
    assert f"Final score {stored.total}" in page.locator("[data-testid=final-result]").inner_text()
    page.screenshot(path=str(artifacts / "solo-game-finished.png"), full_page=True)
