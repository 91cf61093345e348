"""Drafting costs no request: a slot, a turn of the card and a worker are drawn at once
from the outcomes the board came with; only Commit asks the server."""

from __future__ import annotations

from typing import Any

import pytest

from games import rebuild, services
from games.models import Game
from tests.browser.pages import settle, sign_in
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Requests:
    """The requests a page makes to the site, as the browser sends them: not the icon
    Chromium looks up again whenever the address changes (htmx's replace-url did the
    same), nor an event stream the page keeps open (re)connecting, nor the challenge
    alerts' poll that runs on every page of a signed-in player."""

    def __init__(self, page: Any) -> None:
        self.sent: list[tuple[str, str]] = []
        page.on("request", self.note)

    def note(self, request: Any) -> None:
        url = request.url
        if "/static/favicon" in url or "/stream/" in url or "/challenges/alerts/" in url:
            return
        self.sent.append((request.method, url))

    def take(self) -> list[tuple[str, str]]:
        sent, self.sent = self.sent, []
        return sent


def quiet(page: Any) -> None:
    """Settled, and the page's own loads (icons, the analysis, the chat) are done."""
    settle(page)
    page.wait_for_load_state("networkidle")


def shown_total(page: Any) -> int:
    return int(page.locator(".preview [data-testid=score-total]").inner_text())


def stored_total(username: str) -> int:
    state = rebuild.rules_game(Game.objects.get())
    return state.boards[username].landscape.score().total


def test_a_whole_solo_game_by_mouse_asks_only_at_each_commit(page: Any, live_server: Any) -> None:
    base = live_server.url
    UserFactory(username="mia")
    sign_in(page, base, "mia")
    player = UserFactory._meta.model.objects.get(username="mia")
    game = services.game_create_solo(user=player, diagonal=True, ferryman=True, seed=3)
    page.goto(f"{base}/games/{game.pk}/")
    settle(page)
    requests = Requests(page)
    moved = placed = False
    for round_number in range(1, 17):
        quiet(page)
        requests.take()
        page.locator("[data-key=rotate]").click()
        page.locator("[data-slot]").last.click()
        page.locator(".card--draft").wait_for()
        page.locator("[data-key=rotate-left]").click()
        page.locator("[data-key=rotate]").click()
        if round_number >= 4 and not moved and page.locator("a[data-role=source]").count():
            page.locator("a[data-role=source]").first.click()
            page.locator("a[data-role=target]").first.click()
            page.locator("a[data-role=selected]").first.wait_for()
            moved = True
        elif page.locator("a[data-role=place]").count():
            page.locator("a[data-role=place]").first.click()
            page.locator("a[data-role=selected]").first.wait_for()
            placed = True
        # Every step so far was drawn in the page, and the address keeps the draft.
        taken = requests.take()
        assert taken == [], (round_number, taken)
        assert "at=" in page.url and "n=" in page.url
        preview = shown_total(page)
        page.locator("[data-key=commit]").click()
        if round_number < 16:
            page.locator(f"text=Round {round_number + 1} of 16").first.wait_for()
        else:
            page.locator("[data-testid=final-result]").wait_for()
        settle(page)
        posts = [url for method, url in requests.take() if method == "POST"]
        assert posts == [f"{base}/games/{game.pk}/play/"]
        # The preview drawn in the page was the score the server then stored.
        assert stored_total("mia") == preview
    assert moved and placed
    assert Game.objects.get().is_finished


def test_keys_draft_without_requests_and_reload_keeps_the_draft(
    page: Any, live_server: Any
) -> None:
    base = live_server.url
    player = UserFactory(username="ana")
    game = services.game_create_solo(user=player, seed=5)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", "ana")
    page.fill("input[name=password]", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/games/{game.pk}/")
    requests = Requests(page)
    for round_number in range(1, 17):
        quiet(page)
        requests.take()
        # Seven workers, placed in the first seven rounds.
        for key in ["r", "r", "1", "R", *(["p", " "] if round_number <= 7 else [])]:
            page.keyboard.press(key)
            if key == "1":
                page.locator(".card--draft").wait_for()
        assert requests.take() == []
        assert "Card turned by 90 degrees." in page.locator("[data-announce]").inner_text()
        if round_number == 2:
            # Reload: the address drew the same draft on the server.
            # (Focus lights a zone's region up: not part of the draft.)
            drafted = page.locator("#board .landscape").inner_html().replace(" is-lit", "")
            page.reload()
            quiet(page)
            assert page.locator("#board .landscape").inner_html() == drafted
            requests.take()
        page.keyboard.press("Enter")
        if round_number < 16:
            page.locator(f"text=Round {round_number + 1} of 16").first.wait_for()
        else:
            page.locator("[data-testid=final-result]").wait_for()
        settle(page)
        assert [m for m, _url in requests.take()].count("POST") == 1
    assert Game.objects.get().is_finished


def test_a_lesson_drafts_without_requests(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/learn/1/")
    quiet(page)
    requests = Requests(page)
    page.keyboard.press("r")
    page.keyboard.press("4")
    page.locator(".card--draft").wait_for()
    assert requests.take() == []
    page.keyboard.press("Enter")
    page.locator("[data-testid=explanation] p").wait_for()
    assert page.locator("[data-testid=explanation]").inner_text().startswith("Right!")


def test_without_javascript_a_round_is_played_by_links(browser: Any, live_server: Any) -> None:
    base = live_server.url
    player = UserFactory(username="noah")
    game = services.game_create_solo(user=player, seed=9)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        sign_in(page, base, "noah")
        page.goto(f"{base}/games/{game.pk}/")
        page.locator("[data-key=rotate]").click()
        page.wait_for_url("**rot=90**")
        page.locator("[data-slot]").first.click()
        page.wait_for_url("**at=**")
        page.locator("a[data-role=place]").first.click()
        page.wait_for_url("**place=**")
        page.locator("[data-key=commit]").click()
        page.locator("[data-testid=round]", has_text="Round 2 of 16").wait_for()
        assert Game.objects.get().round == 2
    finally:
        context.close()
