"""Winter tiles drawn in a page's text (the rules and the first-game guide)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

import winter
from wintergames import boardhtml

register = template.Library()
#: How wide a tile is drawn in the text, in rem.
TILE_REM = 6


def _placed(spec: str) -> tuple[winter.Point, str, int, str]:
    """``"WinA 0,-1 270 E"``: a tile, its place, its rotation and a follower (optional)."""
    name, at, rotation, *follower = spec.split()
    row, col = (int(n) for n in at.split(","))
    return (row, col), name, int(rotation), follower[0] if follower else ""


@register.simple_tag
def winter_landscape(specs: str, label: str) -> SafeString:
    """A small landscape as an ``<svg>`` picture: tiles written ``"WinD 0,0 0 N; …"`` (name,
    row,col, rotation, the follower's place if one stands there), in the first seat's colour."""
    parts: list[str] = []
    places = []
    for spec in specs.split(";"):
        at, name, rotation, follower = _placed(spec)
        places.append(at)
        parts.append(boardhtml.tile_at(at, name, rotation))
        if follower:
            placed = winter.orientation(name, rotation)
            index = placed.segment_named(follower)
            if index is None:
                raise template.TemplateSyntaxError(f"{follower!r} names no part of {name}")
            kind = placed.segments[index].kind.value
            parts.append(boardhtml.follower_svg(at, follower, 0, kind))
    rows = [at[0] for at in places]
    cols = [at[1] for at in places]
    view_box = (
        f"{min(cols) * 100} {min(rows) * 100} "
        f"{(max(cols) - min(cols) + 1) * 100} {(max(rows) - min(rows) + 1) * 100}"
    )
    width = (max(cols) - min(cols) + 1) * TILE_REM
    return format_html(
        '<svg class="w-rules-board" viewBox="{}" style="--w: {}rem" role="img" aria-label="{}">'
        "{}</svg>",
        view_box,
        width,
        label,
        mark_safe("".join(parts)),  # tiles and followers drawn from escaped values
    )
