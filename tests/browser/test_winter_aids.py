"""Table aids in a browser: pointing at a feature lights it without a request; a replay
steps by the arrow keys."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory
from wintergames import services
from wintergames.models import WinterGame
from wintergames.rebuild import winter_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pointing_lights_a_feature_and_the_replay_steps_by_keys(
    page: Any, live_server: Any
) -> None:
    base = live_server.url
    ana = UserFactory(username="ana")
    game = services.game_create(
        user=ana, players=2, computers=1, level="easy", farmers=True, pace="untimed", seed=5
    )
    state = winter_game(game, list(game.seats.select_related("user").order_by("position")))
    assert state.drawn is not None
    move = state.legal_moves(state.drawn)[0]
    services.turn_play(game_id=game.pk, user=ana, at=move.at, rotation=move.rotation, follower=None)
    sign_in(page, base, "ana")
    page.goto(f"{base}/winter/games/{game.pk}/")
    settle(page)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.focus('.w-seg[data-seg="0,0:N"]')  # the start tile's city
    light = page.locator("[data-light] .w-lit")
    expect(light.first).to_be_visible()
    assert light.count() >= 1
    expect(page.locator("[data-testid=winter-feature-info]")).to_contain_text("City")
    # The keyboard moves between the features too: the focus and the light go together.
    page.keyboard.press("Shift+ArrowDown")
    focused = page.evaluate("() => document.activeElement.dataset.seg")
    assert focused and focused != "0,0:N"
    expect(page.locator(".w-seg[tabindex='0']")).to_have_attribute("data-seg", focused)
    expect(page.locator(f'.w-seg--lit[data-seg="{focused}"]')).to_have_count(1)
    page.locator("[data-testid=winter-title]").click()
    expect(page.locator("[data-light] .w-lit")).to_have_count(0)
    assert not [url for url in asked if "/poll/" not in url and "/stream/" not in url]

    WinterGame.objects.filter(pk=game.pk).update(status=WinterGame.Status.FINISHED)
    page.goto(f"{base}/winter/games/{game.pk}/replay/?turn=0")
    expect(page.locator("[data-testid=winter-replay-turn]")).to_contain_text("Turn 0 of")
    page.wait_for_selector("[data-replay][data-keys]")
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-testid=winter-replay-turn]")).to_contain_text("Turn 1 of")
    page.wait_for_selector("[data-replay][data-keys]")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("[data-testid=winter-replay-turn]")).to_contain_text("Turn 0 of")
