"""The board's HTML, drawn in Python: zone pictures, cards, the landscape grid, the score
table.

A landscape draws up to 16 cells and 64 zones on every request, and a template include
per zone cost more than the rest of the page: these parts are built here as escaped
strings instead, from the page model of ``games.boardview`` (which only builds data), and
templates reach them through the tags of ``games/templatetags/boards.py``. The output is
the markup the templates drew; whatever comes from outside (labels, names, links) is
escaped, translated text is trusted as template text is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html import escape as _escape_text

from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

import rules
from games.boardview import BoardView, CellView, RoundView, ZoneView, card_zones


def zone_svg(zone: ZoneView) -> SafeString:
    """The zone's picture (terrain, hut, workers) as inline SVG."""
    return _zone_svg(zone.terrain, zone.hut, zone.workers, zone.label)


@lru_cache(maxsize=1024)
def _zone_svg(terrain: str, hut: bool, workers: int, label: str) -> SafeString:
    # A board draws up to 64 zones and only a few hundred distinct ones exist: built once
    # each, not through a template include per zone on every request.
    parts = [
        f'<svg class="zone-art" viewBox="0 0 50 50" role="img" '
        f'aria-label="{escape(label or terrain)}"><use href="#t-{escape(terrain)}"/>'
    ]
    if hut:
        parts.append('<use href="#hut"/>')
    if workers:
        parts.append('<use href="#worker"/>')
        if workers > 1:
            parts.append(f'<text x="24" y="20" class="worker-count">×{workers}</text>')
    parts.append("</svg>")
    # Safe: the only text from outside, the label and the terrain, is escaped above.
    return mark_safe("".join(parts))


def card_html(card: rules.Card, rotation: int = 0) -> SafeString:
    """A card's four zones turned by ``rotation``, drawn as the hand shows them."""
    return _card_html(get_language(), card, rotation)


@lru_cache(maxsize=512)
def _card_html(language: str | None, card: rules.Card, rotation: int) -> SafeString:
    # Safe: zone pictures are built safe (_zone_svg). 24 cards, 4 turns, a few languages.
    zones = card_zones(card, rotation)
    return mark_safe("".join(f'<span class="zone">{zone_svg(zone)}</span>' for zone in zones))


def zones_html(cell: CellView, base_url: str) -> SafeString:
    """A card's zones: a link where the draft allows a click, else a span."""
    # Safe: every part is built escaped by _zone_html.
    return mark_safe("\n".join(_zone_html(zone, base_url) for zone in cell.zones))


def _zone_html(zone: ZoneView, base_url: str) -> str:
    point = f"{zone.point[0]},{zone.point[1]}"
    # Plain text: the standard library's escape, as Django's does it without its test for
    # lazy text, which cost more than the escaping in the board's hundred calls a request.
    label = _escape_text(zone.label)
    if zone.link is None:
        return f'<span class="zone" data-zone="{point}" title="{label}">{zone_svg(zone)}</span>'
    href = _escape_text(f"{base_url}?{zone.link}")
    role = _escape_text(zone.role)
    action = _escape_text(zone.action)
    return (
        f'<a class="zone zone--{role}" href="{href}" hx-get="{href}"\n'
        f'   data-zone="{point}" data-role="{role}" aria-label="{action} ({label})"'
        f' title="{action}">{zone_svg(zone)}</a>'
    )


def cell_html(cell: CellView, base_url: str) -> str:
    """A grid cell: a card with its zones, a + slot to put the card on, or a gap (escaped)."""
    if cell.kind == "void":
        return '<div class="void" role="gridcell"></div>'
    where = _escape_text(cell.position)
    if cell.kind == "slot":
        href = _escape_text(f"{base_url}?{cell.link}")
        # Typing its number picks a slot, in reading order (static/js/board.js); a
        # number of two digits is no single key to announce.
        key = 0 < cell.number < 10
        shortcut = f' aria-keyshortcuts="{cell.number}"' if key else ""
        badge = (
            f'<kbd class="slot-key" aria-hidden="true">{cell.number}</kbd>' if cell.number else ""
        )
        # Translated text is trusted as template text is; only the variable is escaped.
        label = _("Place the card here: %(where)s") % {"where": where}
        return (
            f'<div class="slot-cell" role="gridcell"><a class="slot" href="{href}" '
            f'hx-get="{href}" data-slot="{cell.card_at[0]},{cell.card_at[1]}"{shortcut} '
            f'aria-label="{label}"><span aria-hidden="true">+</span>{badge}</a></div>'
        )
    if cell.kind == "draft":
        css, text = "card card--draft", _("The new card, %(where)s:") % {"where": where}
    else:
        css, text = "card ", _("Card, %(where)s:") % {"where": where}
    # Text, not aria-label: a label would replace the zones a screen reader reads.
    return (
        f'<div class="{css}" role="gridcell" data-card-at="{cell.card_at[0]},'
        f'{cell.card_at[1]}">\n<span class="visually-hidden">{text}</span>\n'
        f"{zones_html(cell, base_url)}\n</div>"
    )


def landscape_html(view: BoardView, *, base_url: str = "", owner: str = "") -> SafeString:
    """The landscape as an ARIA grid: a row per row of cards, a cell per card or slot.

    ``owner`` names whose landscape it is; links lead to ``base_url`` with the draft's
    query string (their hx-target, hx-swap and hx-push-url come from the board around).
    """
    if owner:
        # As {% blocktranslate %}: the translation is trusted, the name is escaped.
        name = _("Landscape of %(owner)s") % {"owner": conditional_escape(owner)}
    else:
        name = escape(_("Landscape"))
    parts = [
        f'<div class="landscape" style="--columns: {view.columns}" role="grid" aria-label="{name}">'
    ]
    for row in view.rows:
        parts.append('<div class="landscape-row" role="row">')
        parts.extend(cell_html(cell, base_url) for cell in row)
        parts.append("</div>")
    parts.append("</div>")
    # Safe: names and links are escaped above and in cell_html.
    return mark_safe("\n".join(parts))


def score_html(view: BoardView) -> SafeString:
    """The score broken down per worker, as a table whose rows light up their region.

    Rows carry the region's zones (``data-region``) for static/js/board.js.
    """
    words = _score_words(get_language())
    total = view.score.total
    rows = []
    for worker in view.workers:
        css, note = ("", "") if worker.counted else ("not-counted", words.not_counted)
        rows.append(
            f'<tr class="{css}" tabindex="0" data-region="{_escape_text(worker.region)}" '
            f'data-worker-zone="{worker.zone[0]},{worker.zone[1]}" data-testid="worker-row">\n'
            f"<td>{_escape_text(worker.description)}</td>\n<td>{worker.points}{note}</td>\n</tr>"
        )
    body = "\n".join(rows) or words.empty
    # As {% blocktranslate %}: the translation is trusted, the number needs no escaping.
    caption = _("Score: %(total)s") % {"total": total}
    # Safe: worker descriptions and regions are escaped, the rest is our own text.
    return mark_safe(
        f'<table class="score-table" data-score-table>\n<caption>{caption}</caption>\n'
        f"{words.head}\n<tbody>\n{body}\n</tbody>\n<tfoot><tr>"
        f'<th scope="row">{words.total}</th><td data-testid="score-total">{total}</td>'
        "</tr></tfoot>\n</table>"
    )


@dataclass(frozen=True)
class _ScoreWords:
    head: str
    total: str
    not_counted: str
    empty: str


@lru_cache(maxsize=16)
def _score_words(language: str | None) -> _ScoreWords:
    # The table's fixed words, escaped once per language. Translated outside the f-strings:
    # xgettext reads no call inside one, and scripts/messages would drop these words.
    worker, points = escape(_("Worker")), escape(_("Points"))
    not_counted = escape(_("another worker scores this region"))
    empty = escape(_("No workers yet."))
    return _ScoreWords(
        head=(
            f'<thead><tr><th scope="col">{worker}</th><th scope="col">{points}</th></tr></thead>'
        ),
        total=escape(_("Total")),
        not_counted=f" <small>({not_counted})</small>",
        empty=f'<tr><td colspan="2">{empty}</td></tr>',
    )


# -- the game's drafting board ------------------------------------------------------------


@dataclass(frozen=True)
class _DraftingWords:
    hint_position: str
    hint_target: str
    hint_worker: str
    hand: str
    card_label: str
    commit_keep: str
    commit_place: str
    commit_move: str
    turn_left: str
    turn_right: str
    shift: str
    hint: str
    hint_note: str
    score_preview: str


@lru_cache(maxsize=16)
def _drafting_words(language: str | None) -> _DraftingWords:
    # Translated text is trusted as template text is ({% translate %} leaves it as it is).
    from django.utils.translation import pgettext

    return _DraftingWords(
        hint_position=_("Turn the card, then choose a + slot for it."),
        hint_target=_(
            "Choose a highlighted zone to move the worker to, or click it again to cancel."
        ),
        hint_worker=_(
            "Optionally click a zone of the new card to place a worker, or a worker to move "
            "it. Then commit."
        ),
        hand=_("Your card and turn"),
        card_label=_("The card of this round"),
        commit_keep=_("Commit: place card"),
        commit_place=_("Commit: place card and worker"),
        commit_move=_("Commit: place card and move worker"),
        turn_left=_("Turn left"),
        turn_right=_("Turn right"),
        shift=pgettext("keyboard key", "Shift"),
        hint=_("Hint"),
        hint_note=_(
            "Shows the computer's choice as your draft. A game with a hint stays off the boards."
        ),
        score_preview=_("Score preview"),
    )


def _point_field(name: str, point: tuple[int, int]) -> str:
    return f'<input type="hidden" name="{name}" value="{point[0]},{point[1]}">'


def game_drafting_html(
    view: RoundView,
    *,
    base_url: str,
    commit_url: str,
    hint_url: str,
    round_number: int,
    owner: str,
    hint_allowed: bool,
    csrf_token: object,
) -> SafeString:
    """The game page's drafting board: what ``games/_drafting.html`` draws with the game's
    arguments (``hint_text``, ``round_number``, ``game_board``, ``owner``), drawn here
    because a commit's answer draws it every round. ``tests/games/test_drafting_html.py``
    holds the two equal, byte for byte."""
    # Imported here: the tags draw the parts the template draws through them.
    from games.templatetags.boards import drafting_data, keyboard_shortcuts, scoring_help

    words = _drafting_words(get_language())
    draft = view.draft
    if view.phase == "position":
        hint_line = f"    {words.hint_position}\n    \n"
    elif draft.move_from and not draft.move_to:
        hint_line = f"    {words.hint_target}\n    \n"
    else:
        hint_line = f"    {words.hint_worker}\n"
    base = escape(base_url)
    commit = escape(commit_url)
    card_title = _("Card %(number)s") % {"number": view.card.number}
    csrf = (
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(csrf_token)}">'
        if csrf_token and csrf_token != "NOTPROVIDED"
        else ""
    )
    fields = [f'<input type="hidden" name="rot" value="{draft.rotation}">\n']
    fields.append(_point_field("at", draft.card_at) + "\n" if draft.card_at else "\n")
    fields.append(_point_field("place", draft.place) + "\n" if draft.place else "\n")
    if draft.move_from and draft.move_to:
        fields.append(
            f"\n  {_point_field('from', draft.move_from)}\n  {_point_field('to', draft.move_to)}\n"
        )
    # As the template's if, elif, else over three lines leaves them.
    if draft.place:
        label = f"{words.commit_place}\n          "
    elif draft.move_to:
        label = f"{words.commit_move}\n          "
    else:
        label = words.commit_keep
    disabled = "" if view.can_commit else "disabled"
    hint_form = ""
    if hint_allowed:
        hint = escape(hint_url)
        hint_form = (
            f'\n      <form method="post" action="{hint}" hx-post="{hint}" hx-push-url="false" '
            f'hx-disabled-elt="find button" class="hint-form">\n'
            f"        {csrf}\n"
            '        <button type="submit" class="button button--secondary" data-key="hint" '
            'data-testid="hint"\n'
            '                aria-keyshortcuts="H">💡 <span class="hint-label">'
            f"{words.hint}</span> <small>(H)</small></button>\n"
            f'        <small class="hint">{words.hint_note}</small>\n'
            "      </form>\n      "
        )
    left = escape(draft.rotated_left)
    right = escape(draft.rotated_right)
    parts = [
        "\n\n",
        '  <p class="hint" data-testid="hint"\n',
        f'     data-hint-position="{words.hint_position}"\n',
        f'     data-hint-target="{words.hint_target}"\n',
        f'     data-hint-worker="{words.hint_worker}">\n',
        hint_line,
        "  </p>\n\n",
        '  <div class="play-area">\n',
        f'    <aside class="hand" data-testid="hand" aria-label="{words.hand}">\n',
        f'      <h2 class="hand__title">{card_title}</h2>\n',
        f'      <div class="card card--hand" aria-label="{words.card_label}">\n',
        f"        {card_html(view.card, draft.rotation)}\n",
        "      </div>\n",
        # games/_turn_buttons.html
        '      \n<div class="turn-buttons">\n',
        f'  <a class="button button--secondary" data-key="rotate-left" href="{base}?{left}" '
        f'hx-get="{base}?{left}"\n',
        f'     aria-keyshortcuts="Shift+R" title="{words.turn_left} ({words.shift}+R)">⟲ '
        f'<span class="turn-label">{words.turn_left}</span></a>\n',
        f'  <a class="button button--secondary" data-key="rotate" href="{base}?{right}" '
        f'hx-get="{base}?{right}"\n',
        f'     aria-keyshortcuts="R" title="{words.turn_right} (R)">⟳ '
        f'<span class="turn-label">{words.turn_right}</span></a>\n',
        "</div>\n\n",
        "      \n",
        f'      <form method="post" class="commit-form" action="{commit}"\n',
        f'            hx-post="{commit}" hx-push-url="false" hx-disabled-elt="find button">\n',
        f"        {csrf}\n",
        f'        <input type="hidden" name="round" value="{round_number}">\n',
        # games/_draft_fields.html
        "        \n",
        *fields,
        "\n\n",
        "        \n",
        '        <button type="submit" class="button primary" data-key="commit"\n',
        f'                {disabled} aria-keyshortcuts="Enter"\n',
        f'                data-label-keep="{words.commit_keep}"\n',
        f'                data-label-place="{words.commit_place}"\n',
        f'                data-label-move="{words.commit_move}">\n',
        f"          {label}\n",
        "        </button>\n",
        "        \n",
        '        <span class="htmx-indicator" aria-hidden="true">…</span>\n',
        "      </form>\n      ",
        hint_form,
        "\n      \n",
        f"      {keyboard_shortcuts(hint_allowed)}\n",
        "    </aside>\n",
        '    <div class="landscape-wrap landscape-wrap--play">\n',
        f"      {landscape_html(view.board, base_url=base_url, owner=owner)}\n",
        "    </div>\n",
        '    <aside class="preview">\n',
        f"      <h2>{words.score_preview}</h2>\n",
        f"      {score_html(view.board)}\n",
        f"      {scoring_help()}\n",
        "    </aside>\n",
        "  </div>\n",
        f"  {drafting_data(view)}\n",
    ]
    # Safe: addresses and the token are escaped above, the parts drawn elsewhere are safe.
    return mark_safe("".join(parts))
