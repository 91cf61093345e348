"""A player solves a puzzle with the keyboard alone, and sees the computer's turn and why."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

import rules
from puzzles import selectors, services
from puzzles.models import Puzzle, PuzzlePlayer
from tests.browser.pages import settle, sign_in
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


def query(turn: rules.Turn) -> str:
    """The puzzle page's address of a draft of ``turn`` (the draft lives in the address)."""
    data = {"rot": str(turn.placement.rotation), "at": "{},{}".format(*turn.placement.card_at)}
    if isinstance(turn.worker, rules.PlaceWorker):
        data["place"] = "{},{}".format(*turn.worker.zone)
    elif isinstance(turn.worker, rules.MoveWorker):
        data["from"] = "{},{}".format(*turn.worker.source)
        data["to"] = "{},{}".format(*turn.worker.target)
    return "&".join(f"{key}={value}" for key, value in data.items())


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.locator(selector).first.bounding_box()
    return found


def test_a_miss_draws_both_turns_full_size_side_by_side_and_the_status_line_follows(
    page: Any, live_server: Any
) -> None:
    services.puzzle_make_from_computer(games=2, seed=5)
    puzzle = Puzzle.objects.filter(round__gte=4).order_by("pk").first()
    assert puzzle is not None
    valued = selectors.position_of(puzzle).valued()
    worst = valued[-1][1]
    UserFactory(username="ana")
    base = live_server.url
    sign_in(page, base, "ana")
    page.goto(f"{base}/puzzles/{puzzle.pk}/?{query(worst)}")
    line = page.locator("[data-testid=rating-line]")
    assert "Answer a puzzle to get a puzzle rating." in line.inner_text()
    # Answered with htmx: the page is not reloaded (the marker survives).
    page.evaluate("window.stillHere = true")
    settle(page)
    page.locator("[data-testid=submit-answer]").click()
    page.locator("[data-testid=result]").wait_for()
    settle(page)
    assert page.locator("[data-testid=result]").get_attribute("data-grade") != "solved"
    assert page.evaluate("window.stillHere === true")
    rating = round(PuzzlePlayer.objects.get(user__username="ana").rating)
    assert rating < 1500
    # The status line above the board shows the new rating, and the live region says it.
    assert f"Your puzzle rating: {rating}" in line.inner_text()
    page.wait_for_function(
        "text => document.getElementById('board-status').textContent.includes(text)",
        arg=f"Your puzzle rating: 1500 → {rating}.",
    )

    # At 1280 px the computer's landscape and the player's stand side by side, as large.
    best, own = box(page, "[data-testid=best-board]"), box(page, "[data-testid=own-board]")
    assert abs(best["y"] - own["y"]) < 2 and own["x"] >= best["x"] + best["width"]
    assert abs(best["width"] - own["width"]) < 2
    best_card = box(page, "[data-testid=best-board] .card")
    own_card = box(page, "[data-testid=own-board] .card")
    assert abs(best_card["width"] - own_card["width"]) < 1
    # Full size: a card as large as on the puzzle's own board (its landscape column).
    page.goto(f"{base}/puzzles/{puzzle.pk}/retry/")
    board_card = box(page, ".landscape-wrap--play .card")
    assert best_card["width"] >= 0.95 * board_card["width"]
    # On a phone they stack, one above the other, each the screen's width.
    page.goto(f"{base}/puzzles/{puzzle.pk}/")
    page.set_viewport_size({"width": 390, "height": 844})
    best, own = box(page, "[data-testid=best-board]"), box(page, "[data-testid=own-board]")
    assert own["y"] >= best["y"] + best["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_history_the_answer_and_the_retry_pass_axe_on_a_desktop_and_a_phone(
    browser: Any, live_server: Any
) -> None:
    services.puzzle_make_from_computer(games=2, seed=5)
    ana = UserFactory(username="ana")
    answered = list(Puzzle.objects.filter(round__gte=4).order_by("pk")[:3])
    for puzzle in answered:
        worst = selectors.position_of(puzzle).valued()[-1][1]
        services.puzzle_answer(puzzle=puzzle, user=ana, turn=worst)
    base = live_server.url
    pages = [
        ("history", "/puzzles/history/"),
        ("an answer", f"/puzzles/{answered[0].pk}/"),
        ("a retry", f"/puzzles/{answered[0].pk}/retry/"),
    ]
    axe = Axe()
    problems: list[str] = []
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        sign_in(page, base, "ana")
        for name, path in pages:
            page.goto(f"{base}{path}")
            where = f"{name} @ {width}px"
            main_wider = page.evaluate(
                "document.querySelector('main').scrollWidth"
                " - document.querySelector('main').clientWidth"
            )
            if main_wider > 0:
                problems.append(f"{where}: content scrolls sideways by {main_wider} px")
            results = axe.run(page, options={"resultTypes": ["violations"]})
            for violation in results.response["violations"]:
                if violation["impact"] in {"serious", "critical"}:
                    targets = "; ".join(" ".join(n["target"]) for n in violation["nodes"][:5])
                    problems.append(f"{where}: {violation['id']}: {violation['help']} -> {targets}")
        context.close()
    assert not problems, "\n".join(problems)
