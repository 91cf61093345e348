"""The Winter board in words: follower choices, the place being drafted, the whole board.

What a sighted player reads off the picture, said for everyone else (screen readers, the
no-JavaScript links, the follower buttons). It decides no rule: the features, their points
and the legal moves come from the engine.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

import winter
from wintergames import boardhtml

#: The middle of each side (N E S W) and of each half-side, in tile units.
_SIDE_SPOTS = boardhtml.MIDS
_HALF_SPOTS = tuple(boardhtml.SPOTS[name] for name in winter.HALF_SIDES)
#: A segment's centre nearer the tile's middle than this lies "in the middle".
_MIDDLE = 10
#: The places a feature's line lists before "and N more".
PLACES_LISTED = 4
_DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W

T = TypeVar("T")


def in_language(maxsize: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Keep what a function of words returns by its arguments, the last of them the
    language to say it in (made in that language at the first call, then kept): a board's
    page asks for the same few hundred words on every turn."""

    def decorate(make: Callable[..., T]) -> Callable[..., T]:
        @functools.lru_cache(maxsize=maxsize)
        @functools.wraps(make)
        def kept(*args: Any) -> T:
            with translation.override(args[-1]):
                return make(*args)

        return kept

    return decorate


def where_words(key: str) -> str:
    """A part of a tile as a phrase that follows a noun: "to the north-east"."""
    return _where_phrases(get_language())[key]


@in_language(maxsize=16)
def _where_phrases(language: str | None) -> dict[str, str]:
    # Once a language, as the kinds' nouns.
    return {
        "N": pgettext("winter direction", "to the north"),
        "NE": pgettext("winter direction", "to the north-east"),
        "E": pgettext("winter direction", "to the east"),
        "SE": pgettext("winter direction", "to the south-east"),
        "S": pgettext("winter direction", "to the south"),
        "SW": pgettext("winter direction", "to the south-west"),
        "W": pgettext("winter direction", "to the west"),
        "NW": pgettext("winter direction", "to the north-west"),
        "middle": pgettext("winter direction", "in the middle"),
    }


def direction(segment: winter.Segment) -> str:
    """Where a segment lies on its tile: a compass point (``"NE"``) or ``"middle"``."""
    spots = [_SIDE_SPOTS[side] for side in segment.sides]
    spots += [_HALF_SPOTS[half] for half in segment.halves]
    if not spots:
        return "middle"
    dx = sum(x for x, _y in spots) / len(spots) - 50
    dy = sum(y for _x, y in spots) / len(spots) - 50
    if math.hypot(dx, dy) < _MIDDLE:
        return "middle"
    sector = round(math.degrees(math.atan2(dx, -dy)) / 45) % 8
    return ("N", "NE", "E", "SE", "S", "SW", "W", "NW")[sector]


def follower_words(tile: str, rotation: int, name: str) -> str:
    """A follower place (a FORMATS.md name such as ``"N"`` or ``"e1"``) on ``tile`` as
    placed, in words: "knight in the city", "farmer in the field to the north-east".

    Raises InvalidInputError for an unknown tile and ValueError for a name that names no
    segment of the tile."""
    return _follower_words(tile, rotation, name, get_language())


@in_language(maxsize=4096)
def _follower_words(tile: str, rotation: int, name: str, language: str | None) -> str:
    placed = winter.orientation(tile, rotation)
    index = placed.segment_named(name)
    if index is None:
        raise ValueError(f"{name!r} names no segment of {tile}")
    segment = placed.segments[index]
    kind = segment.kind
    if kind is winter.FeatureKind.CLOISTER:
        return _("monk in the cloister")
    alike = sum(1 for other in placed.segments if other.kind is kind)
    where = {"where": where_words(direction(segment))}
    if kind is winter.FeatureKind.CITY:
        return _("knight in the city %(where)s") % where if alike > 1 else _("knight in the city")
    if kind is winter.FeatureKind.ROAD:
        return _("thief on the road %(where)s") % where if alike > 1 else _("thief on the road")
    return _("farmer in the field %(where)s") % where if alike > 1 else _("farmer in the field")


def kind_words(kind: winter.FeatureKind, language: str | None = None) -> str:
    """A feature's kind as a noun: "city"."""
    return _kind_nouns(language or get_language())[kind]


@in_language(maxsize=16)
def _kind_nouns(language: str | None) -> dict[winter.FeatureKind, str]:
    # Once a language: a board's words ask for these nouns hundreds of times.
    return {
        winter.FeatureKind.CITY: pgettext("winter feature", "city"),
        winter.FeatureKind.ROAD: pgettext("winter feature", "road"),
        winter.FeatureKind.CLOISTER: pgettext("winter feature", "cloister"),
        winter.FeatureKind.FIELD: pgettext("winter feature", "field"),
    }


def points_words(points: int, language: str | None = None) -> str:
    """ "1 point", "3 points" (three forms in Czech).

    ``language``, here and below, is the active one (``get_language()``), given by a
    caller that asks for hundreds of words on one page."""
    return _points_words(points, language or get_language())


@in_language(maxsize=1024)
def _points_words(points: int, language: str | None) -> str:
    return ngettext("%(n)d point", "%(n)d points", points) % {"n": points}


def stake_words(feature: winter.Feature, language: str | None = None) -> str:
    """What a feature is worth were it scored now: "City: 8 points at stake"."""
    # Many features share their words ("Road: 2 points at stake"): made once each.
    return _stake_words(feature.kind, feature.points, feature.cities, language or get_language())


@in_language(maxsize=1024)
def _stake_words(kind: winter.FeatureKind, points: int, cities: int, language: str | None) -> str:
    values = {"kind": capfirst(kind_words(kind)), "points": points_words(points)}
    if kind is not winter.FeatureKind.FIELD:
        return _("%(kind)s: %(points)s at stake") % values
    values["cities"] = ngettext(
        "%(n)d finished city beside it", "%(n)d finished cities beside it", cities
    ) % {"n": cities}
    return _("%(kind)s: %(points)s at stake, %(cities)s") % values


def place_words(at: winter.Point, language: str | None = None) -> str:
    """A place on the board: "(2, -1)", row first."""
    return _place_words(at, language or get_language())


@in_language(maxsize=4096)
def _place_words(at: winter.Point, language: str | None) -> str:
    return pgettext("winter place", "(%(row)d, %(col)d)") % {"row": at[0], "col": at[1]}


def _held(feature: winter.Feature, names: Sequence[str]) -> str:
    owners = sorted({follower.player for follower in feature.followers})
    return ", ".join(names[seat] for seat in owners)


def _feature_words(
    feature: winter.Feature, names: Sequence[str], language: str | None = None
) -> str:
    held = _held(feature, names)
    kind = kind_words(feature.kind, language)
    return _("%(kind)s (%(who)s)") % {"kind": kind, "who": held} if held else kind


def neighbour_words(state: winter.Game, at: winter.Point, names: Sequence[str]) -> str:
    """What touches an empty place: "city (ana) to the north; road to the east"."""
    parts = []
    for side, (dr, dc) in enumerate(_DELTAS):
        there = (at[0] + dr, at[1] + dc)
        tile = state.tile_at(there)
        if tile is None:
            continue
        facing = (side + 2) % 4
        placed = winter.orientation(*tile)
        terrain = placed.sides[facing]
        if terrain is winter.Terrain.FIELD:
            what = kind_words(winter.FeatureKind.FIELD)
        else:
            what = _feature_words(state.feature_at(there, winter.SIDES[facing]), names)
        where = where_words(winter.SIDES[side])
        parts.append(_("%(what)s %(where)s") % {"what": what, "where": where})
    return "; ".join(parts)


def place_description(state: winter.Game, at: winter.Point, names: Sequence[str]) -> str:
    """An empty place and what touches it, for the choice being announced."""
    return _("Place %(place)s. Touching it: %(neighbours)s.") % {
        "place": place_words(at),
        "neighbours": neighbour_words(state, at, names),
    }


def move_description(
    state: winter.Game, tile: str, move: winter.LegalMove, names: Sequence[str]
) -> tuple[str, dict[str, str]]:
    """A rotation at a place in words (what it would finish), and each follower choice in
    words with the points at stake on its feature."""
    # Without the deal: a description must not depend on the tiles still to be drawn.
    after = state.copy(hide_order=True)
    scorings = after.play(winter.Placement(tile, move.at, move.rotation))
    said = [_("Turned %(degrees)d degrees.") % {"degrees": move.rotation}]
    if scorings:
        finished = "; ".join(explain(scoring, names) for scoring in scorings)
        said.append(_("Finishes %(what)s.") % {"what": finished})
    followers: dict[str, str] = {}
    for name in move.followers:
        feature = after.feature_at(move.at, name)
        words = follower_words(tile, move.rotation, name)
        if feature.kind is winter.FeatureKind.FIELD:
            stake = _("%(points)s at the end as the field stands") % {
                "points": points_words(feature.points)
            }
        elif feature.complete:
            stake = _("%(points)s at once") % {"points": points_words(feature.points)}
        else:
            stake = _("%(points)s as it stands, %(finished)s once finished") % {
                "points": points_words(feature.points),
                "finished": points_words(feature.points_if_completed),
            }
        followers[name] = _("%(follower)s: %(stake)s") % {"follower": words, "stake": stake}
    return " ".join(said), followers


def _names(players: Sequence[int], names: Sequence[str]) -> str:
    return " & ".join(names[seat] for seat in players)


def explain(scoring: winter.Scoring, names: Sequence[str]) -> str:
    """One scoring in words: "ana's city: 4 tiles, 1 shield, 10 points"."""
    who = _names(scoring.players, names)
    points = ngettext("%(n)d point", "%(n)d points", scoring.points) % {"n": scoring.points}
    tiles = ngettext("%(n)d tile", "%(n)d tiles", scoring.tiles) % {"n": scoring.tiles}
    kind = scoring.kind
    if kind is winter.FeatureKind.CITY:
        shields = ngettext("%(n)d shield", "%(n)d shields", scoring.shields) % {
            "n": scoring.shields
        }
        return _("%(who)s's city: %(tiles)s, %(shields)s, %(points)s") % {
            "who": who,
            "tiles": tiles,
            "shields": shields,
            "points": points,
        }
    if kind is winter.FeatureKind.ROAD:
        return _("%(who)s's road: %(tiles)s, %(points)s") % {
            "who": who,
            "tiles": tiles,
            "points": points,
        }
    if kind is winter.FeatureKind.CLOISTER:
        return _("%(who)s's cloister: %(tiles)s, %(points)s") % {
            "who": who,
            "tiles": tiles,
            "points": points,
        }
    cities = ngettext(
        "%(n)d finished city beside it", "%(n)d finished cities beside it", scoring.cities
    ) % {"n": scoring.cities}
    return _("%(who)s's field: %(cities)s, %(points)s") % {
        "who": who,
        "cities": cities,
        "points": points,
    }


def _places(tiles: Sequence[winter.Point], language: str | None = None) -> str:
    shown = ", ".join(place_words(at, language) for at in tiles[:PLACES_LISTED])
    more = len(tiles) - PLACES_LISTED
    if more > 0:
        shown += " " + ngettext("and %(n)d more tile", "and %(n)d more tiles", more) % {"n": more}
    return shown


def board_summary(
    state: winter.Game, features: Sequence[winter.Feature], names: Sequence[str]
) -> list[str]:
    """The board as lines of text: the tiles placed, each feature with a follower on it
    (who holds it, where, what it is worth) and how many lie open with nobody on them."""
    board = state.board
    language = get_language()
    rows = [at[0] for at in board]
    cols = [at[1] for at in board]
    lines = [
        ngettext(
            "%(n)d tile placed, from row %(r0)d to %(r1)d and column %(c0)d to %(c1)d.",
            "%(n)d tiles placed, from row %(r0)d to %(r1)d and column %(c0)d to %(c1)d.",
            len(board),
        )
        % {"n": len(board), "r0": min(rows), "r1": max(rows), "c0": min(cols), "c1": max(cols)}
    ]
    kinds = (
        winter.FeatureKind.CITY,
        winter.FeatureKind.ROAD,
        winter.FeatureKind.CLOISTER,
        winter.FeatureKind.FIELD,
    )
    nobody = dict.fromkeys(kinds[:3], 0)
    for kind in kinds:
        for feature in features:
            if feature.kind is not kind or feature.complete:
                continue
            if not feature.followers:
                if kind in nobody:
                    nobody[kind] += 1
                continue
            # A cloister's tiles are its neighbours as well: name its own place.
            tiles = feature.tiles if kind is not winter.FeatureKind.CLOISTER else ()
            values = {
                "feature": _feature_words(feature, names, language),
                "places": _places(tiles or (feature.segments[0][0],), language),
                "points": points_words(feature.points, language),
                "finished": points_words(feature.points_if_completed, language),
            }
            if kind is winter.FeatureKind.FIELD:
                line = _("%(feature)s on %(places)s: %(points)s at the end as it stands.")
            else:
                line = _(
                    "%(feature)s on %(places)s: %(points)s as it stands, "
                    "%(finished)s once finished."
                )
            lines.append(line % values)
    open_ones = [
        ngettext("%(n)d city", "%(n)d cities", nobody[winter.FeatureKind.CITY]),
        ngettext("%(n)d road", "%(n)d roads", nobody[winter.FeatureKind.ROAD]),
        ngettext("%(n)d cloister", "%(n)d cloisters", nobody[winter.FeatureKind.CLOISTER]),
    ]
    counts = ", ".join(
        words % {"n": n} for words, n in zip(open_ones, nobody.values(), strict=True) if n
    )
    if counts:
        lines.append(_("Unfinished with nobody on them: %(counts)s.") % {"counts": counts})
    return lines
