"""A player's landscape as a standalone SVG image (``/games/<id>/landscape.svg``).

Drawn from the board's own page model (``games.boardview.landscape_view``) with the same
terrain art the board and the front page's showcase use (``games/_svg_defs.html``).
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import gettext as _

import rules
from games.boardview import ZONE_ORDER, landscape_view

ZONE = 50  # pixels a zone, as the board's art is drawn (viewBox 0 0 50 50)
GAP = 4  # between cards
MARGIN = 8
CAPTION = 28


def landscape_svg(board: rules.Board, owner: str) -> str:
    """The SVG document of ``board``, captioned with its owner and score."""
    view = landscape_view(board)
    card = 2 * ZONE + GAP
    width = max(view.columns * card - GAP + 2 * MARGIN, 240)
    height = len(view.rows) * card - GAP + 2 * MARGIN + CAPTION
    uses = []
    for r, row in enumerate(view.rows):
        for c, cell in enumerate(row):
            if cell.kind != "card":
                continue
            for (dr, dc), zone in zip(ZONE_ORDER, cell.zones, strict=True):
                x = MARGIN + c * card + dc * ZONE
                y = MARGIN + r * card + dr * ZONE
                at = f'x="{x}" y="{y}" width="{ZONE}" height="{ZONE}"'
                uses.append(f'<use href="#t-{escape(zone.terrain)}" {at}/>')
                if zone.hut:
                    uses.append(f'<use href="#hut" {at}/>')
                if zone.workers:
                    uses.append(f'<use href="#worker" {at}/>')
                if zone.workers > 1:
                    uses.append(
                        f'<text x="{x + 24}" y="{y + 20}" font-size="12">×{zone.workers}</text>'
                    )
    title = escape(_("Landscape of %(owner)s") % {"owner": owner})
    score = escape(_("Score: %(total)s") % {"total": view.score.total})
    return render_to_string(
        "api/landscape.svg",
        {
            "width": width,
            "height": height,
            "title": title,
            "score": score,
            "caption_y": height - MARGIN - 6,
            # Built above from escaped values and numbers only.
            "uses": "\n".join(uses),
        },
    )
