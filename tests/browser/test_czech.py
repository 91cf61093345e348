"""A visitor whose browser asks for Czech plays in Czech from the first page to the result."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Game
from tests.browser.pages import click_and_wait, settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def czech_page(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="cs-CZ")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_a_czech_visitor_signs_up_plays_and_reads_the_result_in_czech(
    czech_page: Any, live_server: Any, artifacts: Path
) -> None:
    page, base = czech_page, live_server.url
    page.goto(f"{base}/")
    assert page.locator("html").get_attribute("lang") == "cs"
    # On a phone the menu folds behind one button.
    page.click("[data-testid=menu-toggle]")
    assert page.get_by_role("link", name="Žebříčky").count() == 1
    page.get_by_role("link", name="Zaregistrujte se a hrajte").click()

    page.fill("input[name=username]", "jana")
    page.fill("input[name=email]", "jana@example.com")
    page.fill("input[name=password1]", "limes-jana-2014")
    page.fill("input[name=password2]", "limes-jana-2014")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    assert User.objects.get(username="jana").language == "cs"

    page.get_by_role("button", name="Začít").click()
    page.wait_for_url(f"{base}/games/*/")
    for round_number in range(1, 4):
        assert page.locator("[data-testid=round]").inner_text() == f"{round_number}. kolo z 16"
        click_and_wait(page, page.locator("[data-slot]").last, ".card--draft")
        click_and_wait(page, page.locator("[data-role=place]").first, "[data-role=selected]")
        page.get_by_role("button", name="Potvrdit: přiložit kartu a umístit dělníka").click()
        expect(page.locator("[data-testid=round]")).to_have_text(f"{round_number + 1}. kolo z 16")
        settle(page)

    page.get_by_text("Vzdát tuto hru…").click()
    page.get_by_role("button", name="Ano, vzdát hru").click()
    result = page.locator("[data-testid=final-result]")
    result.wait_for()
    game = Game.objects.get()
    assert game.is_finished
    total = game.seats.get().score
    assert result.inner_text() == f"Konečné skóre {total}: je co zlepšovat."
    assert page.locator("html").get_attribute("lang") == "cs"
    page.screenshot(path=str(artifacts / "czech-solo-result.png"), full_page=True)
