"""Template tags of the board: the parts drawn in Python (``games.boardhtml``) because
they repeat, and the fixed fragments drawn once."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

import rules
from games.boardhtml import card_html, game_drafting_html, landscape_html, score_html
from games.boardview import BoardView, RoundView, drafting_words

register = template.Library()


@register.simple_tag(takes_context=True)
def landscape(context: template.Context, view: BoardView, owner: Any = "") -> SafeString:
    """A landscape grid: ``{% landscape view owner=name %}``; links go to ``base_url``.

    ``base_url`` comes from the page around (the board's ``{% url … as base_url %}``); a
    landscape without it has no links to follow.
    """
    return landscape_html(view, base_url=context.get("base_url") or "", owner=owner or "")


@register.simple_tag
def score_table(view: BoardView) -> SafeString:
    """A landscape's score per worker and in total: ``{% score_table view %}``."""
    return score_html(view)


@register.simple_tag
def drawn_card(card: rules.Card, rotation: int = 0) -> SafeString:
    """A card's four zones turned by ``rotation``: ``{% drawn_card card rotation %}``."""
    return card_html(card, rotation)


@register.simple_tag(takes_context=True)
def game_drafting(context: template.Context) -> SafeString:
    """The game page's drafting board (``games/_drafting.html`` with the game's arguments,
    drawn in Python): ``{% game_drafting %}`` where the board's ``round`` is drawn."""
    game, seat = context["game"], context["seat"]
    hint_allowed = bool(context.get("hint_allowed"))
    return game_drafting_html(
        context["round"],
        base_url=context.get("base_url") or "",
        commit_url=reverse("games:play", args=[game.pk]),
        hint_url=reverse("games:hint", args=[game.pk]) if hint_allowed else "",
        round_number=context["state"].round,
        owner=seat.display_name,
        hint_allowed=hint_allowed,
        csrf_token=context.get("csrf_token"),
    )


@register.simple_tag
def drafting_data(view: RoundView) -> SafeString:
    """The round's outcomes and the words to draw them, for static/js/board.js, as JSON
    that runs nothing (a Content-Security-Policy allows it): ``{% drafting_data round %}``."""
    data = view.drafting
    if not data:
        return mark_safe("")
    words = drafting_words(get_language())
    # Safe: JSON with <, > and & escaped cannot close the element (as json_script does).
    return mark_safe(
        f'<script type="application/json" id="draft-data">{_script_safe(data)}'
        f'</script>\n<script type="application/json" id="draft-words">'
        f"{_script_safe(words)}</script>"
    )


def _script_safe(json_text: str) -> str:
    # What json_script's translate() does, by three replaces: a str.translate whose
    # replacements are longer than a character looks up each of the data's tens of
    # thousands of characters, where a replace searches at C speed.
    return json_text.replace(">", "\\u003E").replace("<", "\\u003C").replace("&", "\\u0026")


@register.simple_tag
def scoring_help() -> SafeString:
    """How scoring works (games/_scoring_help.html), folded beside a score table."""
    return _drawn_once("games/_scoring_help.html")


@register.simple_tag
def keyboard_shortcuts(hint_allowed: bool) -> SafeString:
    """The board's keyboard shortcuts (games/_shortcuts.html), H among them if hints are."""
    return _drawn_once("games/_shortcuts.html", hint_allowed=bool(hint_allowed))


def _drawn_once(template_name: str, **context: bool) -> SafeString:
    # The same markup for everyone in a language: drawn once per process, language and
    # context. While DEBUG, at every use, so templates edited under runserver show at once.
    key = (get_language(), template_name, tuple(sorted(context.items())))
    if settings.DEBUG:
        return _drawn.__wrapped__(*key)
    return _drawn(*key)


@lru_cache(maxsize=32)
def _drawn(
    language: str | None, template_name: str, context: tuple[tuple[str, bool], ...]
) -> SafeString:
    return mark_safe(render_to_string(template_name, dict(context)).rstrip("\n"))
