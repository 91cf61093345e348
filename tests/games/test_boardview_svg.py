"""Zone pictures drawn in Python: the same SVG the template drew, escaped."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from games.boardhtml import zone_svg, zones_html
from games.boardview import CellView, ZoneView


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    # Whatever language an earlier test's request left active in this thread.
    with translation.override("en"):
        yield


def test_a_zone_with_a_hut_and_two_workers() -> None:
    zone = ZoneView((0, 0), "forest", True, workers=2, label="forest, hut, 2 worker(s)")

    assert zone_svg(zone) == (
        '<svg class="zone-art" viewBox="0 0 50 50" role="img" '
        'aria-label="forest, hut, 2 worker(s)"><use href="#t-forest"/><use href="#hut"/>'
        '<use href="#worker"/><text x="24" y="20" class="worker-count">×2</text></svg>'
    )


def test_a_bare_zone_is_named_by_its_terrain() -> None:
    assert zone_svg(ZoneView((1, 1), "water", False)) == (
        '<svg class="zone-art" viewBox="0 0 50 50" role="img" aria-label="water">'
        '<use href="#t-water"/></svg>'
    )


def test_a_label_cannot_break_out_of_its_attribute() -> None:
    # Labels are translated text: a translation must not be able to inject markup.
    svg = zone_svg(ZoneView((0, 0), "field", False, label='"><script>x</script>'))

    assert "<script>" not in svg
    assert "&quot;&gt;&lt;script&gt;" in svg


def test_a_card_draws_links_where_the_draft_allows_a_click_and_escapes_them() -> None:
    cell = CellView(
        (0, 0),
        "draft",
        [
            ZoneView((0, 0), "field", False, link="rot=90&at=0,0&place=0,0", role="place"),
            ZoneView((0, 1), "tower", False, label="tower"),
        ],
    )

    html = zones_html(cell, "/games/3/")

    assert (
        '<a class="zone zone--place" href="/games/3/?rot=90&amp;at=0,0&amp;place=0,0" '
        'hx-get="/games/3/?rot=90&amp;at=0,0&amp;place=0,0"' in html
    )
    # A link is named by what it does, then by what the zone holds.
    assert 'data-zone="0,0" data-role="place" aria-label="Place a worker on this field (' in html
    assert 'title="Place a worker on this field"' in html
    assert '<span class="zone" data-zone="0,1" title="tower"><svg' in html
    assert html.count("<svg") == 2
