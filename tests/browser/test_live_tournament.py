"""A live tournament in two browsers: both on the same card, the next dealt to both at once."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.pages import play_round, settle, sign_in
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_entrants_play_a_live_deal_card_by_card(
    browser: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    players = [UserFactory(username="ana"), UserFactory(username="ben")]
    tournament = services.tournament_create(
        name="Live night",
        ruleset="standard",
        deal_count=1,
        # It has just begun: the first look at its page deals the first deal.
        starts_at=timezone.now() + datetime.timedelta(seconds=1),
        format=Tournament.Format.LIVE,
        round_seconds=120,
    )
    for player in players:
        services.tournament_join(tournament=tournament, user=player)
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 900}),
        browser.new_context(viewport={"width": 390, "height": 844}),
    ]
    ana, ben = (context.new_page() for context in contexts)
    for page in (ana, ben):
        page.set_default_timeout(15_000)
    try:
        sign_in(ana, base, "ana")
        sign_in(ben, base, "ben")
        ana.wait_for_timeout(1_200)
        for page in (ana, ben):
            page.goto(f"{base}/tournaments/{tournament.pk}/")
            expect(page.locator("[data-testid=live-status]")).to_contain_text("card 1 of 16")
            page.click("[data-testid=live-game]")
            expect(page.locator("[data-testid=round]")).to_have_text("Round 1 of 16")

        play_round(ana, place_worker=True)
        # Ana waits for Ben: her page says how many are still to play, and shows no card.
        expect(ana.locator("[data-testid=waiting]")).to_be_visible()
        expect(ana.locator("[data-testid=live-waiting]")).to_contain_text("1")
        expect(ana.locator("[data-testid=hand]")).to_have_count(0)
        ana.screenshot(path=str(artifacts / "live-table-waiting.png"), full_page=True)

        play_round(ben, place_worker=False)
        # Ben's card dealt the next one to both: Ben at once, Ana without a reload.
        for page in (ana, ben):
            expect(page.locator("[data-testid=round]")).to_have_text("Round 2 of 16")
            expect(page.locator("[data-testid=hand]")).to_be_visible()
            settle(page)
        width = ben.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
    finally:
        for context in contexts:
            context.close()
