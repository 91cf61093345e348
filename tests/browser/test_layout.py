"""No main page scrolls sideways, and the signed-in header fits, in every language and width."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from games import services
from tests.browser.pages import sign_in
from tests.factories import UserFactory, play_turn, started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [1366, 1280, 1024, 768, 390]
LANGUAGES = ["en", "cs", "de", "fr"]

# What sticks out of the viewport: the page's own width, and each header or board
# control whose right edge lies past the right side of the window.
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) {
    out.push(`page is ${document.documentElement.scrollWidth}px wide`);
  }
  for (const element of document.querySelectorAll(
      '.site-header a, .site-header button, #board .button, #board button, main .button')) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1) {
      out.push(`${element.textContent.trim().slice(0, 30)} ends at ${Math.round(box.right)}px`);
    }
  }
  return out;
}"""


def main_pages(player: User) -> list[str]:
    solo = services.game_create_solo(user=player, seed=3)
    multi = started_game([player, UserFactory(username="ben")])
    return [
        reverse("games:home"),
        reverse("games:lobby"),
        reverse("games:rules"),
        reverse("games:mine"),
        reverse("games:detail", kwargs={"pk": solo.pk}),
        reverse("games:detail", kwargs={"pk": multi.pk}),
        reverse("leaderboards:index"),
        reverse("leaderboards:daily"),
        reverse("accounts:settings"),
        reverse("accounts:profile", kwargs={"username": player.username}),
    ]


def test_no_main_page_scrolls_sideways_in_any_language_or_width(
    browser: Any, live_server: Any
) -> None:
    # A long name, as people choose them: the header must still fit.
    player = UserFactory(username="magdalena_novakova")
    pages = main_pages(player)
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    found: list[str] = []
    try:
        sign_in(page, live_server.url, player.username)
        for language in LANGUAGES:
            User.objects.filter(pk=player.pk).update(language=language)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 900})
                for path in pages:
                    page.goto(live_server.url + path)
                    for problem in page.evaluate(MEASURE):
                        found.append(f"{language} {width}px {path}: {problem}")
    finally:
        context.close()
    assert not found, "\n".join(found)


# Each part of a table seat's heading (name, tag, points) that lies under its enlarge button.
UNDER_ENLARGE = """() => {
  const out = [];
  for (const seat of document.querySelectorAll('.table-seat')) {
    const button = seat.querySelector('[data-enlarge]').getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(seat.querySelector('h3'));
    for (const box of range.getClientRects()) {
      const apart = box.right <= button.left || box.left >= button.right
        || box.bottom <= button.top || box.top >= button.bottom;
      if (!apart && box.width > 0) {
        out.push(`${seat.dataset.player}: ${Math.round(box.left)}-${Math.round(box.right)}`);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_enlarge_button_covers_no_seat_heading_on_a_phone(
    browser: Any, live_server: Any, language: str
) -> None:
    player = UserFactory(username="ana", language=language)
    others = [UserFactory(username=name) for name in ("magdalena_novakova", "bo", "cy")]
    multi = started_game([player, *others])
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        sign_in(page, live_server.url, player.username)
        page.goto(live_server.url + reverse("games:detail", kwargs={"pk": multi.pk}))
        assert page.locator(".table-seat .tag").count() == 3
        assert page.evaluate(UNDER_ENLARGE) == []
    finally:
        context.close()


def test_a_finished_game_s_duplicate_scores_are_a_table_with_its_columns_apart(
    page: Any, live_server: Any
) -> None:
    """The game's page draws the table of "Against everyone on these cards" without the
    leaderboards' stylesheet; its cells still get their room and its figures align."""
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    # The day's challenge: the same cards for both, compared deal by deal.
    games = [services.game_create_daily(user=player) for player in (ana, ben)]
    for game, player in zip(games, (ana, ben), strict=True):
        for _round in range(16):
            play_turn(game, player)
    sign_in(page, live_server.url, "ana")
    page.goto(live_server.url + reverse("games:detail", kwargs={"pk": games[0].pk}))
    row = page.locator("[data-testid=duplicate-row]")
    row.wait_for()
    cells = page.evaluate(
        """() => Array.from(document.querySelectorAll('#duplicate th, #duplicate td'),
            cell => [parseFloat(getComputedStyle(cell).paddingLeft),
                     getComputedStyle(cell).textAlign, cell.classList.contains('num')])"""
    )
    assert cells and all(padding >= 4 for padding, _align, _num in cells), cells
    assert all(align == "right" for _padding, align, num in cells if num), cells


def test_the_lobby_s_computer_level_label_keeps_clear_of_the_field_above(
    page: Any, live_server: Any
) -> None:
    UserFactory(username="ana")
    sign_in(page, live_server.url, "ana")
    page.goto(live_server.url + reverse("games:lobby"))
    bots = page.locator("select[name=bots]").bounding_box()
    level = page.locator("label[for=id_bot_level]").bounding_box()
    assert bots is not None and level is not None
    # "Their level" reads as the next field's label, not as a caption glued to the box.
    assert level["y"] - (bots["y"] + bots["height"]) >= 8


# The duplicate scores' panel and table, and the page: how far each reaches to the right.
DUPLICATE_EDGES = """() => {
  const right = (selector) =>
    Math.round(document.querySelector(selector).getBoundingClientRect().right);
  return {
    page: document.documentElement.scrollWidth,
    panel: right('#duplicate'),
    scroll: right('#duplicate .table-scroll'),
    table: right('#duplicate table'),
  };
}"""


@pytest.mark.parametrize("language", ["cs", "de"])
def test_a_finished_game_s_matchpoints_table_fits_a_phone(
    browser: Any, live_server: Any, language: str
) -> None:
    ana, ben = UserFactory(username="ana", language=language), UserFactory(username="ben")
    games = [services.game_create_daily(user=player) for player in (ana, ben)]
    for game, player in zip(games, (ana, ben), strict=True):
        for _round in range(16):
            play_turn(game, player)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        sign_in(page, live_server.url, "ana")
        page.goto(live_server.url + reverse("games:detail", kwargs={"pk": games[0].pk}))
        page.locator("[data-testid=duplicate-row]").wait_for()
        edges = page.evaluate(DUPLICATE_EDGES)
        assert max(edges.values()) <= 390, edges
    finally:
        context.close()


# The settings' table of notifications, its scroll box and the page: how far each reaches.
NOTIFICATION_EDGES = """() => {
  const table = document.querySelector('.notification-table');
  const box = document.querySelector('.notification-table-scroll');
  return {
    page: document.documentElement.scrollWidth,
    table: Math.round(table.getBoundingClientRect().right),
    scrolled: box.scrollWidth - box.clientWidth,
  };
}"""


@pytest.mark.parametrize("language", ["cs", "de", "fr"])
def test_the_notification_table_fits_a_phone_with_its_push_column(
    browser: Any, live_server: Any, language: str
) -> None:
    UserFactory(username="ana", language=language)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        sign_in(page, live_server.url, "ana")
        page.goto(live_server.url + reverse("accounts:settings"))
        page.locator(".notification-table").wait_for()
        edges = page.evaluate(NOTIFICATION_EDGES)
        # Nothing past the screen's edge, and no sideways scroll hiding a column.
        assert edges["page"] <= 390 and edges["table"] <= 390, edges
        assert edges["scrolled"] == 0, edges
    finally:
        context.close()
