"""A rematch of a finished Winter game: one person offers it, the other sees the offer come
to the finished page they are looking at, accepts, and both are at the new table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory
from wintergames import computer, services
from wintergames.models import WinterGame

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _finished(monkeypatch: pytest.MonkeyPatch, ana: Any, ben: Any) -> WinterGame:
    # Both resign and the computer plays their seats out, one turn after the other (a
    # commit here would otherwise run each next turn inside the last one's).
    queued: list[tuple[int, int]] = []
    with monkeypatch.context() as patch:
        patch.setattr(computer, "bots_play_enqueue", lambda *turn: queued.append(turn))
        game = services.game_create(
            user=ana, players=2, computers=0, level="easy", farmers=True, pace="live"
        )
        services.game_join(game_id=game.pk, user=ben)
        for person in (ana, ben):
            services.game_resign(game_id=game.pk, user=person)
        while queued:
            game_id, number = queued.pop()
            computer.bots_play(game_id=game_id, turn_number=number)
    game.refresh_from_db()
    assert game.is_finished
    return game


def test_a_rematch_offer_reaches_the_other_player_s_finished_page(
    browser: Any, live_server: Any, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = live_server.url
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = _finished(monkeypatch, ana, ben)
    pages = {}
    for name in ("ana", "ben"):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(15_000)
        sign_in(page, base, name)
        page.goto(f"{base}/winter/games/{game.pk}/")
        settle(page)
        expect(page.locator("[data-testid=winter-status]")).to_contain_text("The game is over")
        pages[name] = page
    pages["ben"].evaluate("window.sameDocument = true")

    pages["ana"].locator("[data-testid=winter-rematch-offer]").click()
    pages["ana"].wait_for_url(f"{base}/winter/games/*/")
    rematch = WinterGame.objects.get(rematch_of=game)
    assert pages["ana"].url == f"{base}/winter/games/{rematch.pk}/"
    expect(pages["ana"].locator("[data-testid=winter-status]")).to_contain_text(
        "Waiting for players"
    )

    # Ben's finished page hears of the offer without a reload.
    offer = pages["ben"].locator("[data-testid=winter-rematch]")
    expect(offer).to_contain_text("ana offers a rematch with the same rules and players.")
    assert pages["ben"].evaluate("window.sameDocument") is True
    pages["ben"].screenshot(path=str(artifacts / "winter-rematch-offer.png"))
    pages["ben"].locator("[data-testid=winter-rematch-join]").click()
    pages["ben"].wait_for_url(f"{base}/winter/games/{rematch.pk}/")

    # The seats moved on: Ben, second last time, starts; Ana's page hears the game begin.
    expect(pages["ben"].locator("[data-testid=winter-status]")).to_contain_text("Your turn")
    expect(pages["ana"].locator("[data-testid=winter-status]")).to_contain_text("ben is to move")
    rematch.refresh_from_db()
    assert rematch.status == WinterGame.Status.RUNNING and rematch.waiting_for == ben
    for page in pages.values():
        page.context.close()
