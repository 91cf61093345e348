"""Two people in two browsers play a whole two-player game with the ferryman variant."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games import rebuild
from games.models import Game
from tests.browser.pages import play_round, sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_play_a_ferryman_game_against_each_other(
    browser: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    UserFactory(username="ana")
    UserFactory(username="ben")
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ana, ben = (context.new_page() for context in contexts)
    for page in (ana, ben):
        page.set_default_timeout(15_000)
    try:
        sign_in(ana, base, "ana")
        sign_in(ben, base, "ben")

        # Ana opens a live game for two with the ferryman; Ben finds it in the lobby.
        ana.goto(f"{base}/lobby/")
        ana.select_option("select[name=seats_max]", "2")
        ana.check("input[name=pace][value=live]")
        ana.check("input[name=ferryman]")
        ana.click("[data-testid=open-game]")
        ana.wait_for_url(f"{base}/games/*/")
        game = Game.objects.get()
        ana.locator("[data-testid=invite-code]").wait_for()
        ben.goto(f"{base}/lobby/")
        ben.click(f"[data-testid=join-{game.pk}]")
        ben.wait_for_url(f"{base}/games/{game.pk}/")

        # The last seat started the game: Ana's waiting room turns into the board by itself.
        for page in (ana, ben):
            expect(page.locator("[data-testid=round]")).to_have_text("Round 1 of 16")

        for round_number in range(1, 17):
            first, second = (ana, ben) if round_number % 2 else (ben, ana)
            # Ana puts out all her workers early, Ben only four: their scores differ.
            workers = {ana: 7, ben: 4}
            play_round(first, place_worker=round_number <= workers[first])
            expect(first.locator("[data-testid=waiting]")).to_be_visible()
            play_round(second, place_worker=round_number <= workers[second])
            if round_number == 16:
                break
            if round_number == 8:
                first.screenshot(path=str(artifacts / "multiplayer-waiting.png"), full_page=True)
            for page, other in ((ana, "ben"), (ben, "ana")):
                # Each sees the other's landscape grow by the round just completed.
                cards = page.locator(f"[data-player={other}] .card")
                expect(cards).to_have_count(round_number, timeout=15_000)
                expect(page.locator("[data-testid=round]")).to_have_text(
                    f"Round {round_number + 1} of 16", timeout=15_000
                )

        for page in (ana, ben):
            expect(page.locator("[data-testid=final-seat]")).to_have_count(2, timeout=15_000)
        game.refresh_from_db()
        assert game.is_finished and game.ferryman
        outcome = rebuild.rules_game(game).outcome()
        shown = [int(t) for t in ana.locator("[data-testid=score-total]").all_inner_texts()]
        assert shown == [s.score.total for s in outcome.standings]
        ana.screenshot(path=str(artifacts / "multiplayer-finished.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()
