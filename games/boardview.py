"""What the board page shows: a player's landscape, the round's draft, legal choices.

The player's draft (rotation, position, worker action) lives in the URL until they commit
it, so nothing is stored before the commit and reload or back/forward show the same draft.
This module turns rules objects and stored games into plain values for templates (the
page model); it decides no rule, writes nothing and draws no HTML (``games.boardhtml``
draws the landscape, the score table and the cards from these values).
"""

from __future__ import annotations

import datetime
import json
import string
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from urllib.parse import urlencode

from django.core.cache import cache
from django.http import QueryDict
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

import rules
from games import analysis
from games.framing import titles_of
from games.models import SOLO_RATING_LABELS, BotLevel, Game, Lockstep, Seat
from games.names import TERRAIN_NAMES
from games.policy import hint_refusal
from games.rebuild import game_moves, player_key, rules_game
from games.selectors import daily_par, lockstep_tally

Point = tuple[int, int]


@dataclass(frozen=True)
class Draft:
    """A round in the making, as read from request parameters."""

    rotation: int = 0
    card_at: Point | None = None
    place: Point | None = None
    move_from: Point | None = None
    move_to: Point | None = None
    # The round the draft was made in: an address from an earlier round (the browser's
    # Back after a commit) must not carry its choices over to a new card.
    round: int | None = None

    @classmethod
    def from_params(cls, params: QueryDict) -> Draft:
        """Read ``rot``, ``at``, ``place``, ``from``, ``to`` and ``n``; raise ``ValueError``."""
        rotation = int(params.get("rot") or 0)
        if rotation not in rules.ROTATIONS:
            raise ValueError(_("A card turns by 0, 90, 180 or 270 degrees."))
        round_text = params.get("n")
        return cls(
            rotation,
            _point(params.get("at")),
            _point(params.get("place")),
            _point(params.get("from")),
            _point(params.get("to")),
            _small_int(round_text) if round_text else None,
        )

    def for_round(self, number: int) -> Draft:
        """This draft if it was made in round ``number``, else a fresh one for that round."""
        if self.round is not None and self.round != number:
            return Draft(round=number)
        return replace(self, round=number)

    @classmethod
    def from_turn(cls, turn: rules.Turn) -> Draft:
        """The draft that commits ``turn`` (a hint shown as the player's own choice)."""
        worker = turn.worker
        return cls(
            turn.placement.rotation,
            turn.placement.card_at,
            worker.zone if isinstance(worker, rules.PlaceWorker) else None,
            worker.source if isinstance(worker, rules.MoveWorker) else None,
            worker.target if isinstance(worker, rules.MoveWorker) else None,
        )

    def params(self, **changes: object) -> str:
        """The query string of this draft with some fields changed."""
        values: dict[str, object] = {
            "rot": self.rotation,
            "at": self.card_at,
            "place": self.place,
            "from": self.move_from,
            "to": self.move_to,
            "n": self.round,
        }
        values.update(changes)
        # What urlencode would give (a point's comma as %2C), built directly: a board
        # asks for a few dozen of these a page, and urlencode's quoting was a tenth of it.
        parts = []
        for key, value in values.items():
            if value is None or (key == "rot" and not value):
                continue
            if isinstance(value, tuple):
                parts.append(f"{key}={value[0]:d}%2C{value[1]:d}")
            elif isinstance(value, int):
                parts.append(f"{key}={value:d}")
            else:
                parts.append(urlencode({key: value}))
        return "&".join(parts)

    @property
    def rotated_right(self) -> str:
        """The query string after turning the card 90° clockwise (worker choice reset)."""
        return self._turned(90)

    @property
    def rotated_left(self) -> str:
        """The query string after turning the card 90° anticlockwise (worker choice reset)."""
        return self._turned(270)

    def _turned(self, degrees: int) -> str:
        rotation = (self.rotation + degrees) % 360
        return self.params(rot=rotation, place=None, **{"from": None, "to": None})

    @property
    def worker(self) -> rules.WorkerAction:
        if self.place is not None:
            return rules.PlaceWorker(self.place)
        if self.move_from is not None and self.move_to is not None:
            return rules.MoveWorker(self.move_from, self.move_to)
        return None

    def turn(self) -> rules.Turn:
        """The turn to commit; raises ``ValueError`` when no position is chosen."""
        if self.card_at is None:
            raise ValueError(_("Choose where the card goes first."))
        return rules.Turn(rules.Placement(self.card_at, self.rotation), self.worker)


def _point(text: str | None) -> Point | None:
    if not text:
        return None
    row, _sep, col = text.partition(",")
    return (_small_int(row), _small_int(col))


def _small_int(text: str) -> int:
    # int() accepts unicode digits and any length; a coordinate or round is a few ASCII digits.
    text = text.strip()
    if not text.lstrip("-").isascii() or len(text) > 4:
        raise ValueError(text)
    return int(text)


@dataclass
class ZoneView:
    point: Point
    terrain: str
    hut: bool
    workers: int = 0
    link: str | None = None  # query string of the draft this zone's click leads to
    role: str = ""  # "place", "source", "selected", "target" or ""
    label: str = ""

    @property
    def action(self) -> str:
        """What following this zone's link does, as a screen reader names the control."""
        if self.role not in ZONE_ACTIONS:
            return self.label
        return _zone_action(get_language(), self.role, self.terrain)


@dataclass
class CellView:
    card_at: Point
    kind: str  # "card", "draft", "slot" or "void"
    zones: list[ZoneView] = field(default_factory=list)
    link: str | None = None
    position: str = ""  # where the cell is in the shown grid, in words
    number: int = 0  # a slot's place in reading order


@dataclass
class WorkerRow:
    """One line of a score breakdown: who the worker is, where, and what it earns."""

    zone: Point
    description: str
    points: int
    counted: bool
    region: str  # the zones of its region as "r,c r,c …", to light them up on the board


@dataclass
class BoardView:
    rows: list[list[CellView]]
    score: rules.Score
    columns: int
    workers: list[WorkerRow] = field(default_factory=list)


ZONE_ORDER = ((0, 0), (0, 1), (1, 0), (1, 1))  # reading order, for a 2x2 CSS grid

ZONE_ACTIONS = {
    "place": gettext_lazy("Place a worker on this %(terrain)s"),
    "source": gettext_lazy("Move the worker from this %(terrain)s"),
    "target": gettext_lazy("Move the worker to this %(terrain)s"),
    "selected": gettext_lazy("Take back the worker choice on this %(terrain)s"),
}


def position_words(row: int, rows: int, column: int, columns: int) -> str:
    """Where a cell is in a grid of ``rows`` by ``columns``, in words (1-based)."""
    return _position_words(get_language(), row, rows, column, columns)


# The caches below hold translated words, keyed by the language they are in (the active
# one when they are drawn): pure functions of small immutable values, the same in every
# process, so a process-local cache is as good as a shared one and costs no round trip.


@lru_cache(maxsize=2048)  # up to 21 x 21 (row, rows, column, columns) a language
def _position_words(language: str | None, row: int, rows: int, column: int, columns: int) -> str:
    if rows == 1:
        vertical = _("the only row")
    elif row == 1:
        vertical = _("top row")
    elif row == rows:
        vertical = _("bottom row")
    else:
        vertical = _("row %(n)d from the top") % {"n": row}
    if columns == 1:
        horizontal = _("the only column")
    elif column == 1:
        horizontal = _("far left")
    elif column == columns:
        horizontal = _("far right")
    else:
        horizontal = _("column %(n)d from the left") % {"n": column}
    return f"{vertical}, {horizontal}"


def landscape_view(
    board: rules.Board,
    *,
    slots: Sequence[Point] = (),
    draft: Draft | None = None,
    draft_at: Point | None = None,
    zone_links: dict[Point, tuple[str, str]] | None = None,
) -> BoardView:
    """Lay out a board's cards and the empty legal slots around them."""
    landscape = board.landscape
    positions = {placed.card_at for placed in board.cards} | set(slots)
    if not positions:
        positions = {(0, 0)}
    rows_range = range(min(r for r, _ in positions), max(r for r, _ in positions) + 1)
    cols_range = range(min(c for _, c in positions), max(c for _, c in positions) + 1)
    taken = {placed.card_at for placed in board.cards}
    counts: dict[Point, int] = {}
    for point in landscape.workers:
        counts[point] = counts.get(point, 0) + 1
    zone_links = zone_links or {}
    language = get_language()  # once: each call reads a context-local variable
    rows = []
    slot_number = 0
    for row_number, r in enumerate(rows_range, start=1):
        row = []
        for column_number, c in enumerate(cols_range, start=1):
            position = _position_words(
                language, row_number, len(rows_range), column_number, len(cols_range)
            )
            if (r, c) in taken:
                zones = []
                for dr, dc in ZONE_ORDER:
                    point = (2 * r + dr, 2 * c + dc)
                    zone = landscape.zone_at(point)
                    assert zone is not None
                    link, role = zone_links.get(point, (None, ""))
                    zones.append(
                        ZoneView(
                            point,
                            zone.terrain.value,
                            zone.hut,
                            counts.get(point, 0),
                            link,
                            role,
                            _zone_label_in(language, zone.terrain, zone.hut, counts.get(point, 0)),
                        )
                    )
                kind = "draft" if (r, c) == draft_at else "card"
                row.append(CellView((r, c), kind, zones, position=position))
            elif (r, c) in slots and draft is not None:
                link = draft.params(at=(r, c), place=None, **{"from": None, "to": None})
                # Typed numbers pick the slots in reading order (static/js/board.js).
                slot_number += 1
                row.append(
                    CellView((r, c), "slot", link=link, number=slot_number, position=position)
                )
            else:
                row.append(CellView((r, c), "void"))
        rows.append(row)
    score = landscape.score()
    workers = [_worker_row(landscape, worker) for worker in score.workers]
    return BoardView(rows, score, len(cols_range), workers)


@lru_cache(maxsize=128)
def _zone_action(language: str | None, role: str, terrain: str) -> str:
    return str(ZONE_ACTIONS[role]) % {"terrain": TERRAIN_NAMES[rules.Terrain(terrain)]}


def _worker_row(landscape: rules.Landscape, worker: rules.WorkerScore) -> WorkerRow:
    region = landscape.region_zones(worker.zone)
    return WorkerRow(
        worker.zone,
        _describe(get_language(), worker.profession, len(region)),
        worker.points,
        worker.counted,
        " ".join(f"{r},{c}" for r, c in sorted(region)),
    )


def _zone_label(zone: rules.Zone, workers: int) -> str:
    return _zone_label_in(get_language(), zone.terrain, zone.hut, workers)


@lru_cache(maxsize=512)
def _zone_label_in(language: str | None, terrain: rules.Terrain, hut: bool, workers: int) -> str:
    label = str(TERRAIN_NAMES[terrain])
    if hut:
        label += ", " + _("hut")
    if workers:
        label += ", " + ngettext("%d worker", "%d workers", workers) % workers
    return label


@dataclass
class RoundView:
    """Everything the board partial needs for the round in play."""

    board: BoardView
    card: rules.Card  # the round's card, shown in the hand turned by the draft's rotation
    draft: Draft
    error: str | None
    can_commit: bool
    phase: str  # "position", "worker"
    supply: int
    announcement: str = ""  # the draft so far, for the live region
    # What the page needs to draft without asking (``drafting_json``), made when first
    # drawn; the game page keeps it per round and seat (``cache_key``). ``cache_new``: the
    # round has just begun (the commit that began it draws it), so nothing can be kept
    # yet: it is made and kept without asking the cache first.
    board_before: rules.Board | None = None
    variants: rules.Variants = rules.Variants()
    cache_key: str = ""
    cache_new: bool = False

    @property
    def drafting(self) -> str:
        """Every outcome of this round's draft as compact JSON (see ``drafting_json``)."""
        if self.board_before is None:
            return ""
        # Before a card is placed, the board shown is the board the data starts from.
        args = (self.board_before, self.card, self.variants, self.draft.round)
        shown = self.board if self.phase == "position" else None
        if not self.cache_key:
            return drafting_json(*args, shown)
        key = f"{self.cache_key}:{get_language()}"
        cached = None if self.cache_new else cache.get(key)
        if cached is None:
            cached = drafting_json(*args, shown)
            cache.set(key, cached, DRAFTING_SECONDS)
        return str(cached)


def _announce(view: BoardView, draft: Draft) -> str:
    parts = []
    if draft.rotation:
        parts.append(_("Card turned by %(degrees)d degrees.") % {"degrees": draft.rotation})
    cells = {cell.card_at: cell for row in view.rows for cell in row}
    placed = cells.get(draft.card_at) if draft.card_at is not None else None
    if placed is None:
        parts.append(_("Choose a slot for the card."))
        return " ".join(parts)
    parts.append(_("Card placed: %(position)s.") % {"position": placed.position})
    zones = {zone.point: zone for cell in cells.values() for zone in cell.zones}
    if draft.place is not None and draft.place in zones:
        terrain = TERRAIN_NAMES[rules.Terrain(zones[draft.place].terrain)]
        parts.append(_("A worker goes on this %(terrain)s.") % {"terrain": terrain})
    elif draft.move_to is not None and draft.move_to in zones:
        terrain = TERRAIN_NAMES[rules.Terrain(zones[draft.move_to].terrain)]
        parts.append(_("The worker moves to this %(terrain)s.") % {"terrain": terrain})
    elif draft.move_from is not None:
        parts.append(_("Choose where the worker moves to."))
    return " ".join(parts)


def round_view(
    board: rules.Board, card: rules.Card, variants: rules.Variants, draft: Draft
) -> RoundView:
    """The board with the draft applied as far as it is legal, and the next choices."""
    error = None
    slots = board.legal_positions(variants)
    if draft.card_at is not None and draft.card_at not in slots:
        error = _("The card cannot go there.")
        draft = Draft(draft.rotation, round=draft.round)
    if draft.card_at is None:
        view = landscape_view(board, slots=slots, draft=draft)
        return RoundView(
            view,
            card,
            draft,
            error,
            False,
            "position",
            board.supply,
            _announce(view, draft),
            board,
            variants,
        )

    placed = board.place(card, rules.Placement(draft.card_at, draft.rotation), variants)
    actions = placed.legal_worker_actions(variants)
    shown = placed
    if draft.worker is not None:
        if draft.worker in actions:
            shown = placed.act(draft.worker, variants)
        else:
            error = _("That worker action is not allowed.")
            draft = Draft(draft.rotation, draft.card_at, round=draft.round)
    links: dict[Point, tuple[str, str]] = {}
    clear = {"place": None, "from": None, "to": None}
    if draft.move_from is not None and draft.move_to is None:
        for action in actions:
            if isinstance(action, rules.MoveWorker) and action.source == draft.move_from:
                links[action.target] = (draft.params(to=action.target), "target")
        links[draft.move_from] = (draft.params(**clear), "selected")
    else:
        for action in actions:
            if isinstance(action, rules.PlaceWorker):
                links[action.zone] = (draft.params(**{**clear, "place": action.zone}), "place")
        for source in sorted({a.source for a in actions if isinstance(a, rules.MoveWorker)}):
            links[source] = (draft.params(**{**clear, "from": source}), "source")
        if draft.place is not None:
            links[draft.place] = (draft.params(**clear), "selected")
        if draft.move_to is not None:
            links[draft.move_to] = (draft.params(**clear), "selected")
    # Other legal positions stay visible so the player can change their mind.
    view = landscape_view(shown, slots=slots, draft=draft, draft_at=draft.card_at, zone_links=links)
    return RoundView(
        view,
        card,
        draft,
        error,
        True,
        "worker",
        shown.supply,
        _announce(view, draft),
        board,
        variants,
    )


# -- drafting in the browser --------------------------------------------------------------

#: How long a round's outcomes stay cached: a round is rarely longer.
DRAFTING_SECONDS = 3600


class _PointTexts(dict[Point, str]):
    # A point's text, once each: a round's data names tens of thousands of points, of a
    # few hundred (a landscape spans at most 8 zones from its first card either way).
    # Looked up with the dict's own ``__getitem__``, which calls no Python but the first
    # time.
    def __missing__(self, point: Point) -> str:
        text = self[point] = f"{point[0]},{point[1]}"
        return text


_POINT_TEXT = _PointTexts()
_key = _POINT_TEXT.__getitem__


def _keys(points: Sequence[Point]) -> str:
    return " ".join(map(_key, points))


def drafting_json(
    board: rules.Board,
    card: rules.Card,
    variants: rules.Variants,
    number: int | None,
    view: BoardView | None = None,
) -> str:
    """What a page needs to draft a round without asking the server (docs/formats.md,
    "Drafting data"): the board before the card, the card in each turn, and for every
    legal placement each legal worker action with the exact score after it.

    The outcomes come from ``rules.iter_draft_outcomes``; the page only looks them up.
    Holds the round's card and nothing of the cards to come. ``view``: the board already
    laid out with its slots for a draft of this round (``landscape_view``), if drawn.
    """
    language = get_language()
    if view is None:
        slots = board.legal_positions(variants)
        view = landscape_view(board, slots=slots, draft=Draft(round=number))
    grid: list[list[str | None]] = []
    cells: dict[str, list[list[object]]] = {}
    where: dict[str, str] = {}
    for row in view.rows:
        keys: list[str | None] = []
        for cell in row:
            if cell.kind == "void":
                keys.append(None)
                continue
            key = _key(cell.card_at)
            keys.append(key)
            where[key] = cell.position
            if cell.kind != "slot":
                cells[key] = [[z.terrain, int(z.hut)] for z in cell.zones]
        grid.append(keys)
    descriptions: dict[str, int] = {}
    described: dict[tuple[int, int], int] = {}  # by terrain code and region size
    # The placements are most of the data and repeat themselves: a round's few region rows,
    # endings and moves recur across its placements and workers. Each one's JSON text is
    # made once a round and the placements' text put together from them, as json.dumps
    # would write it (only numbers, null and strings with nothing to escape).
    placements: list[str] = []
    rows: dict[tuple[int, int, int], str] = {}
    endings: dict[rules.Ending, str] = {}
    moves_made: dict[rules.drafting.Move, str] = {}

    def ending(end: rules.Ending) -> str:
        # The ending's items, without brackets: it ends a longer list too.
        made = endings.get(end)
        if made is None:
            total, uncounted = end
            made = endings[end] = f'{total},"{_keys(uncounted)}"' if uncounted else str(total)
        return made

    def move_text(move: rules.drafting.Move) -> str:
        made = moves_made.get(move)
        if made is None:
            region, zones, counts, end = move
            where = "null" if zones is None else f'"{_keys(zones)}"'
            made = moves_made[move] = f"[{region},{where},{int(counts)},{ending(end)}]"
        return made

    for outcomes in rules.iter_draft_outcomes(board, card, variants):
        land = outcomes.landscape
        regions = land.regions()
        table = []
        for code, members, points in zip(
            regions.terrain, regions.cells, regions.value, strict=True
        ):
            # A region's row, by terrain, size and points.
            shape = (code, len(members), points)
            made = rows.get(shape)
            if made is None:
                kind = (code, len(members))
                index = described.get(kind)
                if index is None:
                    text = _describe(language, _TERRAIN_ORDER[code].profession, len(members))
                    index = described[kind] = descriptions.setdefault(text, len(descriptions))
                made = rows[shape] = f"[{index},{points}]"
            table.append(made)
        moves = ",".join(
            f'"{_key(source)}":[{",".join(map(move_text, found))}]'
            for source, found in outcomes.move.items()
        )
        places = ",".join(f'["{_key(zone)}",{ending(end)}]' for zone, end in outcomes.place)
        placement = outcomes.placement
        region_map = "".join(map(_REGION_CHARS.__getitem__, regions.region_of))
        placements.append(
            f'"{_key(placement.card_at)}@{placement.rotation}":'
            f'{{"grid":[{land.top},{land.left},{land.width},"{region_map}"],'
            f'"regions":[{",".join(table)}],"keep":[{ending(outcomes.keep)}],'
            f'"place":[{places}],"move":{{{moves}}}}}'
        )
    data = {
        "n": number,
        "supply": board.supply,
        "columns": view.columns,
        "grid": grid,
        "cells": cells,
        "where": where,
        "workers": [_key(p) for p in board.workers],
        # The score before the card is placed: [total, [zone, words, points, counted, region]].
        "score": [
            view.score.total,
            [
                [_key(w.zone), w.description, w.points, int(w.counted), w.region]
                for w in view.workers
            ],
        ],
        "card": {
            str(rotation): [[z.terrain, int(z.hut)] for z in card_zones(card, rotation)]
            for rotation in rules.ROTATIONS
        },
        "descriptions": list(descriptions),
    }
    # No container holds itself, and the shared ones above would only be looked for.
    head = json.dumps(data, separators=(",", ":"), ensure_ascii=False, check_circular=False)
    # The placements last, as their key came last in the dict this once was.
    return f'{head[:-1]},"placements":{{{",".join(placements)}}}}}'


_TERRAIN_ORDER = tuple(rules.Terrain)  # as the rules' terrain codes number them
# A region's number as one character of a placement's region map; "." where no card lies.
_REGION_CHARS = {-1: ".", **dict(enumerate(string.digits + string.ascii_letters + "+/"))}


def _ending(ending: rules.Ending) -> list[object]:
    total, uncounted = ending
    return [total, _keys(uncounted)] if uncounted else [total]


def _terrain_at(land: rules.Landscape, point: Point) -> rules.Terrain:
    zone = land.zone_at(point)
    assert zone is not None
    return zone.terrain


@lru_cache(maxsize=256)
def _describe(language: str | None, profession: rules.Profession, size: int) -> str:
    if profession == rules.Profession.FARMER:
        text = ngettext("farmer on a field of %(n)d zone", "farmer on a field of %(n)d zones", size)
    elif profession == rules.Profession.FISHERMAN:
        text = ngettext(
            "fisherman on a lake of %(n)d zone", "fisherman on a lake of %(n)d zones", size
        )
    elif profession == rules.Profession.WOODCUTTER:
        text = ngettext(
            "woodcutter in a forest of %(n)d zone", "woodcutter in a forest of %(n)d zones", size
        )
    else:
        text = _("watchman on a tower")
    return text % {"n": size}


@lru_cache(maxsize=16)
def drafting_words(language: str | None) -> str:
    """The words the page's drafting uses, translated (JSON, once a language)."""
    terrains = [t.value for t in rules.Terrain]
    words = {
        "terrain": {t.value: str(TERRAIN_NAMES[t]) for t in rules.Terrain},
        "labels": {
            f"{t.value}{int(hut)}{workers}": _zone_label_in(language, t, hut, workers)
            for t in rules.Terrain
            for hut in (False, True)
            for workers in range(rules.WORKERS_PER_PLAYER + 1)
        },
        "actions": {
            f"{role}:{terrain}": _zone_action(language, role, terrain)
            for role in ZONE_ACTIONS
            for terrain in terrains
        },
        "slot": _("Place the card here: %(where)s"),
        "new_card": _("The new card, %(where)s:"),
        "old_card": _("Card, %(where)s:"),
        "caption": _("Score: %(total)s"),
        "not_counted": _("another worker scores this region"),
        "no_workers": _("No workers yet."),
        "turned": _("Card turned by %(degrees)d degrees."),
        "choose_slot": _("Choose a slot for the card."),
        "placed": _("Card placed: %(position)s."),
        "worker_goes": _("A worker goes on this %(terrain)s."),
        "worker_moves": _("The worker moves to this %(terrain)s."),
        "choose_target": _("Choose where the worker moves to."),
        "supply": [
            ngettext("%(n)s worker in your supply", "%(n)s workers in your supply", n) % {"n": n}
            for n in range(rules.WORKERS_PER_PLAYER + 1)
        ],
    }
    return json.dumps(words, separators=(",", ":"), ensure_ascii=False)


def card_zones(card: rules.Card, rotation: int = 0) -> list[ZoneView]:
    """A card's zones turned by ``rotation``, in reading order for a 2x2 grid."""
    zones = _reading_order(card.rotated(rotation))
    return [
        ZoneView(offset, zone.terrain.value, zone.hut, label=_zone_label(zone, 0))
        for offset, zone in zip(ZONE_ORDER, zones, strict=True)
    ]


def _reading_order(zones: tuple[rules.Zone, ...]) -> list[rules.Zone]:
    # Clockwise TL, TR, BR, BL -> reading order TL, TR, BL, BR.
    return [zones[0], zones[1], zones[3], zones[2]]


# -- the game page ------------------------------------------------------------------------


def game_page(
    game: Game,
    state: rules.Game,
    seat: Seat | None,
    *,
    draft_params: QueryDict,
    error: str | None = None,
    with_table: bool = True,
    round_begun: bool = False,
) -> dict[str, object]:
    """The game page's context for ``seat``'s viewer (``None``: a spectator).

    The final standings once the game is over; else the table (others' landscapes as of
    the last complete round) and, for a player the round waits for, their draft.
    ``round_begun``: drawn by the commit that began the round it shows (its drafting data
    cannot have been kept yet).
    """
    context: dict[str, object] = {"game": game, "state": state, "seat": seat, "error": error}
    seats = list(game.seats.all())
    # Called by the template only where it offers a computer player (an open game's table):
    # a round's board, which every commit draws, translates no level.
    context["bot_levels"] = BotLevel.choices_with_scores
    if with_table and game.mode == Game.Mode.MULTI and not game.is_finished:
        context["table"] = table_view(game, state, seats, seat)
    if with_table and game.lockstep_id is not None and game.is_active:
        context["live_table"] = live_table_view(game)
    if state.is_over or game.is_finished:
        context["nobody_finished"] = game.mode == Game.Mode.MULTI and all(s.has_left for s in seats)
        ordered = sorted(seats, key=lambda s: (s.place or 99, s.position))
        scores = [state.boards[player_key(s)].landscape.score() for s in ordered]
        context["final"] = [
            {"seat": s, "score": score, "board": landscape_view(state.boards[player_key(s)])}
            for s, score in zip(ordered, scores, strict=True)
        ]
        if game.mode == Game.Mode.SOLO and state.is_over:
            context["rating"] = SOLO_RATING_LABELS[rules.solo_rating(scores[0].total)]
        context["final_with_bots"] = any(s.is_bot for s in seats)
        if game.is_finished:
            context["analysis"] = analysis.report(game)
            if game.daily is not None:
                context["par"] = daily_par(day=game.daily, ruleset=game.ruleset)
        return context
    if seat is None or not game.is_active:
        return context
    player = player_key(seat)
    # (At a live table the rules game already waits for a card the table has not dealt.)
    if player not in state.waiting_for() or seat.rounds_played >= game.round:
        # Played this round already, or left the game: their landscape, nothing to draft.
        context["own"] = {
            "board": landscape_view(state.boards[player]),
            "score": state.boards[player].landscape.score(),
        }
        return context
    card = state.current_card
    assert card is not None
    try:
        draft = Draft.from_params(draft_params).for_round(state.round)
    except ValueError:
        draft = Draft(round=state.round)
        error = error or _("That choice could not be read; start the round again.")
    view = round_view(state.boards[player], card, state.variants, draft)
    # The outcomes depend on the seat's board before the round and the round's card
    # alone, which no later commit changes: one for each round and seat.
    view.cache_key = f"drafting:{game.pk}:{seat.pk}:{state.round}"
    view.cache_new = round_begun
    context.update(round=view, card=card, error=error or view.error)
    context["hint_allowed"] = hint_refusal(game, seats, seat) is None
    return context


@dataclass(frozen=True)
class LiveTableView:
    """A live table's game in play: the table's clock and how many are still to play."""

    lockstep_id: int
    deadline: datetime.datetime | None
    waiting: int
    players: int
    back_url: str
    #: Players who missed a card and so left the deal (one missed card ends a live deal).
    missed: int = 0


def live_table_view(game: Game) -> LiveTableView:
    """What a live table's game shows of the table (``Lockstep``): two counts."""
    table = Lockstep.objects.get(games=game)
    tally = lockstep_tally(table)
    return LiveTableView(
        lockstep_id=table.pk,
        deadline=table.deadline,
        waiting=tally.waiting,
        players=tally.players,
        back_url=table.back_url,
        missed=tally.missed,
    )


def table_view(
    game: Game, state: rules.Game, seats: list[Seat], viewer: Seat | None
) -> dict[str, object]:
    """What everyone at the table may see: each landscape as of the last complete round.

    A choice made in the round in play stays hidden from the others (and from
    spectators) until every player has made theirs.
    """
    public = _completed_rounds(game, seats) if game.is_active else state
    waiting = set(state.waiting_for()) if game.is_active else set()
    entries = []
    for s in seats:
        key = player_key(s)
        board = public.boards[key]
        entries.append(
            {
                "seat": s,
                "is_viewer": viewer is not None and s.pk == viewer.pk,
                "has_played": (
                    game.is_active and s.status == Seat.Status.PLAYING and key not in waiting
                ),
                "board": landscape_view(board),
                "score": board.landscape.score().total,
            }
        )
    return {
        "entries": entries,
        "with_bots": any(s.is_bot for s in seats),
        "waiting": [s for s in seats if player_key(s) in waiting],
        "shown_round": game.round - 1 if game.is_active else None,
    }


def _completed_rounds(game: Game, seats: list[Seat]) -> rules.Game:
    # From the seats' stored turns, as the game in play is: no query and no rule checked
    # (the moves, replayed, where a stored copy is out of step). Only the boards are read.
    return rules_game(game, seats, before_round=game.round)


def replay_page(game: Game, *, wanted_round: int | None) -> dict[str, object]:
    """A finished game's replay page: every landscape after ``wanted_round`` (default: the
    first, as one tells the story of a game)."""
    seats = list(game.seats.all())
    moves = game_moves(game)
    # A game that ended early (everyone left) has fewer rounds, and its later cards were
    # never revealed: the replay stops where the play did.
    played = max((m.round for m in moves), default=0)
    first = min(1, played)
    shown_round = first if wanted_round is None else max(first, min(played, wanted_round))
    # Rebuilt like the game itself, so players who left leave at the same point.
    partial = rules_game(game, seats, [m for m in moves if m.round <= shown_round])
    report = analysis.report(game)
    mistakes = {r.seat.pk: r.mistake_in(shown_round) for r in report.seats}
    better = {}
    if any(mistakes.values()):
        # The computer's choice, drawn on the landscape as it stood before the round.
        before = rules_game(game, seats, [m for m in moves if m.round < shown_round])
        card = before.deck.card(game.cards[shown_round - 1])
        for seat_pk, mistake in mistakes.items():
            if mistake is None:
                continue
            seat = next(s for s in seats if s.pk == seat_pk)
            turn = rules.turn_from_json(mistake.best_turn)
            board = before.boards[player_key(seat)].play(card, turn, before.variants)
            better[seat_pk] = landscape_view(board, draft_at=turn.placement.card_at)
    return {
        "game": game,
        # As the game's own page names it (a tournament's deal: by its tournament).
        "title": titles_of([game])[game.pk],
        "analysis": report,
        "shown_round": shown_round,
        "card": partial.deck.card(game.cards[shown_round - 1]) if shown_round else None,
        "seats": [
            {
                "seat": s,
                "board": landscape_view(partial.boards[player_key(s)]),
                "score": partial.boards[player_key(s)].landscape.score(),
                "mistake": mistakes.get(s.pk),
                "better": better.get(s.pk),
            }
            for s in seats
        ],
        "rounds": range(played + 1),
        "last_round": played,
    }
