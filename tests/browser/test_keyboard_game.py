"""A player plays a whole solo game with the keyboard alone and hears what each step did."""

from __future__ import annotations

from typing import Any

import pytest

from games import rebuild, services
from games.models import Game, Move
from tests.browser.pages import settle
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def press_and_hear(page: Any, key: str, words: str) -> None:
    """Press ``key`` and wait until the live region says ``words``."""
    settle(page)
    page.evaluate("document.getElementById('board-status').textContent = ''")
    page.keyboard.press(key)
    page.wait_for_function(
        "words => document.getElementById('board-status').textContent.includes(words)", arg=words
    )
    settle(page)


def focused(page: Any, attribute: str) -> str | None:
    """An attribute of the focused element, which must lie on the board (not the body)."""
    found: str | None = page.evaluate(
        """name => {
            const element = document.activeElement;
            if (!element || !element.closest('#board')) return 'focus left the board';
            return element.getAttribute(name);
        }""",
        attribute,
    )
    return found


def tab_to_commit(page: Any) -> None:
    for _ in range(40):
        if focused(page, "data-key") == "commit":
            return
        page.keyboard.press("Shift+Tab")
    raise AssertionError("Shift+Tab never reached the commit button")


def test_a_whole_solo_game_by_keyboard_with_announcements(page: Any, live_server: Any) -> None:
    base = live_server.url
    player = UserFactory(username="ana")
    game = services.game_create_solo(user=player, diagonal=True, ferryman=True, seed=7)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", "ana")
    page.fill("input[name=password]", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/games/{game.pk}/")

    total = 0
    moved = False
    for round_number in range(1, 17):
        if round_number % 3 == 0:
            # Turning the card keeps focus on the turn button, and says how far it turned.
            press_and_hear(page, "r", "Card turned by 90 degrees.")
            assert focused(page, "data-key") == "rotate"
        press_and_hear(page, "1", "Card placed:")
        # The slot became the new card: focus went on to one of its zones, not to the body.
        assert page.evaluate(
            "document.activeElement.closest('.card--draft') !== null"
            " || document.activeElement.dataset.key === 'commit'"
        )
        assert page.locator(".card--draft").count() == 1

        page.keyboard.press("m")
        source = focused(page, "aria-label") or ""
        if round_number >= 3 and not moved and source.startswith("Move the worker from"):
            press_and_hear(page, " ", "Choose where the worker moves to.")
            page.keyboard.press("m")
            assert (focused(page, "aria-label") or "").startswith("Move the worker to")
            press_and_hear(page, " ", "The worker moves to this")
            moved = True
        elif round_number <= 7:
            page.keyboard.press("p")
            place = focused(page, "aria-label") or ""
            assert place.startswith("Place a worker on this"), place
            zone = focused(page, "data-zone")
            press_and_hear(page, " ", "A worker goes on this")
            # The same zone keeps focus, now offering to take the worker back.
            assert focused(page, "data-zone") == zone
            assert (focused(page, "aria-label") or "").startswith("Take back the worker")

        tab_to_commit(page)
        press_and_hear(page, "Enter", "Committed:")
        stored = rebuild.rules_game(Game.objects.get()).boards["ana"].landscape.score().total
        heard = page.locator("[data-testid=board-status]").inner_text()
        gained = stored - total
        points = "point" if gained == 1 else "points"  # one point, two points
        assert f"Committed: {gained} {points} gained, {stored} in total." in heard
        total = stored
        if round_number < 16:
            assert f"Round {round_number + 1} of 16." in heard
            # Focus waits on the first slot of the next round, not at the top of the page.
            assert focused(page, "data-slot") is not None
        else:
            assert f"The game is over. Final score {stored}." in heard

    finished = Game.objects.get()
    assert finished.is_finished
    assert moved and Move.objects.filter(seat__game=finished, worker="move").exists()
