"""A player solves a puzzle with the keyboard alone, and sees the computer's turn and why."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from puzzles import selectors, services
from puzzles.models import Puzzle, PuzzlePlayer
from tests.browser.pages import settle
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def focused(page: Any, attribute: str) -> str | None:
    found: str | None = page.evaluate(
        "name => document.activeElement && document.activeElement.getAttribute(name)", attribute
    )
    return found


def press(page: Any, key: str) -> None:
    settle(page)
    page.keyboard.press(key)
    settle(page)


def keyboard_friendly(puzzle: Puzzle) -> tuple[rules.Turn, int] | None:
    """The puzzle's best turn and its slot's key, if digits and P reach it."""
    best = rules.turn_from_json(puzzle.best_turn)
    if isinstance(best.worker, rules.MoveWorker):
        return None
    position = selectors.position_of(puzzle)
    slots = sorted(position.board.legal_positions(position.variants))
    number = slots.index(best.placement.card_at) + 1
    return (best, number) if number < 10 else None


def test_a_puzzle_solved_by_keyboard_shows_the_computers_turn_and_moves_the_rating(
    page: Any, live_server: Any
) -> None:
    services.puzzle_make_from_computer(games=2, seed=5)
    puzzle, (best, slot) = next(
        (p, found) for p in Puzzle.objects.order_by("pk") if (found := keyboard_friendly(p))
    )
    UserFactory(username="ana")
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", "ana")
    page.fill("input[name=password]", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/puzzles/{puzzle.pk}/")

    for _ in range(best.placement.rotation // 90):
        press(page, "r")
    press(page, str(slot))
    assert page.locator(".card--draft").count() == 1
    if isinstance(best.worker, rules.PlaceWorker):
        target = "{},{}".format(*best.worker.zone)
        for _ in range(4):
            press(page, "p")
            if focused(page, "data-zone") == target:
                break
        assert focused(page, "data-zone") == target
        press(page, " ")
        assert page.locator("[data-role=selected]").count() == 1
    for _ in range(40):
        if focused(page, "data-key") == "commit":
            break
        page.keyboard.press("Shift+Tab")
    press(page, "Enter")
    page.locator("[data-testid=result]").wait_for()
    assert page.locator("[data-testid=result]").get_attribute("data-grade") == "solved"
    assert page.locator("[data-testid=best-board]").is_visible()
    assert "Your puzzle rating: 1500 →" in page.locator("[data-testid=rating-change]").inner_text()
    assert PuzzlePlayer.objects.get(user__username="ana").streak == 1
