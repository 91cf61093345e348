"""A friend request from a profile, accepted; a challenge, accepted: the two play. A live
challenge reaches the other player's page, and its acceptance the challenger's, at once."""

from __future__ import annotations

import datetime
import re
import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Notification
from games.models import Game
from social import services
from social.models import Challenge
from tests.browser.pages import settle, sign_in
from tests.factories import FinishedSoloFactory, UserFactory, started_game

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
        # A live challenge: Ben's page waits for the answer.
        expect(ben.locator("[data-testid=challenge-waiting]")).to_contain_text("ana")
        ben.screenshot(path=str(artifacts / "challenge-waiting.png"), full_page=True)

        ana.goto(f"{base}/friends/")
        ana.click("[data-testid=accept-challenge]")
        ana.wait_for_url(f"{base}/games/*/")
        game = Game.objects.get()
        assert (game.status, game.diagonal, game.round_seconds) == ("active", True, 300)
        expect(ana.locator("[data-testid=round]")).to_have_text("Round 1 of 16")
        # Ben's waiting page took him to the game by itself.
        ben.wait_for_url(f"{base}/games/{game.pk}/", timeout=15_000)
        expect(ben.locator("[data-testid=round]")).to_have_text("Round 1 of 16")
        ben.goto(f"{base}/friends/")
        expect(ben.locator("[data-testid=playing-now]")).to_contain_text("ana")
    finally:
        for context in contexts:
            context.close()


#: Runs of the live challenge, for the figures it prints (accept → both players on card 1).
LIVE_CHALLENGE_RUNS = 3


def test_a_live_challenge_goes_from_sending_to_the_first_card_on_both_screens(
    browser: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    ana_user, ben_user = UserFactory(username="ana"), UserFactory(username="ben")
    services.friend_request_send(user=ana_user, other=ben_user)
    services.friend_request_accept(user=ben_user, other=ana_user)
    # Ana has read that Ben accepted: her badge counts the challenges alone.
    Notification.objects.filter(user=ana_user).update(read_at=timezone.now())
    contexts = [
        browser.new_context(viewport={"width": 1024, "height": 800}),
        browser.new_context(viewport={"width": 390, "height": 844}),
    ]
    ben, ana = (context.new_page() for context in contexts)
    seconds: list[float] = []
    try:
        for page, name in ((ana, "ana"), (ben, "ben")):
            page.set_default_timeout(20_000)
            sign_in(page, base, name)
        for run in range(LIVE_CHALLENGE_RUNS):
            # Ana is on the lobby, Ben sends a live challenge from his friends page.
            ana.goto(f"{base}/lobby/")
            settle(ana)
            title = ana.title()
            ben.goto(f"{base}/friends/")
            ben.click("[data-testid=challenge-ana]")
            ben.locator("select[name=round_seconds]").select_option("60")
            ben.click("[data-testid=send-challenge-ana]")
            expect(ben.locator("[data-testid=challenge-waiting]")).to_contain_text("ana")
            settle(ben)

            # Without a reload, Ana's page shows it, and her tab's title says so. (Here, on
            # WSGI, the page's stream is refused and its poll hears it, within 10 s.)
            alert = ana.locator("[data-testid=challenge-alert]")
            expect(alert).to_contain_text(
                "ben challenges you to a live game, 1 minute a round.", timeout=15_000
            )
            expect(ana).to_have_title(f"(!) {title}")
            # One unread notice: the same ask again while the first is unread is no news.
            expect(ana.locator("[data-testid=nav-notifications] .badge")).to_have_text("1")
            if run == 0:
                ana.screenshot(path=str(artifacts / "live-challenge-alert.png"), full_page=True)

            started = time.monotonic()
            alert.locator("[data-testid=alert-accept]").click()
            for page in (ana, ben):
                # Ben's waiting page takes him to the game by itself.
                page.wait_for_url(f"{base}/games/*/", timeout=15_000)
                expect(page.locator("[data-testid=round]")).to_have_text("Round 1 of 16")
                expect(page.locator("[data-testid=hand]")).to_be_visible()
            seconds.append(time.monotonic() - started)
            assert ana.url == ben.url
            game = Game.objects.order_by("-pk").first()
            assert game is not None and (game.status, game.pace) == ("active", "live")
            Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        print(
            f"accept -> both on card 1: median {statistics.median(seconds):.2f} s, "
            f"worst {max(seconds):.2f} s over {len(seconds)} runs"
        )
    finally:
        for context in contexts:
            context.close()


def test_the_friends_page_names_each_game_with_its_players_on_one_line(
    page: Any, live_server: Any
) -> None:
    base = live_server.url
    ana, ben, cy = (UserFactory(username=name) for name in ("ana", "ben", "cy"))
    for other in (ben, cy):
        services.friend_request_send(user=ana, other=other)
        services.friend_request_accept(user=other, other=ana)
    finished = FinishedSoloFactory(game__created_by=ben).game
    playing = started_game([ben, cy])
    sign_in(page, base, "ana")
    page.goto(f"{base}/friends/")
    # "Solo game #7: ben", not "Solo game #7 : ben" nor the names on a line of their own.
    recent = page.locator("[data-testid=recent-game]").first.inner_text()
    assert recent.startswith(f"Solo game #{finished.pk}: ben"), recent
    now = page.locator("[data-testid=playing-now]").first.inner_text()
    assert now == f"Multiplayer game #{playing.pk}: ben, cy", now


@pytest.mark.parametrize("width", [1280, 390])
def test_a_live_challenge_alert_stands_apart_from_the_page_it_lands_on(
    browser: Any, live_server: Any, artifacts: Path, width: int
) -> None:
    base = live_server.url
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    services.friend_request_send(user=ana, other=ben)
    services.friend_request_accept(user=ben, other=ana)
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        sign_in(page, base, "ana")
        page.goto(f"{base}/leaderboards/")
        settle(page)
        services.challenge_create(user=ben, other=ana, pace="live", round_seconds=180)
        alert = page.locator("[data-testid=challenge-alert]")
        expect(alert).to_contain_text("ben challenges you to a live game", timeout=15_000)
        settle(page)
        page.screenshot(path=str(artifacts / f"challenge-alert-{width}.png"))
        box = alert.bounding_box()
        heading = page.locator("main h1").bounding_box()
        assert box is not None and heading is not None
        # A gap between the alert's answers and the page's own heading, not touching it.
        assert heading["y"] - (box["y"] + box["height"]) >= 8
        # A notice of its own: its background is not the page's.
        colours = alert.evaluate(
            "e => [getComputedStyle(e).backgroundColor,"
            " getComputedStyle(document.body).backgroundColor]"
        )
        assert colours[0] != colours[1] and colours[0] != "rgba(0, 0, 0, 0)"
        # Both answers on the screen, whatever its width.
        for button in alert.locator("button").all():
            answer = button.bounding_box()
            assert answer is not None and answer["x"] + answer["width"] <= width
    finally:
        context.close()


def test_a_live_challenge_counts_down_and_says_at_once_that_it_expired(
    browser: Any, live_server: Any
) -> None:
    base = live_server.url
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    services.friend_request_send(user=ana, other=ben)
    services.friend_request_accept(user=ben, other=ana)
    challenge = services.challenge_create(user=ben, other=ana, pace="live", round_seconds=180)
    expires_at = timezone.now() + datetime.timedelta(seconds=20)
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=expires_at)
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(2)]
    ana_page, ben_page = (context.new_page() for context in contexts)
    try:
        sign_in(ana_page, base, "ana")
        sign_in(ben_page, base, "ben")
        # Ben waits on his challenge's page; Ana's alert reaches her on another page.
        ben_page.goto(f"{base}/challenges/{challenge.pk}/")
        ana_page.goto(f"{base}/leaderboards/")
        accept = ana_page.locator("[data-testid=alert-accept]")
        expect(accept).to_be_visible(timeout=15_000)
        for page in (ana_page, ben_page):
            # Minutes and seconds, counting: not "Expires in 19 seconds" frozen.
            expect(page.locator("[data-testid=challenge-expires]")).to_have_text(
                re.compile(r"^Expires in 0:[0-1]\d\.$")
            )
        expect(ben_page.get_by_text("the challenge has expired")).to_be_visible(timeout=25_000)
        expect(accept).to_have_count(0, timeout=2_000)
    finally:
        for context in contexts:
            context.close()
