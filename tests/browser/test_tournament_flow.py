"""A live tournament carries its entrants along: from its page to the first card when it
starts, and from a finished deal to the next, without a reload."""

from __future__ import annotations

import datetime
import re
import time
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.pages import play_round, settle, sign_in
from tests.factories import UserFactory, play_turn
from tournaments import services
from tournaments.models import Play, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def two_players(browser: Any) -> tuple[list[Any], list[Any]]:
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="Europe/Prague"),
        browser.new_context(viewport={"width": 390, "height": 844}),
    ]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(15_000)
    return contexts, pages


def test_the_start_takes_each_entrant_waiting_on_the_page_to_the_first_card(
    browser: Any, live_server: Any
) -> None:
    base = live_server.url
    players = [UserFactory(username="ana"), UserFactory(username="ben")]
    contexts, (ana, ben) = two_players(browser)
    try:
        sign_in(ana, base, "ana")
        sign_in(ben, base, "ben")
        tournament = services.tournament_create(
            name="Live night",
            ruleset="standard",
            deal_count=1,
            # Time for both pages to load and show the countdown, on a busy machine too.
            starts_at=timezone.now() + datetime.timedelta(seconds=20),
            format=Tournament.Format.LIVE,
            round_seconds=120,
        )
        for player in players:
            services.tournament_join(tournament=tournament, user=player)
        for page in (ana, ben):
            page.goto(f"{base}/tournaments/{tournament.pk}/")
            expect(page.locator("[data-testid=countdown]")).to_contain_text("Starts in")
        # The times also in the visitor's zone: 2 h ahead of UTC in Prague in summer
        # (or 1 h in winter), as the browser's clock says.
        expect(ana.locator("[data-testid=local-times]")).to_be_visible()
        assert not Play.objects.exists()
        # Nobody reloads or clicks: at the start both pages go to their games.
        wait = (tournament.starts_at - timezone.now()).total_seconds()
        started = time.monotonic() + max(0.0, wait)
        for page in (ana, ben):
            expect(page.locator("[data-testid=round]")).to_have_text(
                "Round 1 of 16", timeout=40_000
            )
            expect(page.locator("[data-testid=hand]")).to_be_visible()
        arrived = time.monotonic() - started
        print(f"start -> both players on card 1: {arrived:.1f} s")
        assert "/games/" in ana.url and "/games/" in ben.url
        play_round(ana, place_worker=False)
        expect(ana.locator("[data-testid=waiting]")).to_be_visible()
    finally:
        for context in contexts:
            context.close()


def test_a_finished_live_deal_leads_both_players_to_the_next_without_a_reload(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A shorter break before the next deal's first card: the pages go there when it is
    # over. Everything the test looks at on the finished deal's pages must be seen within
    # it, on a busy machine too (12 s was once too short for that in CI).
    monkeypatch.setattr(services, "LIVE_BREAK", 25)
    base = live_server.url
    users = [UserFactory(username="ana"), UserFactory(username="ben")]
    tournament = services.tournament_create(
        name="Live night",
        ruleset="standard",
        deal_count=2,
        starts_at=timezone.now() + datetime.timedelta(seconds=1),
        format=Tournament.Format.LIVE,
        round_seconds=120,
    )
    for player in users:
        services.tournament_join(tournament=tournament, user=player)
    time.sleep(1.2)
    assert services.live_advance(tournament=tournament)

    def game(user: Any, number: int) -> Any:
        return Play.objects.get(entrant__user=user, deal__number=number).game

    # The first fifteen cards of deal 1, played through the service.
    for _card in range(15):
        for user in users:
            play_turn(game(user, 1), user)
    contexts, (ana, ben) = two_players(browser)
    try:
        sign_in(ana, base, "ana")
        sign_in(ben, base, "ben")
        for page, user in ((ana, users[0]), (ben, users[1])):
            page.goto(f"{base}/games/{game(user, 1).pk}/")
            expect(page.locator("[data-testid=round]")).to_have_text("Round 16 of 16")
            expect(page.locator("[data-testid=game-title]")).to_contain_text(
                "Live night, deal 1 of 2"
            )
        # Ben's last card ends his deal; his page says the table plays on.
        play_round(ben, place_worker=False)
        expect(ben.locator("[data-testid=live-next]")).to_contain_text(
            "The others are still playing deal 1"
        )
        expect(ben.locator("[data-testid=duplicate]")).to_contain_text("No one else has played")
        settle(ben)
        play_round(ana, place_worker=False)
        # Ana's last card ended the deal: her page says at once that deal 2 runs, when its
        # first card comes (after the break, not a card's clock that counts the break in),
        # and the way there.
        notice = ana.locator("[data-testid=live-next]")
        expect(notice).to_contain_text("Deal 2 of 2 is running.", timeout=10_000)
        expect(notice.locator("[data-testid=break]")).to_be_visible()
        expect(notice.locator("[data-deadline]")).to_have_count(0)
        expect(ana.locator("[data-testid=next-game]")).to_be_visible()
        expect(ana).to_have_title(re.compile(r"^● Your game is dealt"))
        # Ben's page, finished first, hears of it too: deal 2 is announced. (His deal's
        # comparison fills when the tournament ends: a sealed deal's results count on no
        # table before; the standings compare those who finished it.)
        expect(ben.locator("[data-testid=next-game]")).to_be_visible(timeout=15_000)
        # After the break both are on the next deal's first card, without a reload.
        for page, user in ((ana, users[0]), (ben, users[1])):
            page.wait_for_url(f"{base}/games/{game(user, 2).pk}/", timeout=30_000)
            expect(page.locator("[data-testid=round]")).to_have_text("Round 1 of 16")
            expect(page.locator("[data-testid=game-title]")).to_contain_text(
                "Live night, deal 2 of 2"
            )
            expect(page.locator("[data-testid=hand]")).to_be_visible()
    finally:
        for context in contexts:
            context.close()
