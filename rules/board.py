"""A player's landscape as cards: placing the round's card and acting with a worker."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from rules.errors import IllegalMoveError, InvalidInputError
from rules.landscape import Landscape
from rules.model import (
    MAX_SPAN,
    ROTATIONS,
    WORKERS_PER_PLAYER,
    Card,
    MoveWorker,
    Placement,
    PlaceWorker,
    Point,
    Turn,
    Variants,
    WorkerAction,
    Zone,
)


@dataclass(frozen=True, slots=True)
class PlacedCard:
    """A card lying in a landscape, turned clockwise by ``rotation`` degrees."""

    card: Card
    card_at: Point
    rotation: int


@dataclass(frozen=True, slots=True)
class Board:
    """One player's cards and workers. Immutable: ``play`` returns a new board."""

    cards: tuple[PlacedCard, ...] = ()
    workers: tuple[Point, ...] = ()
    _landscape: list[Landscape] = field(default_factory=list, repr=False, compare=False)
    # The landscape before the last card, and that card's zones: the cheap way to this one.
    _grown_from: tuple[Landscape, list[tuple[Point, Zone]]] | None = field(
        default=None, repr=False, compare=False
    )

    @classmethod
    def from_turns(cls, cards: Sequence[Card], turns: Sequence[Turn]) -> Board:
        """The board after ``turns``, the i-th played with ``cards[i]``, checking no rule.

        For turns that were legal when played (a stored game): far cheaper than ``play``
        turn by turn. Raises ``InvalidInputError`` if there are more turns than cards or a
        worker moves from a zone where none stands.
        """
        if len(turns) > len(cards):
            raise InvalidInputError(f"{len(turns)} turns but only {len(cards)} cards")
        placed = []
        workers: list[Point] = []
        for card, turn in zip(cards, turns, strict=False):
            placed.append(PlacedCard(card, turn.placement.card_at, turn.placement.rotation))
            action = turn.worker
            if isinstance(action, PlaceWorker):
                workers.append(action.zone)
            elif isinstance(action, MoveWorker):
                if action.source not in workers:
                    raise InvalidInputError(f"no worker stands on zone {list(action.source)}")
                workers.remove(action.source)
                workers.append(action.target)
        return cls(tuple(placed), tuple(sorted(workers)))

    @property
    def landscape(self) -> Landscape:
        """The zones and workers of this board as a ``Landscape``."""
        if not self._landscape:
            if self._grown_from is None:
                zones = {
                    point: zone
                    for placed in self.cards
                    for point, zone in placed.card.placed_zones(placed.card_at, placed.rotation)
                }
                landscape = Landscape.from_zones(zones, self.workers)
            else:
                before, added = self._grown_from
                landscape = before.with_zones(added, self.workers)
            self._landscape.append(landscape)
        return self._landscape[0]

    @property
    def supply(self) -> int:
        """Workers still in the supply."""
        return WORKERS_PER_PLAYER - len(self.workers)

    def card_positions(self) -> set[Point]:
        """The card positions taken."""
        return {placed.card_at for placed in self.cards}

    # -- placement ----------------------------------------------------------------------

    def legal_placements(self, variants: Variants = Variants()) -> list[Placement]:
        """Every legal placement of a card, position by position, then by rotation."""
        return [
            Placement(card_at, rotation)
            for card_at in self.legal_positions(variants)
            for rotation in ROTATIONS
        ]

    def legal_positions(self, variants: Variants = Variants()) -> list[Point]:
        """The card positions where the next card may go, sorted."""
        taken = self.card_positions()
        if not taken:
            return [(0, 0)]
        candidates = {
            (r + dr, c + dc) for r, c in taken for dr, dc in variants.card_neighbourhood
        } - taken
        rows = [r for r, _ in taken]
        cols = [c for _, c in taken]
        lo_r, hi_r, lo_c, hi_c = min(rows), max(rows), min(cols), max(cols)
        return sorted(
            (r, c)
            for r, c in candidates
            if max(hi_r, r) - min(lo_r, r) < MAX_SPAN and max(hi_c, c) - min(lo_c, c) < MAX_SPAN
        )

    def check_placement(self, placement: Placement, variants: Variants = Variants()) -> None:
        """Raise ``IllegalMoveError`` naming the rule if ``placement`` is not legal."""
        if placement.rotation not in ROTATIONS:
            raise IllegalMoveError(
                f"a card turns only by 0, 90, 180 or 270 degrees, not {placement.rotation!r}"
            )
        taken = self.card_positions()
        at = placement.card_at
        if not taken:
            if at != (0, 0):
                raise IllegalMoveError("the first card defines position [0, 0] and goes there")
            return
        if at in taken:
            raise IllegalMoveError(f"a card already lies at {list(at)}")
        r, c = at
        if not any((r + dr, c + dc) in taken for dr, dc in variants.card_neighbourhood):
            if variants.diagonal:
                raise IllegalMoveError(
                    f"a card at {list(at)} would touch no placed card at an edge or corner"
                )
            raise IllegalMoveError(
                f"a card at {list(at)} would share no full edge with a placed card"
            )
        rows = [row for row, _ in taken]
        cols = [col for _, col in taken]
        if max(*rows, r) - min(*rows, r) >= MAX_SPAN or max(*cols, c) - min(*cols, c) >= MAX_SPAN:
            raise IllegalMoveError(
                f"a card at {list(at)} would make the landscape more than 4 cards wide or tall"
            )

    def place(self, card: Card, placement: Placement, variants: Variants = Variants()) -> Board:
        """This board with ``card`` placed; raises ``IllegalMoveError``."""
        self.check_placement(placement, variants)
        return self.with_card(card, placement)

    def with_card(self, card: Card, placement: Placement) -> Board:
        """This board with ``card`` placed, checking no rule: for a placement from
        ``legal_placements`` (bots try every one)."""
        return Board(
            (*self.cards, PlacedCard(card, placement.card_at, placement.rotation)),
            self.workers,
            _grown_from=(self.landscape, card.placed_zones(placement.card_at, placement.rotation)),
        )

    # -- workers ------------------------------------------------------------------------

    def legal_worker_actions(self, variants: Variants = Variants()) -> list[WorkerAction]:
        """Every worker action after this round's card (the last one) was placed.

        ``None`` (do nothing) first, then placements on the new card's zones, then moves
        by source and target. Workers stacked on one zone give one set of moves.
        """
        return self.worker_actions(variants, {})

    def worker_actions(self, variants: Variants, moves: MoveCache) -> list[WorkerAction]:
        """``legal_worker_actions``, sharing the moves of one worker between the placements
        of a round through ``moves`` (start it empty): most placements leave a worker the
        same targets, and a lookup beats making them."""
        actions: list[WorkerAction] = [None]
        if self.cards and self.supply > 0:
            last = self.cards[-1]
            actions += [PlaceWorker(point) for point in self._card_points(last)]
        landscape = self.landscape
        for source in dict.fromkeys(self.workers):  # sorted already; stacked workers once
            mask = landscape.target_mask(source, variants.ferryman)
            key = (source, landscape.top, landscape.left, landscape.width, mask)
            known = moves.get(key)
            if known is None:
                known = moves[key] = [MoveWorker(source, t) for t in landscape.zones_in(mask)]
            actions += known
        return actions

    def act(self, action: WorkerAction, variants: Variants = Variants()) -> Board:
        """This board after the worker action; raises ``IllegalMoveError``."""
        if action is None:
            return self
        if isinstance(action, PlaceWorker):
            if self.supply <= 0:
                raise IllegalMoveError(f"all {WORKERS_PER_PLAYER} workers are already placed")
            if not self.cards or action.zone not in self._card_points(self.cards[-1]):
                raise IllegalMoveError(
                    f"a worker may only be placed on the card placed this round, "
                    f"not on zone {list(action.zone)}"
                )
            workers = [*self.workers, action.zone]
        elif isinstance(action, MoveWorker):
            if action.source not in self.workers:
                raise IllegalMoveError(f"no worker stands on zone {list(action.source)}")
            try:
                targets = self.landscape.worker_targets(action.source, ferryman=variants.ferryman)
            except InvalidInputError as error:
                raise IllegalMoveError(str(error)) from None
            if action.target not in targets:
                raise IllegalMoveError(_why_not_reachable(self.landscape, action, variants))
            workers = list(self.workers)
            workers.remove(action.source)
            workers.append(action.target)
        else:
            raise InvalidInputError(f"unknown worker action {action!r}")
        board = Board(self.cards, tuple(sorted(workers)))
        board._landscape.append(self.landscape.with_workers(board.workers))
        return board

    def play(self, card: Card, turn: Turn, variants: Variants = Variants()) -> Board:
        """The board after a whole turn; raises ``IllegalMoveError`` and changes nothing."""
        return self.place(card, turn.placement, variants).act(turn.worker, variants)

    def iter_turns(self, card: Card, variants: Variants = Variants()) -> Iterator[Turn]:
        """Every legal turn with ``card``: each placement with each worker action after it."""
        moves: MoveCache = {}
        for placement in self.legal_placements(variants):
            after = self.with_card(card, placement)  # legal by construction
            for action in after.worker_actions(variants, moves):
                yield Turn(placement, action)

    @staticmethod
    def _card_points(placed: PlacedCard) -> list[Point]:
        return [point for point, _ in placed.card.placed_zones(placed.card_at, placed.rotation)]


#: A worker's moves by its zone, the landscape's top, left and width, and the target mask.
MoveCache = dict[tuple[Point, int, int, int, int], list[MoveWorker]]


def _why_not_reachable(landscape: Landscape, action: MoveWorker, variants: Variants) -> str:
    target = list(action.target)
    if landscape.zone_at(action.target) is None:
        return f"no card lies on zone {target}"
    if action.target in landscape.region_zones(action.source):
        return f"zone {target} is in the worker's own region: moving within it is not a move"
    if variants.ferryman:
        return (
            f"zone {target} is in no region next to the worker's region, "
            f"nor across a neighbouring water region with a fisherman"
        )
    return f"zone {target} is not in a region that shares an edge with the worker's region"
