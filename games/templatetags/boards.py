"""Template tags of the board: the parts drawn in Python because they repeat."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.boardview import BoardView

register = template.Library()


@register.simple_tag(takes_context=True)
def landscape(context: template.Context, view: BoardView, owner: Any = "") -> SafeString:
    """A landscape grid: ``{% landscape view owner=name %}``; links go to ``base_url``.

    ``base_url`` comes from the page around (the board's ``{% url … as base_url %}``); a
    landscape without it has no links to follow.
    """
    return view.html(base_url=context.get("base_url") or "", owner=owner or "")


@register.simple_tag
def score_table(view: BoardView) -> SafeString:
    """A landscape's score per worker and in total: ``{% score_table view %}``."""
    return view.score_html()


@register.simple_tag
def scoring_help() -> SafeString:
    """How scoring works (games/_scoring_help.html), folded beside a score table."""
    if settings.DEBUG:
        # Templates edited while the development server runs show at once.
        return _scoring_help.__wrapped__(get_language())
    return _scoring_help(get_language())


@lru_cache(maxsize=16)
def _scoring_help(language: str | None) -> SafeString:
    # The same words for everyone in a language: drawn once per process and language.
    return mark_safe(render_to_string("games/_scoring_help.html"))
