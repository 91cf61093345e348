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


@register.simple_tag
def keyboard_shortcuts(hint_allowed: bool) -> SafeString:
    """The board's keyboard shortcuts (games/_shortcuts.html), H among them if hints are."""
    if settings.DEBUG:
        return _keyboard_shortcuts.__wrapped__(get_language(), bool(hint_allowed))
    return _keyboard_shortcuts(get_language(), bool(hint_allowed))


@lru_cache(maxsize=32)
def _keyboard_shortcuts(language: str | None, hint_allowed: bool) -> SafeString:
    # The same for every draft: drawn once per process, language and hint or not.
    html = render_to_string("games/_shortcuts.html", {"hint_allowed": hint_allowed})
    return mark_safe(html.rstrip("\n"))
