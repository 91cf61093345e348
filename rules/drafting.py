"""Every outcome of a round's draft at once: each legal placement of the card, each legal
worker action after it and the score that would follow, for a page that drafts without
asking the server at every step.

A round has up to a few thousand turns, so they are worked out region by region: a
worker moves to any zone of a region next to its own (``Landscape.worker_targets``), and
every zone of a region nobody scores yet ends the same way, so such a region's moves are
one outcome; a worker action changes at most two regions' workers, so a total is the
placement's total with those two changed. ``tests/rules/test_drafting.py`` checks every
outcome against ``score``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass

from rules.board import Board
from rules.landscape import Landscape, Regions
from rules.model import Card, Placement, Point, Variants

#: The total score after a worker action and the workers whose region another worker
#: scores (sorted; usually none).
Ending = tuple[int, tuple[Point, ...]]
#: A worker's moves to some zones of one region that end alike: the region (numbered as in
#: ``landscape.regions()``), the zones (``None``: all of the region's), whether the worker
#: arriving scores the region, and the ending, whose uncounted workers leave out the one
#: arriving (it is among them when it does not score).
Move = tuple[int, tuple[Point, ...] | None, bool, Ending]


@dataclass(frozen=True, slots=True)
class PlacementOutcomes:
    """A legal placement, the board after it and the ending of each worker action.

    ``keep``: no worker action. ``place``: ``(zone, ending)`` for each zone of the new
    card a worker may be placed on. ``move``: for each zone with workers, its moves
    (``Move``): one a region nobody scores yet, at most two a region scored already.
    """

    placement: Placement
    board: Board
    keep: Ending
    place: list[tuple[Point, Ending]]
    move: dict[Point, list[Move]]

    @property
    def landscape(self) -> Landscape:
        """The landscape after the placement, before any worker action."""
        return self.board.landscape


def iter_draft_outcomes(
    board: Board, card: Card, variants: Variants = Variants()
) -> Iterator[PlacementOutcomes]:
    """Each legal placement of ``card`` on ``board`` with every worker action's ending.

    Together they hold every turn of ``board.iter_turns(card, variants)``, each with the
    total and the uncounted workers of ``board.play(card, turn, variants)``'s score.
    """
    for placement in board.legal_placements(variants):
        after = board.with_card(card, placement)  # legal by construction
        yield _outcomes(placement, after, variants)


def _outcomes(placement: Placement, after: Board, variants: Variants) -> PlacementOutcomes:
    landscape = after.landscape
    regions = landscape.regions()
    region_at = regions.region_at
    value = regions.value
    # Each occupied region's workers, sorted: the first scores it, the others do not.
    occupied: dict[int, list[Point]] = {}
    for point in after.workers:
        occupied.setdefault(region_at(point), []).append(point)
    total = sum(value[region] for region in occupied)
    # Usually each worker has a region of its own: nobody is left uncounted.
    uncounted = () if len(occupied) == len(after.workers) else _uncounted(occupied)
    place = []
    if after.supply > 0:
        for zone in Board._card_points(after.cards[-1]):
            region = region_at(zone)
            place.append((zone, _arrive(region, zone, total, occupied, uncounted, value)))
    move: dict[Point, list[Move]] = {}
    # A scored region's zones before and after the worker who scores it: the same for
    # every worker moving there (its own region is never its target).
    split: dict[int, tuple[tuple[Point, ...], tuple[Point, ...] | None]] = {}
    ferryman = variants.ferryman
    for source in dict.fromkeys(after.workers):  # stacked workers move alike
        own = region_at(source)
        if len(occupied[own]) == 1:
            # Alone in its region (the usual case): leaving takes that region's points
            # and changes no one's count. Its own region is never a target, so the
            # others' regions are read from ``occupied`` itself.
            left_total, rest, left_uncounted = total - value[own], occupied, uncounted
        else:
            left_total, rest, left_uncounted = _leave(source, own, total, occupied, value)
        reachable = regions.targets(own, occupied, ferryman)
        if not reachable:
            continue
        targets = sorted(reachable)
        if rest.keys().isdisjoint(reachable):
            # No target scored yet (common): each region's moves are one outcome.
            move[source] = [
                (region, None, True, (left_total + value[region], left_uncounted))
                for region in targets
            ]
            continue
        found: list[Move] = []
        for region in targets:
            there = rest.get(region)
            if not there:
                found.append((region, None, True, (left_total + value[region], left_uncounted)))
                continue
            # The region is scored already: by the worker who comes first in order, the
            # one arriving on a zone before it, else the one there.
            first = there[0]
            halves = split.get(region)
            if halves is None:
                zones = _zones(landscape, regions, region)
                cut = bisect_left(zones, first)  # the zones are sorted
                halves = split[region] = (
                    tuple(zones[:cut]),
                    tuple(zones[cut:]) if cut else None,
                )
            before, after_first = halves
            if before:
                ending = (left_total, tuple(sorted((*left_uncounted, first))))
                found.append((region, before, True, ending))
            if after_first != ():
                found.append((region, after_first, False, (left_total, left_uncounted)))
        if found:
            move[source] = found
    return PlacementOutcomes(placement, after, (total, uncounted), place, move)


def _zones(landscape: Landscape, regions: Regions, region: int) -> list[Point]:
    return [landscape._point(i) for i in sorted(regions.cells[region])]


def _leave(
    source: Point, own: int, total: int, occupied: dict[int, list[Point]], value: list[int]
) -> tuple[int, dict[int, list[Point]], tuple[Point, ...]]:
    rest = dict(occupied)
    stay = list(occupied[own])
    stay.remove(source)
    if stay:
        rest[own] = stay
    else:
        del rest[own]
        total -= value[own]
    return total, rest, _uncounted(rest)


def _arrive(
    region: int,
    zone: Point,
    total: int,
    occupied: dict[int, list[Point]],
    uncounted: tuple[Point, ...],
    value: list[int],
) -> Ending:
    there = occupied.get(region)
    if not there:
        return (total + value[region], uncounted)
    # The region is scored already: whoever comes first in order scores it.
    joined = {**occupied, region: sorted([*there, zone])}
    return (total, _uncounted(joined))


def _uncounted(occupied: dict[int, list[Point]]) -> tuple[Point, ...]:
    return tuple(sorted(point for points in occupied.values() for point in points[1:]))
