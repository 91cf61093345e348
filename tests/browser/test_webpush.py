"""Push notifications in Chromium: the settings' button subscribes this device.

Headless Chromium has no push service of its own to reach here (Google's, on the
internet), so the second test gives the page a stand-in: its ``PushManager.subscribe``
answers with a subscription at the tests' stand-in push service, as a browser's would,
and the test decrypts what the site's worker sends there. The browser's own subscribe
call is tried in the first test: it must either subscribe or say it could not.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import PushSubscription
from games.models import Game
from tests.browser.pages import sign_in
from tests.conftest import PushService
from tests.factories import UserFactory, play_turn, started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Counts the permission prompts, and grants each, before any page script runs.
_PROMPTS = """
window.__prompts = 0;
Notification.requestPermission = async () => { window.__prompts += 1; return "granted"; };
"""

#: A push manager that subscribes at the stand-in push service, with the test's keys.
_STAND_IN = """
const made = %s;
const subscription = {
  endpoint: made.endpoint,
  toJSON: () => ({ endpoint: made.endpoint, keys: { p256dh: made.p256dh, auth: made.auth } }),
};
PushManager.prototype.subscribe = async function (options) {
  window.__serverKey = options.applicationServerKey.length;
  return subscription;
};
PushManager.prototype.getSubscription = async function () { return null; };
"""


def test_the_button_asks_only_when_clicked_and_subscribes_or_says_why_not(
    page: Any, live_server: Any
) -> None:
    player = UserFactory()
    page.context.add_init_script(_PROMPTS)
    sign_in(page, live_server.url, player.username)
    page.goto(f"{live_server.url}/players/settings/")
    button = page.get_by_role("button", name="Turn on notifications on this device")
    expect(button).to_be_visible()
    assert page.evaluate("window.__prompts") == 0
    button.click()
    # Chromium's own push service is out of reach here: subscribed, or told so.
    outcome = page.locator("[data-testid=push-devices], [data-webpush-status]:not(:empty)")
    expect(outcome.first).to_be_visible()
    if PushSubscription.objects.filter(user=player).exists():
        expect(page.get_by_test_id("push-devices")).to_be_visible()
    else:  # what headless Chromium does here: the page says so, after one prompt
        expect(page.locator("[data-webpush-status]")).to_contain_text("could not be subscribed")
        assert page.evaluate("window.__prompts") == 1


def _turn_on_with_stand_in(
    page: Any, base: str, push_service: PushService, player: Any
) -> dict[str, str]:
    """``player`` clicks "Turn on notifications" on their settings page, in a browser whose
    push manager subscribes at the stand-in push service; returns the device's keys."""
    made = push_service.device(player, "chromium")
    keys = {"endpoint": made.endpoint, "p256dh": made.p256dh, "auth": made.auth}
    made.delete()
    page.context.add_init_script(_PROMPTS)
    page.context.add_init_script(_STAND_IN % json.dumps(keys))
    sign_in(page, base, player.username)
    page.goto(f"{base}/players/settings/")
    page.get_by_role("button", name="Turn on notifications on this device").click()
    return keys


def test_a_subscribed_device_gets_the_opponents_move_decrypted(
    page: Any, live_server: Any, push_service: PushService
) -> None:
    ana, ben = UserFactory(), UserFactory()
    keys = _turn_on_with_stand_in(page, live_server.url, push_service, ben)
    # The page reloads with this device in the list.
    expect(page.get_by_test_id("push-devices")).to_contain_text("Chrome, Linux")
    device = PushSubscription.objects.get(user=ben)
    assert device.endpoint == keys["endpoint"]

    game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
    play_turn(game, ben)
    push_service.received.clear()
    play_turn(game, ana)
    (message,) = push_service.messages("chromium")
    assert message["url"] == f"/games/{game.pk}/"
    assert message["body"] == f"Round 2 of game #{game.pk} waits for your move."


def test_a_device_past_the_limit_is_told_why_in_the_servers_words(
    page: Any, live_server: Any, push_service: PushService, settings: Any
) -> None:
    settings.LIMES_PUSH_DEVICES_PER_PLAYER = 2
    ben = UserFactory()
    push_service.device(ben, "phone")
    push_service.device(ben, "tablet")
    _turn_on_with_stand_in(page, live_server.url, push_service, ben)
    # The 409's own message, not a bare "try again later": the player knows what to do.
    expect(page.locator("[data-webpush-status]")).to_have_text(
        "Notifications already reach as many devices as they may: remove one first."
    )
    assert PushSubscription.objects.filter(user=ben).count() == 2
