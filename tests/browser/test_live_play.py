"""Live play by keyboard and at a glance: Enter commits, refusals show, the clock keeps quiet."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from playwright.sync_api import expect

import rules
from accounts.models import User
from games import rebuild, services
from games.models import Game, GameAnalysis
from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory, reference_turn_of, started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def solo_page(page: Any, base: str, *, in_a_row: int = 0) -> tuple[Game, User]:
    """A solo game (diagonal), with ``in_a_row`` cards already laid in one row."""
    player = UserFactory(username="ana")
    game = services.game_create_solo(user=player, seed=7, diagonal=True)
    for column in range(in_a_row):
        turn = rules.Turn(rules.Placement((0, column)))
        services.move_submit(game_id=game.pk, user=player, round_number=column + 1, turn=turn)
    sign_in(page, base, "ana")
    page.goto(f"{base}/games/{game.pk}/")
    return game, player


def rounds_played(game: Game) -> int:
    return game.seats.get().rounds_played


def test_enter_commits_after_turning_hinting_or_stepping_to_a_zone(
    page: Any, live_server: Any
) -> None:
    game, _player = solo_page(page, live_server.url)
    for step, key in enumerate(["r", "h", "p", "R"], start=1):
        page.keyboard.press("1")
        page.locator(".card--draft").first.wait_for()
        settle(page)
        page.keyboard.press(key)
        settle(page)
        # Focus rests on the turn button, the hint button or a zone: Enter still commits.
        page.keyboard.press("Enter")
        expect(page.locator("[data-testid=round]")).to_have_text(f"Round {step + 1} of 16")
        assert rounds_played(game) == step
        settle(page)
    # Space takes the zone in focus (Enter is the commit).
    page.keyboard.press("1")
    page.locator(".card--draft").first.wait_for()
    settle(page)
    page.keyboard.press("p")
    page.keyboard.press(" ")
    page.locator("[data-role=selected]").first.wait_for()


def test_slots_from_ten_on_are_picked_by_typing_both_digits(page: Any, live_server: Any) -> None:
    # Three cards in a row with diagonal neighbours: five slots above, five below, two ends.
    solo_page(page, live_server.url, in_a_row=3)
    slots = page.locator("#board .slot")
    assert slots.count() >= 12, slots.count()
    expect(slots.nth(11).locator(".slot-key")).to_have_text("12")
    wanted = slots.nth(11).get_attribute("data-slot")
    page.keyboard.press("1")
    page.keyboard.press("2")
    page.locator(".card--draft").first.wait_for()
    assert page.locator(".card--draft").get_attribute("data-card-at") == wanted


def test_draft_steps_replace_the_address_instead_of_adding_to_the_history(
    page: Any, live_server: Any
) -> None:
    solo_page(page, live_server.url)
    before = page.evaluate("history.length")
    page.locator("#board .slot").first.click()
    page.locator(".card--draft").first.wait_for()
    settle(page)
    page.locator("[data-key=rotate]").click()
    settle(page)
    assert "at=" in page.url and "rot=90" in page.url
    assert page.evaluate("history.length") == before


def test_a_refused_step_shows_its_error_on_the_board_and_keeps_the_draft(
    page: Any, live_server: Any
) -> None:
    game, _player = solo_page(page, live_server.url)
    page.locator("#board .slot").first.click()
    page.locator(".card--draft").first.wait_for()
    settle(page)
    # The server fails the commit in a way it cannot draw (overloaded, say).
    page.route("**/play/", lambda route: route.fulfill(status=503, body="busy"))
    page.locator("[data-key=commit]").click()
    expect(page.locator("#board [data-testid=error]")).to_contain_text("error 503")
    assert page.locator(".card--draft").count() == 1
    assert rounds_played(game) == 0
    # A refusal the server draws (here: the game is gone from under the draft) shows too.
    page.unroute("**/play/")
    page.route("**/play/", lambda route: route.abort())
    page.locator("[data-key=commit]").click()
    expect(page.locator("#board [data-testid=error]")).to_contain_text("could not be reached")
    assert page.locator(".card--draft").count() == 1


def test_the_round_clock_is_announced_only_at_a_minute_and_ten_seconds(
    page: Any, live_server: Any
) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = started_game([ana, ben], round_seconds=180)
    assert game.deadline is not None
    page.clock.install(time=game.deadline - datetime.timedelta(seconds=100))
    sign_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.clock.pause_at(game.deadline - datetime.timedelta(seconds=70))
    page.evaluate(
        """() => {
            window.heard = [];
            const status = document.getElementById('board-status');
            new MutationObserver(() => {
                if (status.textContent) window.heard.push(status.textContent);
            }).observe(status, {childList: true, characterData: true, subtree: true});
        }"""
    )
    clock = page.locator("[data-deadline]")
    # The ticking clock sits where screen readers are not told of each change.
    assert clock.evaluate("e => e.closest('[aria-live]').getAttribute('aria-live')") == "off"
    page.clock.run_for(62_000)
    expect(clock).to_have_text("0:08")
    # It reads as a sentence: "Time left in this round: 0:08", and "0:00" at the end.
    expect(page.locator("[data-testid=deadline]")).to_have_text("Time left in this round: 0:08")
    page.clock.run_for(9_000)
    expect(clock).to_have_text("0:00")
    assert page.evaluate("window.heard") == [
        "One minute left in this round.",
        "Ten seconds left in this round.",
    ]


def test_your_move_shows_in_the_title_and_icon_and_chimes_when_asked(
    page: Any, live_server: Any
) -> None:
    ana, ben = UserFactory(username="ana", move_sound=True), UserFactory(username="ben")
    game = started_game([ana, ben], round_seconds=180)
    sign_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page).to_have_title(re.compile(r"^● Your move · "))
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile("favicon-move"))
    page.locator("#board .slot").first.click()
    page.locator(".card--draft").first.wait_for()
    settle(page)
    page.locator("[data-key=commit]").click()
    expect(page.locator("[data-testid=waiting]")).to_be_visible()
    # Marked once the swapped board has settled.
    expect(page).not_to_have_title(re.compile(r"^●"))
    expect(page.locator("link[rel=icon]")).not_to_have_attribute("href", re.compile("favicon-move"))
    assert page.evaluate("document.documentElement.dataset.chimed") is None
    # Ben plays: the round ends, and the board the poll brings waits for Ana again.
    number, turn = reference_turn_of(game, ben)
    services.move_submit(game_id=game.pk, user=ben, round_number=number, turn=turn)
    expect(page.locator("[data-testid=round]")).to_have_text("Round 2 of 16")
    expect(page).to_have_title(re.compile(r"^● Your move · "))
    expect(page.locator("html")).to_have_attribute("data-chimed", "1")
    assert rebuild.rules_game(Game.objects.get()).round == 2


def test_no_sound_unless_the_player_asked_for_it(page: Any, live_server: Any) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = started_game([ana, ben], round_seconds=180)
    sign_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator("#board .slot").first.click()
    page.locator(".card--draft").first.wait_for()
    settle(page)
    page.locator("[data-key=commit]").click()
    expect(page.locator("[data-testid=waiting]")).to_be_visible()
    number, turn = reference_turn_of(game, ben)
    services.move_submit(game_id=game.pk, user=ben, round_number=number, turn=turn)
    expect(page.locator("[data-testid=round]")).to_have_text("Round 2 of 16")
    expect(page).to_have_title(re.compile(r"^● Your move · "))
    assert page.evaluate("document.documentElement.dataset.chimed") is None


def test_the_end_of_a_game_stays_while_the_analysis_is_worked_out(
    page: Any, live_server: Any
) -> None:
    game, player = solo_page(page, live_server.url)
    for _ in range(16):
        number, turn = reference_turn_of(game, player)
        services.move_submit(game_id=game.pk, user=player, round_number=number, turn=turn)
        game.refresh_from_db()
    assert game.is_finished
    # As if the task worker were still on it: the page keeps asking for the analysis.
    GameAnalysis.objects.update_or_create(
        game=game, defaults={"status": GameAnalysis.Status.PENDING}
    )
    page.clock.install()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator("[data-testid=analysis-pending]").wait_for()
    address = page.url
    with page.expect_response(lambda response: "/analysis/" in response.url):
        page.clock.run_for(2_500)
    settle(page)
    for testid in ("play-again", "replay-link", "final-result", "analysis-pending"):
        expect(page.locator(f"[data-testid={testid}]")).to_be_visible()
    assert page.locator("#board").count() == 1 and page.locator("#analysis").count() == 1
    assert page.url == address
