"""The landscape grid and score table drawn in Python: what a player and a screen reader get."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.template import Context, Template
from django.utils import translation

from games.boardhtml import landscape_html, score_html
from games.boardview import Draft, landscape_view, round_view
from rules import Board, Card, Placement, PlaceWorker, Turn, Variants, Zone

# Clockwise from the top left: a field with a hut, water, forest, tower.
CARD = Card(
    5, (Zone.from_token("G*"), Zone.from_token("W"), Zone.from_token("F"), Zone.from_token("T"))
)
WITH_A_FARMER = Board().play(CARD, Turn(Placement((0, 0)), PlaceWorker((0, 0))))


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    # Whatever language an earlier test's request left active in this thread.
    with translation.override("en"):
        yield


def zones(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<span class="zone" data-zone="([^"]+)" title="([^"]+)">', html)


def test_a_placed_card_with_a_worker_names_its_place_its_zones_and_the_worker() -> None:
    html = landscape_html(landscape_view(WITH_A_FARMER), owner="Ada")

    assert html.startswith(
        '<div class="landscape" style="--columns: 1" role="grid" aria-label="Landscape of Ada">'
    )
    assert html.count('role="row"') == 1 and html.count('role="gridcell"') == 1
    assert '<span class="visually-hidden">Card, the only row, the only column:</span>' in html
    # Reading order for the 2x2 grid of the card: top left, top right, bottom left, bottom right.
    assert zones(html) == [
        ("0,0", "field, hut, 1 worker"),
        ("0,1", "water"),
        ("1,0", "tower"),
        ("1,1", "forest"),
    ]
    assert html.count('<use href="#worker"/>') == 1
    assert 'aria-label="field, hut, 1 worker"><use href="#t-field"/><use href="#hut"/>' in html


def test_the_score_table_lists_the_worker_with_its_region_and_the_total() -> None:
    html = score_html(landscape_view(WITH_A_FARMER))

    assert "<caption>Score: 1</caption>" in html
    row = re.search(r'<tr class="" tabindex="0" (.*?)</tr>', html, re.DOTALL)
    assert row, html
    assert 'data-region="0,0" data-worker-zone="0,0" data-testid="worker-row"' in row.group(1)
    assert "<td>farmer on a field of 1 zone</td>" in row.group(1)
    assert '<td data-testid="score-total">1</td>' in html
    assert "No workers yet." in score_html(landscape_view(Board()))


def test_a_draft_offers_its_zones_and_the_other_slots_as_links_to_the_board() -> None:
    board = Board().place(CARD, Placement((0, 0)))
    view = round_view(board, CARD, Variants(), Draft(card_at=(0, 1), round=2)).board

    html = landscape_html(view, base_url="/games/7/", owner="Ada")

    assert '<div class="card card--draft" role="gridcell" data-card-at="0,1">' in html
    assert (
        '<span class="visually-hidden">The new card, row 2 from the top, far right:</span>' in html
    )
    place = re.findall(r'<a class="zone zone--place" href="([^"]+)"[^>]*aria-label="([^"]+)"', html)
    assert len(place) == 4
    assert place[0] == (
        "/games/7/?at=0%2C1&amp;place=0%2C2&amp;n=2",
        "Place a worker on this field (field, hut)",
    )
    # The first card's own slots stay on offer, numbered for the keys 1-9.
    slot = re.search(r'<a class="slot" href="([^"]+)" hx-get="\1" data-slot="(-?\d+,-?\d+)"', html)
    assert slot and slot.group(1).startswith("/games/7/?at=")
    assert 'aria-keyshortcuts="1" aria-label="Place the card here: ' in html
    assert '<kbd class="slot-key" aria-hidden="true">1</kbd>' in html


def test_a_player_name_cannot_break_out_of_the_grid_label() -> None:
    view = landscape_view(WITH_A_FARMER)
    template = Template("{% load boards %}{% landscape view owner=name %}")

    html = template.render(Context({"view": view, "name": '"><script>alert(1)</script>'}))

    assert "<script>" not in html
    assert 'aria-label="Landscape of &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in html


def test_the_grid_speaks_the_active_language_each_time() -> None:
    english = landscape_html(landscape_view(WITH_A_FARMER), owner="Ada")
    with translation.override("fr"):
        view = landscape_view(WITH_A_FARMER)
        french = landscape_html(view, owner="Ada")
        score = score_html(view)

    # Words are cached per language: French after English, then English again.
    assert 'aria-label="Paysage de Ada"' in french
    assert "Carte, " in french and "Card, " not in french
    assert zones(french)[0] == ("0,0", "champ, cabane de pêcheur, 1 ouvrier")
    assert "<caption>Score : 1</caption>" in score
    assert landscape_html(landscape_view(WITH_A_FARMER), owner="Ada") == english
