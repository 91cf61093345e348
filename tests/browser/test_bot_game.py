"""A person plays a whole three-seat game against two computer players, with a hint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game, GameAnalysis
from tests.browser.pages import play_round, settle, sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOTS = ("Computer 2 (strong)", "Computer 3 (easy)")


def test_a_person_plays_two_bots_takes_a_hint_and_reads_the_analysis(
    page: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    UserFactory(username="ana")
    sign_in(page, base, "ana")

    # Ana opens a game for three with one strong computer; she adds an easy one herself.
    page.goto(f"{base}/lobby/")
    page.select_option("select[name=seats_max]", "3")
    page.check("input[name=pace][value=live]")
    page.select_option("select[name=bots]", "1")
    page.select_option("select[name=bot_level]", "strong")
    page.click("[data-testid=open-game]")
    page.wait_for_url(f"{base}/games/*/")
    expect(page.locator("[data-testid=seats]")).to_contain_text(BOTS[0])
    expect(page.locator("[data-testid=unrated]")).to_be_visible()
    page.select_option("#add-bot-level", "easy")
    page.locator("[data-testid=add-bot] button").click()

    # The last seat taken started the game; the computers have played round 1 already.
    expect(page.locator("[data-testid=round]")).to_have_text("Round 1 of 16")
    expect(page.locator("[data-testid=waiting-for]")).to_have_text("Still to play this round: ana")

    # A hint (key H) lays the strong computer's turn out as Ana's draft; she commits it.
    settle(page)
    page.keyboard.press("h")
    page.locator(".card--draft").first.wait_for()
    settle(page)
    page.locator("[data-key=commit]").click()
    for round_number in range(1, 17):
        if round_number > 1:
            play_round(page, place_worker=round_number <= 6)
        if round_number == 16:
            break
        expect(page.locator("[data-testid=round]")).to_have_text(
            f"Round {round_number + 1} of 16", timeout=15_000
        )
        for bot in BOTS:
            # Each computer's landscape has grown by the round just completed.
            cards = page.locator(f'[data-player="{bot}"] .card')
            expect(cards).to_have_count(round_number, timeout=15_000)

    expect(page.locator("[data-testid=final-seat]")).to_have_count(3, timeout=15_000)
    expect(page.locator("[data-testid=analysis-seat]")).to_have_count(1, timeout=30_000)
    expect(page.locator("[data-testid=accuracy]")).to_contain_text("accuracy")
    expect(page.locator("[data-testid=loss-chart]")).to_be_visible()
    # The table's poll sees the game over and reloads the page by itself: the heading,
    # drawn once per page, then says the game was assisted.
    expect(page.locator("h1 [data-testid=assisted]")).to_be_visible(timeout=15_000)
    expect(page.locator("[data-testid=analysis-seat]")).to_have_count(1)
    game = Game.objects.get()
    assert game.is_finished and game.assisted
    assert GameAnalysis.objects.get(game=game).status == GameAnalysis.Status.DONE
    page.screenshot(path=str(artifacts / "bot-game-finished.png"), full_page=True)
