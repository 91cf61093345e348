"""Template filters of the board: the parts drawn in Python because they repeat."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from games.boardview import CellView

register = template.Library()


@register.filter
def zones_html(cell: CellView, base_url: str) -> SafeString:
    """A card's four zones, with the links the draft allows (``{{ cell|zones_html:url }}``)."""
    return cell.zones_html(base_url or "")
