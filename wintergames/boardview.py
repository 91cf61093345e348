"""What a Winter game's page shows: plain values for the templates.

It decides no rule and writes nothing: the legal places and followers come from the engine
(``Game.legal_moves``), the draft from the page's query (each step of it a link without
JavaScript), the scoring lines from the engine's scoring events.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

import winter
from accounts.models import User
from wintergames import boardhtml, boardwords
from wintergames.models import WinterGame, WinterSeat
from wintergames.rebuild import seat_name

#: Record entries shown in the scoring explanations (the last few turns).
EXPLAINED_TURNS = 6
MAX_DIGITS = 4


@dataclass(frozen=True)
class Draft:
    """The turn being drawn up on the page: a place, a rotation, a follower (each may be
    missing); only values the engine lists as legal survive."""

    at: winter.Point | None = None
    rotation: int | None = None
    follower: str | None = None


def parse_at(raw: str) -> winter.Point | None:
    """``row,col`` in ASCII digits (an optional minus sign), or ``None``."""
    parts = raw.split(",")
    if len(parts) != 2:
        return None
    numbers = []
    for part in parts:
        digits = part.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
            return None
        numbers.append(int(part))
    return numbers[0], numbers[1]


def parse_rotation(raw: str) -> int | None:
    """0, 90, 180 or 270 written plainly, or ``None``."""
    return int(raw) if raw in ("0", "90", "180", "270") else None


def draft_from(params: Mapping[str, str], moves: Sequence[winter.LegalMove]) -> Draft:
    """The draft the query asks for, kept to what the legal moves allow."""
    at = parse_at(params.get("at", ""))
    places = [move for move in moves if move.at == at]
    if not places:
        return Draft()
    rotation = parse_rotation(params.get("rotation", ""))
    move = next((m for m in places if m.rotation == rotation), places[0])
    follower = params.get("follower") or None
    return Draft(move.at, move.rotation, follower if follower in move.followers else None)


@dataclass(frozen=True)
class SeatView:
    name: str
    colour: str
    is_bot: bool
    level: str
    resigned: bool
    score: int
    supply: int
    to_move: bool
    place: int | None
    #: The person at this seat (None for a computer or an open seat), for a Report link.
    user: User | None = None


def _bounds(points: Sequence[winter.Point]) -> tuple[int, int, int, int]:
    rows = [p[0] for p in points]
    cols = [p[1] for p in points]
    return min(rows), max(rows), min(cols), max(cols)


def game_page(
    game: WinterGame,
    seats: Sequence[WinterSeat],
    state: winter.Game,
    viewer: WinterSeat | None,
    *,
    params: Mapping[str, str],
    base_url: str,
) -> dict[str, object]:
    """The context of the game page and of its board fragment."""
    names = [seat_name(seat) for seat in seats]
    running = game.is_running
    drawn = state.drawn if running else None
    mine = (
        running
        and viewer is not None
        and not viewer.resigned
        and seats[state.to_move].pk == viewer.pk
    )
    moves = state.legal_moves(drawn) if mine and drawn else []
    draft = draft_from(params, moves) if mine else Draft()
    places = sorted({move.at for move in moves})
    aids = game.aids and game.status != WinterGame.Status.OPEN
    features = list(state.iter_features())
    parts, view_box = board_parts(state, features, places)
    if aids and running:
        for at in state.iter_dead_places():
            parts.append(
                f'<rect class="w-dead" x="{at[1] * 100 + 6}" y="{at[0] * 100 + 6}" '
                f'width="88" height="88" data-dead="{at[0]},{at[1]}">'
                f"<title>{_('No tile left in the bag can fill this place')}</title></rect>"
            )
    features_json = None
    if aids:
        features_json, hits = feature_data(state, features)
        parts.extend(hits)
    for at in places:
        parts.append(
            format_html(
                '<a class="w-place" href="{}" data-at="{},{}" aria-label="{}">'
                '<rect x="{}" y="{}" width="92" height="92"/></a>',
                base_url + "?" + urlencode({"at": f"{at[0]},{at[1]}"}),
                at[0],
                at[1],
                _("Place the tile at %(place)s") % {"place": boardwords.place_words(at)},
                at[1] * 100 + 4,
                at[0] * 100 + 4,
            )
        )
    if draft.at is not None and drawn is not None and draft.rotation is not None:
        parts.append(boardhtml.tile_at(draft.at, drawn, draft.rotation, css="w-tile w-ghost"))
    rotations = winter.distinct_rotations(drawn) if drawn else ()
    symbols = "".join(
        f'<symbol id="w-drawn-{rotation}" viewBox="0 0 100 100">'
        f"{boardhtml.tile_svg(drawn, rotation)}</symbol>"
        for rotation in rotations
        if drawn
    )
    seat_views = [
        SeatView(
            # An open seat waits for a person: not the "Computer N" of the record's names.
            name=_("open seat") if seat.is_open else names[seat.position],
            colour=boardhtml.COLOURS[seat.position % len(boardhtml.COLOURS)],
            is_bot=seat.is_bot and not seat.resigned,
            level=seat.get_bot_level_display() if seat.is_bot else "",
            resigned=seat.resigned,
            score=seat.score if seat.score is not None else state.score(seat.position),
            supply=state.supply(seat.position),
            to_move=running and state.to_move == seat.position,
            place=seat.place,
            user=seat.user if seat.user_id is not None else None,
        )
        for seat in seats
    ]
    explained: list[tuple[int, str, list[str]]] = []
    first = max(0, len(state.turns) - EXPLAINED_TURNS)
    mover = 0
    for number, turn in enumerate(state.turns, 1):
        if number > first and isinstance(turn, winter.Placement):
            lines = [boardwords.explain(s, names) for s in state.scorings[number - 1]]
            explained.append((number, names[mover], lines))
        if isinstance(turn, winter.Placement):
            mover = (mover + 1) % len(names)
    final_lines = (
        [boardwords.explain(s, names) for s in state.final_scorings()] if game.is_finished else []
    )
    draft_data = {
        "tile": drawn,
        "turn": len(state.turns),
        "moves": [_move_data(state, drawn, move, names) for move in moves] if drawn else [],
        "places": {
            f"{at[0]},{at[1]}": boardwords.place_description(state, at, names) for at in places
        },
        "spots": boardhtml.SPOTS,
        "noFollower": _("No follower."),
        "draft": {
            "at": list(draft.at) if draft.at else None,
            "rotation": draft.rotation,
            "follower": draft.follower,
        },
    }
    context: dict[str, object] = {
        "game": game,
        "seats": seat_views,
        "names": names,
        "to_move": names[state.to_move] if running else None,
        "drawn": drawn,
        "drawn_svg": boardhtml.tile_svg(drawn, draft.rotation or 0) if drawn else None,
        "mine": mine,
        "draft": draft,
        "turn_number": len(state.turns),
        "tiles_left": state.tiles_left,
        "aids": aids,
        "bag": (
            mark_safe(  # escaped items
                "".join(boardhtml.bag_item(name, n) for name, n in sorted(state.bag().items()))
            )
            if aids
            else ""
        ),
        "if_ended": (
            [
                ngettext("%(name)s: %(total)s point", "%(name)s: %(total)s points", total)
                % {"name": name, "total": total}
                for name, total in zip(names, state.totals(), strict=True)
            ]
            if aids and running
            else []
        ),
        "features_json": features_json,
        "board_svg": mark_safe("".join(parts)),  # tiles and marks built from escaped values
        "symbols": mark_safe(symbols),
        "view_box": view_box,
        "explained": list(reversed(explained)),
        "final_lines": final_lines,
        "draft_json": draft_data,
        "links": _draft_links(base_url, moves, draft, drawn) if mine and drawn else {},
        "board_lines": boardwords.board_summary(state, features, names),
        "choice_words": _choice_words(state, drawn, moves, draft, names),
        # Called by the template only where the page (not the board fragment) asks for it.
        "first_game": functools.partial(_is_first_game, viewer),
    }
    return context


def _choice_words(
    state: winter.Game,
    tile: str | None,
    moves: Sequence[winter.LegalMove],
    draft: Draft,
    names: Sequence[str],
) -> str:
    """The draft in words, as the page script says it when the choice changes."""
    if draft.at is None or tile is None:
        return ""
    move = next(m for m in moves if m.at == draft.at and m.rotation == draft.rotation)
    said, stakes = boardwords.move_description(state, tile, move, names)
    follower = stakes[draft.follower] if draft.follower else _("No follower.")
    return " ".join((boardwords.place_description(state, draft.at, names), said, follower))


def _is_first_game(viewer: WinterSeat | None) -> bool:
    """Whether the viewer has yet to finish a Winter game (a hint to the guide)."""
    if viewer is None or viewer.user_id is None:
        return False
    finished = WinterSeat.objects.filter(
        user_id=viewer.user_id, game__status=WinterGame.Status.FINISHED
    )
    return not finished.exists()


def _move_data(
    state: winter.Game, tile: str, move: winter.LegalMove, names: Sequence[str]
) -> dict[str, object]:
    said, stakes = boardwords.move_description(state, tile, move, names)
    return {
        "at": list(move.at),
        "rotation": move.rotation,
        "followers": list(move.followers),
        "words": {name: boardwords.follower_words(tile, move.rotation, name) for name in stakes},
        "say": said,
        "stakes": stakes,
    }


def _draft_links(
    base_url: str, moves: Sequence[winter.LegalMove], draft: Draft, tile: str
) -> dict[str, object]:
    """Each next step of the draft as a link (pages without JavaScript)."""
    if draft.at is None or draft.rotation is None:
        return {}
    at = f"{draft.at[0]},{draft.at[1]}"
    here = [move for move in moves if move.at == draft.at]
    index = next(i for i, m in enumerate(here) if m.rotation == draft.rotation)
    turned = here[(index + 1) % len(here)]
    move = here[index]

    def link(rotation: int, follower: str | None) -> str:
        query = {"at": at, "rotation": str(rotation)}
        if follower:
            query["follower"] = follower
        return base_url + "?" + urlencode(query)

    return {
        "turn": link(turned.rotation, None) if len(here) > 1 else None,
        "followers": [
            (
                name,
                boardwords.follower_words(tile, move.rotation, name),
                link(move.rotation, name),
                name == draft.follower,
            )
            for name in move.followers
        ],
        "no_follower": link(move.rotation, None),
    }


def board_parts(
    state: winter.Game,
    features: Sequence[winter.Feature],
    places: Sequence[winter.Point] = (),
) -> tuple[list[str], str]:
    """The placed tiles, the followers and the last tile's mark as SVG, and the view box
    that holds them and ``places``."""
    board = state.board
    last = next(
        (turn for turn in reversed(state.turns) if isinstance(turn, winter.Placement)), None
    )
    row0, row1, col0, col1 = _bounds([*board, *places])
    width, height = (col1 - col0 + 3) * 100, (row1 - row0 + 3) * 100
    view_box = f"{(col0 - 1) * 100} {(row0 - 1) * 100} {width} {height}"
    parts: list[str] = [boardhtml.tile_at(at, name, rot) for at, (name, rot) in board.items()]
    for feature in features:
        for follower in feature.followers:
            parts.append(
                boardhtml.follower_svg(
                    follower.at, follower.segment, follower.player, feature.kind.value
                )
            )
    if last is not None:
        parts.append(
            f'<rect class="w-last" x="{last.at[1] * 100 + 2}" y="{last.at[0] * 100 + 2}" '
            f'width="96" height="96"><title>{_("The last tile placed")}</title></rect>'
        )
    return parts, view_box


@boardwords.in_language(maxsize=8192)
def _segment_target(
    at: winter.Point, tile: str, segment: str, kind: winter.FeatureKind, language: str | None
) -> str:
    """The pointing target of one segment of a placed tile: the same on every page that
    shows the tile there (hundreds a page, so made once)."""
    x, y = boardhtml.spot_of(tile, segment)
    if kind is winter.FeatureKind.ROAD:
        x, y = boardhtml.ROAD_SPOTS.get(segment, (x, y))
    words = {
        "kind": boardwords.kind_words(kind, language),
        "place": boardwords.place_words(at, language),
    }
    # Not a tab stop each: the board's keys move among them (board.js). An escaped title,
    # numbers and the engine's own names.
    title = escape(_("%(kind)s on %(place)s") % words)
    return (
        f'<circle class="w-seg" cx="{at[1] * 100 + x}" cy="{at[0] * 100 + y}" r="7" '
        f'tabindex="-1" data-seg="{at[0]},{at[1]}:{segment}"><title>{title}</title>'
        "</circle>"
    )


def feature_data(
    state: winter.Game, features: Sequence[winter.Feature]
) -> tuple[dict[str, object], list[str]]:
    """The features for lighting on the page, and a pointing target per segment.

    ``segments`` maps ``"row,col:segment"`` to a feature's index in ``features``; each
    feature lists its tiles, its followers (``[row, col, segment, seat]``), its points
    were it scored now and, for a field, the indexes of the finished cities it borders.
    """
    where: dict[tuple[winter.Point, str], int] = {}
    for index, feature in enumerate(features):
        for at, segment in feature.segments:
            where[(at, segment)] = index
    board = state.board
    rows: list[dict[str, object]] = []
    hits: list[str] = []
    language = get_language()
    for feature in features:
        cities: set[int] = set()
        if feature.kind is winter.FeatureKind.FIELD:
            for at, segment in feature.segments:
                placed = winter.orientation(*board[at])
                own = placed.segment_named(segment)
                assert own is not None
                for city in placed.segments[own].borders:
                    other = where[(at, placed.segment_name[city])]
                    if features[other].complete:
                        cities.add(other)
        rows.append(
            {
                "kind": feature.kind.value,
                "complete": feature.complete,
                "points": feature.points,
                "tiles": [list(at) for at in feature.tiles],
                "followers": [[f.at[0], f.at[1], f.segment, f.player] for f in feature.followers],
                "cities": sorted(cities),
                "text": boardwords.stake_words(feature, language),
            }
        )
        for at, segment in feature.segments:
            hits.append(_segment_target(at, board[at][0], segment, feature.kind, language))
    segments = {f"{at[0]},{at[1]}:{segment}": index for (at, segment), index in where.items()}
    spots = {"spots": boardhtml.SPOTS, "roadSpots": boardhtml.ROAD_SPOTS}
    return {"segments": segments, "features": rows, **spots}, hits


def replay_page(
    game: WinterGame,
    seats: Sequence[WinterSeat],
    state: winter.Game,
    number: int,
    last: int,
) -> dict[str, object]:
    """The context of the replay page: the board after turn ``number`` of ``last``."""
    names = [seat_name(seat) for seat in seats]
    parts, view_box = board_parts(state, list(state.iter_features()))
    base = reverse("winter:replay", kwargs={"pk": game.pk})

    def link(turn: int) -> str | None:
        return f"{base}?turn={turn}" if 0 <= turn <= last and turn != number else None

    lines: list[str] = []
    if 0 < number <= len(state.scorings):
        lines = [boardwords.explain(s, names) for s in state.scorings[number - 1]]
    return {
        "game": game,
        "number": number,
        "last": last,
        "board_svg": mark_safe("".join(parts)),  # built from escaped values
        "view_box": view_box,
        "scores": list(zip(names, state.scores, strict=True)),
        "lines": lines,
        "first_url": link(0),
        "prev_url": link(number - 1),
        "next_url": link(number + 1),
        "last_url": link(last),
    }
