"""What a person notices on a phone and on a desktop: the card bar, the menu, the keys,
the end of a game and its replay, the places, the count of games waiting.

Each test runs at 1280×800 and at 390×844 and groups its checks into one page session.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

import rules
from accounts.models import User
from games import rebuild, services
from games.models import Game
from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Any, live_server: Any) -> Iterator[Any]:
    """A page at one of the two sizes, and the size's name."""
    width, height = SIZES[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page, request.param
    context.close()


def in_viewport(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


def play_out(game: Game, players: list[User], rounds: int = 16) -> None:
    for _ in range(rounds):
        game.refresh_from_db()
        if game.is_finished:
            return
        state = rebuild.rules_game(game)
        card = state.current_card
        assert card is not None
        for player in players:
            turn = rules.reference_turn(state.boards[player.username], card, state.variants)
            services.move_submit(game_id=game.pk, user=player, round_number=state.round, turn=turn)


def test_a_round_on_the_card_bar_with_the_keys_and_back(
    sized: Any, live_server: Any, artifacts: Path
) -> None:
    (page, size), base = sized, live_server.url
    user = UserFactory(username="ana")
    game = services.game_create_solo(user=user, seed=11)
    play_out(game, [user], rounds=3)
    sign_in(page, base, "ana")

    # The menu: folded behind one button on a phone; open on a desktop, inside the window
    # (the account's links wrap under the main ones where a line is too short, issue #22).
    nav = page.locator(".site-nav")
    if size == "phone":
        expect(nav).to_be_hidden()
        page.click("[data-testid=menu-toggle]")
        expect(nav).to_be_visible()
    else:
        expect(page.locator("[data-testid=menu-toggle]")).to_be_hidden()
        boxes = page.eval_on_selector_all(
            ".site-nav li, .account-nav li",
            "items => items.map(i => i.getBoundingClientRect()).map(b => [b.top, b.right])",
        )
        assert max(right for _top, right in boxes) <= 1280, "the desktop menu fits the window"
        assert len({round(top) for top, _right in boxes}) <= 2, "in at most two rows"

    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("[data-testid=round]")).to_have_text("Round 4 of 16")
    # Every + slot shows the digit that picks it; the shortcuts are listed on the page.
    slots = page.locator("[data-slot]")
    assert slots.count() >= 2
    expect(slots.nth(1).locator(".slot-key")).to_have_text("2")
    expect(page.locator("[data-testid=shortcuts]")).to_have_count(1)
    page.keyboard.press("2")
    page.wait_for_url("**at=**")
    page.locator(".card--draft").wait_for()
    settle(page)
    # The placed card, the card itself, the turn buttons and Commit are all on screen.
    for selector in (".card--draft", ".card--hand", "[data-key=rotate]", "[data-key=commit]"):
        assert in_viewport(page, selector), f"{selector} is on screen ({size})"
    if size == "phone":
        bar = page.locator("[data-testid=hand]").bounding_box()
        draft = page.locator(".card--draft").bounding_box()
        assert draft["y"] + draft["height"] <= bar["y"], "the bar does not cover the card"
    # A score line lights its worker's region on the board.
    row = page.locator("[data-testid=worker-row]").first
    row.hover()
    assert page.locator(".zone.is-lit").count() >= 1
    # And the other way round: pointing at the worker on the board lights its line.
    zone = row.get_attribute("data-worker-zone")
    page.locator(f'.landscape-wrap--play [data-zone="{zone}"]').hover()
    expect(page.locator("[data-testid=worker-row].is-lit")).to_have_count(1)
    page.screenshot(path=str(artifacts / f"round-draft-{size}.png"))

    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=round]")).to_have_text("Round 5 of 16")
    settle(page)
    # Draft steps and the commit replaced the address (issue #22): Back leaves the game at
    # once, and Forward shows round 5, fresh.
    page.go_back()
    page.wait_for_url(lambda url: f"/games/{game.pk}/" not in url)
    page.go_forward()
    expect(page.locator("[data-testid=round]")).to_have_text("Round 5 of 16")
    expect(page.locator(".card--draft")).to_have_count(0)
    expect(page.locator("[data-key=commit]")).to_be_disabled()


def test_the_end_of_a_game_play_again_and_the_replay_keys(
    sized: Any, live_server: Any, artifacts: Path
) -> None:
    (page, size), base = sized, live_server.url
    user = UserFactory(username="ana")
    game = services.game_create_solo(user=user, diagonal=True, seed=12)
    play_out(game, [user], rounds=15)
    sign_in(page, base, "ana")
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("[data-testid=resign-box]")).to_be_visible()
    page.locator("[data-slot]").first.click()
    page.locator(".card--draft").wait_for()
    settle(page)
    page.locator("[data-key=commit]").click()
    page.locator("[data-testid=final-result]").wait_for()
    # Over without a reload: no "Abandon" any more; the best and the board are named.
    expect(page.locator("[data-testid=resign-box]")).to_have_count(0)
    expect(page.locator("[data-testid=personal-best]")).to_contain_text("ranks #1")
    page.screenshot(path=str(artifacts / f"solo-final-{size}.png"), full_page=True)

    page.click("[data-testid=replay-link]")
    # The keys work once the page's deferred script has run: wait for the load event.
    page.wait_for_load_state()
    expect(page.locator("[data-testid=replay-round]")).to_contain_text("After round 1 of 16")
    # Each key once the swap before it has settled: htmx wires the new links as it settles.
    for key, shown in (
        ("ArrowRight", "After round 2 of 16"),
        ("End", "After round 16 of 16"),
        ("ArrowLeft", "After round 15 of 16"),
        ("Home", "After round 1 of 16"),
    ):
        page.evaluate(
            "() => { window.settled = false; document.addEventListener("
            "'htmx:afterSettle', () => { window.settled = true; }, { once: true }); }"
        )
        page.keyboard.press(key)
        page.wait_for_function("() => window.settled")
        expect(page.locator("[data-testid=replay-round]")).to_contain_text(shown)
    page.screenshot(path=str(artifacts / f"replay-{size}.png"))

    page.goto(f"{base}/games/{game.pk}/")
    page.locator("[data-testid=play-again]").click()
    page.wait_for_url(f"{base}/games/*/")
    again = Game.objects.exclude(pk=game.pk).get()
    assert (again.mode, again.diagonal, again.ferryman) == ("solo", True, False)
    assert page.url.endswith(f"/games/{again.pk}/")


def test_places_after_leaving_and_the_count_of_games_waiting(
    sized: Any, live_server: Any, artifacts: Path
) -> None:
    (page, size), base = sized, live_server.url
    ana, ben, cy = (UserFactory(username=name) for name in ("ana", "ben", "cy"))
    # A game both players left: ben resigned, then ana ran out of time.
    left = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE)
    services.game_join(game=left, user=ben)
    play_out(left, [ana, ben], rounds=2)
    services.seat_resign(game=left, user=ben)
    left.refresh_from_db()
    Game.objects.filter(pk=left.pk).update(deadline=timezone.now() - datetime.timedelta(1))
    services.deadlines_enforce(game=left)
    # Two games in play: one waits for ana, one only for cy.
    waiting = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.CORRESPONDENCE)
    services.game_join(game=waiting, user=ben)
    play_out(waiting, [ana, ben], rounds=1)  # a round complete: the landscapes have a card
    played = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.CORRESPONDENCE)
    services.game_join(game=played, user=cy)
    played.refresh_from_db()
    state = rebuild.rules_game(played)
    card = state.current_card
    assert card is not None
    turn = rules.reference_turn(state.boards["ana"], card, state.variants)
    services.move_submit(game_id=played.pk, user=ana, round_number=1, turn=turn)

    sign_in(page, base, "ana")
    page.goto(f"{base}/games/{left.pk}/")
    seats = page.locator("[data-testid=final-seat] h2")
    expect(seats).to_have_count(2)
    for text in seats.all_inner_texts():
        assert "winner" not in text and "shared" not in text
    expect(page.locator("[data-testid=no-winner]")).to_be_visible()
    expect(page.get_by_text("resigned after 2 rounds")).to_be_visible()
    # Its share box does not speak of a winner either, and copies each of its fields.
    page.locator("[data-testid=share] summary").click()
    expect(page.locator("label[for=share-svg]")).not_to_contain_text("winner")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page.locator("[data-testid=copy-link]").click()
    expect(page.locator("[data-testid=copy-link]")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == f"{base}/games/{left.pk}/"

    page.goto(f"{base}/games/mine/")
    if size == "phone":
        page.click("[data-testid=menu-toggle]")
    badge = page.locator("[data-testid=nav-my-games] .badge")
    expect(badge).to_have_text("1")
    expect(page.locator("[data-testid=your-move]")).to_have_count(1)
    expect(page.locator("[data-testid=my-game].your-move a")).to_have_attribute(
        "href", f"/games/{waiting.pk}/"
    )
    page.screenshot(path=str(artifacts / f"my-games-{size}.png"), full_page=True)

    # The game waiting for ana: the clock and who is still to play sit above the board, and
    # ben's landscape grows when tapped.
    page.goto(f"{base}/games/{waiting.pk}/")
    status = page.locator("#table-status").bounding_box()
    board = page.locator("#board").bounding_box()
    assert status["y"] + status["height"] <= board["y"]
    expect(page.locator("[data-testid=waiting-for]")).to_contain_text("ana")
    seat = page.locator("[data-testid=table-seat]").first
    before = seat.locator(".card").first.bounding_box()["width"]
    seat.locator("[data-enlarge]").click()
    expect(seat).to_have_class(re.compile("table-seat--enlarged"))
    assert seat.locator(".card").first.bounding_box()["width"] > before * 1.3
    page.screenshot(path=str(artifacts / f"multi-round-{size}.png"), full_page=True)
