"""The interactive first game: the lesson script as data, and the judge of each step.

A step is a fixed position (cards of our deck laid in a fixed order), the card to play,
what the learner is asked to do and a goal. The rules package judges the learner's turn:
it must be legal, have the form the step asks for (a farmer placed, a worker moved, a
corner slot…) and score as well as this card allows. Every number an explanation shows
comes from the rules' own scoring of the position, never from this file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules
from games.names import TERRAIN_NAMES

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

Point = tuple[int, int]
Kind = Literal["join", "place", "move", "total", "diagonal", "ferry"]

PROFESSION_NAMES = {
    rules.Profession.FARMER: gettext_lazy("farmer"),
    rules.Profession.FISHERMAN: gettext_lazy("fisherman"),
    rules.Profession.WOODCUTTER: gettext_lazy("woodcutter"),
    rules.Profession.WATCHMAN: gettext_lazy("watchman"),
}


def _laid(number: int, at: Point, rotation: int = 0, worker: Point | None = None) -> Laid:
    return Laid(
        number, rules.Turn(rules.Placement(at, rotation), worker and rules.PlaceWorker(worker))
    )


@dataclass(frozen=True)
class Laid:
    """A card of the position, laid as a turn of the fixed game before the step."""

    card: int
    turn: rules.Turn


@dataclass(frozen=True)
class Verdict:
    """What the judge says of a turn: passed or not, why, and the board to show."""

    passed: bool
    explanation: str
    board: rules.Board
    legal: bool = True


@dataclass(frozen=True)
class Step:
    """One lesson: a position, a card, a task and the goal the judge checks."""

    number: int
    kind: Kind
    title: StrOrPromise
    task: StrOrPromise
    history: tuple[Laid, ...]
    card_number: int
    expected: rules.Turn
    variants: rules.Variants = rules.Variants()
    terrain: rules.Terrain | None = None  # "place": the terrain the new worker goes on
    point: Point | None = None  # "join": the zone whose region is to grow

    @cached_property
    def card(self) -> rules.Card:
        """The card the learner plays in this step."""
        return _deck().card(self.card_number)

    @cached_property
    def board(self) -> rules.Board:
        """The position before the learner's turn; every laid turn checked by the rules."""
        board = rules.Board()
        for laid in self.history:
            board = board.play(_deck().card(laid.card), laid.turn, self.variants)
        return board

    @cached_property
    def best(self) -> int | None:
        """The best value of any legal turn of the form this step asks for."""
        values = [
            value
            for turn in self.board.iter_turns(self.card, self.variants)
            if self._form_refusal(turn) is None
            and (value := self._value(turn, self.board.play(self.card, turn, self.variants)))
            is not None
        ]
        return max(values, default=None)

    def judge(self, turn: rules.Turn) -> Verdict:
        """The verdict on the learner's ``turn``: ``passed`` and the explanation to show."""
        if turn.placement.card_at not in self.board.legal_positions(self.variants):
            return Verdict(False, _("The card cannot go there."), self.board, legal=False)
        placed = self.board.place(self.card, turn.placement, self.variants)
        if turn.worker not in placed.legal_worker_actions(self.variants):
            return Verdict(False, _("That worker action is not allowed."), self.board, legal=False)
        after = placed.act(turn.worker, self.variants)
        refusal = self._form_refusal(turn)
        if refusal is not None:
            return Verdict(False, refusal, self.board)
        value = self._value(turn, after)
        if value is not None and self.best is not None and value < self.best:
            return Verdict(False, self._better(turn, after, value, self.best), self.board)
        return Verdict(True, self._explain(turn, after), after)

    # -- the goal of each kind ------------------------------------------------------------

    def _form_refusal(self, turn: rules.Turn) -> str | None:
        worker = turn.worker
        if self.kind == "place":
            assert self.terrain is not None
            if not isinstance(worker, rules.PlaceWorker):
                return _(
                    "Now place a worker too: after placing the card, choose a zone of the new "
                    "card (or press P, then Space)."
                )
            terrain = self._terrain_at(turn, worker.zone)
            if terrain != self.terrain:
                return _(
                    "That worker would stand on %(terrain)s, so it would be a %(profession)s. "
                    "Put it on %(wanted)s of the new card."
                ) % {
                    "terrain": TERRAIN_NAMES[terrain],
                    "profession": PROFESSION_NAMES[terrain.profession],
                    "wanted": TERRAIN_NAMES[self.terrain],
                }
        if self.kind in ("move", "ferry") and not isinstance(worker, rules.MoveWorker):
            return _(
                "This step is about moving: place no new worker, but choose a worker already "
                "in the landscape (or press M), then the zone it moves to."
            )
        if self.kind == "ferry":
            assert isinstance(worker, rules.MoveWorker)
            placed = self.board.with_card(self.card, turn.placement)
            if worker.target in placed.landscape.worker_targets(worker.source):
                return _(
                    "That move is allowed in every game: the worker goes to a neighbouring "
                    "region. Take the ferry instead: move it to a region on the far side of "
                    "the lake where the fisherman stands."
                )
        if self.kind == "diagonal" and turn.placement.card_at in self.board.legal_positions():
            return _(
                "That slot shares an edge with a card, as in every game. Choose a slot that "
                "touches the landscape only at a corner."
            )
        return None

    def _value(self, turn: rules.Turn, after: rules.Board) -> int | None:
        worker = turn.worker
        if self.kind == "join":
            assert self.point is not None
            return len(after.landscape.region_zones(self.point))
        if self.kind == "total":
            return after.landscape.score().total
        if isinstance(worker, rules.PlaceWorker) and self.kind == "place":
            return _points_at(after, worker.zone)
        if isinstance(worker, rules.MoveWorker) and self.kind in ("move", "ferry"):
            return _points_at(after, worker.target)
        return None

    def _better(self, turn: rules.Turn, after: rules.Board, value: int, best: int) -> str:
        if self.kind == "join":
            return _(
                "Not quite: the lake did not grow as much as it can. Turn the card (R) so "
                "that its water touches the lake, and choose a slot beside the lake."
            )
        if self.kind == "total":
            return _(
                "Your final score would be %(points)d, but this card allows %(best)d. Try "
                "another turn of the card, or another worker."
            ) % {"points": value, "best": best}
        return _(
            "Your %(profession)s would score %(points)d, but this card allows %(best)d. "
            "Try another slot or turn of the card."
        ) % {
            "profession": PROFESSION_NAMES[self._profession(turn, after)],
            "points": value,
            "best": best,
        }

    def _explain(self, turn: rules.Turn, after: rules.Board) -> str:
        landscape = after.landscape
        score = landscape.score()
        worker = turn.worker
        if self.kind == "join":
            assert self.point is not None
            return _(
                "Well done: the lake now has %(n)d zones. Zones of one terrain that touch "
                "along an edge form one region, across the edges of cards."
            ) % {"n": len(landscape.region_zones(self.point))}
        if self.kind == "total":
            return _(
                "The game is over: your score is %(total)d, the sum of your workers' points. "
                "Where two workers share a region, only one of them scores: the table shows "
                "which."
            ) % {"total": score.total}
        if self.kind == "diagonal":
            return _(
                "Legal in the diagonal variant: the card touches the landscape only at a "
                "corner. Corners never join regions, so its zones start regions of their own. "
                "Your score is %(total)d."
            ) % {"total": score.total}
        if isinstance(worker, rules.MoveWorker):
            profession = PROFESSION_NAMES[self._profession(turn, after)]
            points = _points_at(after, worker.target)
            if self.kind == "ferry":
                return _(
                    "The fisherman ferried your worker across the lake: it is now a "
                    "%(profession)s and scores %(points)d. Your score is %(total)d."
                ) % {"profession": profession, "points": points, "total": score.total}
            placed = self.board.with_card(self.card, turn.placement)
            return _(
                "Your worker moved to a neighbouring region and is now a %(profession)s: it "
                "scores %(points)d, where it scored %(before)d. A worker's profession is the "
                "terrain it stands on."
            ) % {
                "profession": profession,
                "points": points,
                "before": _points_at(placed, worker.source),
            }
        assert isinstance(worker, rules.PlaceWorker)
        points = _points_at(after, worker.zone)
        size = len(landscape.region_zones(worker.zone))
        texts: dict[rules.Terrain, Callable[[], str]] = {
            rules.Terrain.FIELD: lambda: _(
                "Your farmer scores %(points)d: one point for each of the %(n)d zones of its field."
            ),
            rules.Terrain.WATER: lambda: _(
                "Your fisherman scores %(points)d: one point for each hut beside its lake."
            ),
            rules.Terrain.FOREST: lambda: _(
                "Your woodcutter scores %(points)d: one point for each region bordering its "
                "forest. Every tower is a region of its own."
            ),
            rules.Terrain.TOWER: lambda: _(
                "Your watchman scores %(points)d: one point for each forest zone it sees in a "
                "straight line up, down, left and right, up to the next tower."
            ),
        }
        assert self.terrain is not None
        return texts[self.terrain]() % {"points": points, "n": size}

    def _terrain_at(self, turn: rules.Turn, zone: Point) -> rules.Terrain:
        found = self.board.with_card(self.card, turn.placement).landscape.zone_at(zone)
        assert found is not None
        return found.terrain

    def _profession(self, turn: rules.Turn, after: rules.Board) -> rules.Profession:
        worker = turn.worker
        assert isinstance(worker, rules.PlaceWorker | rules.MoveWorker)
        zone = worker.target if isinstance(worker, rules.MoveWorker) else worker.zone
        found = after.landscape.zone_at(zone)
        assert found is not None
        return found.terrain.profession


def _points_at(board: rules.Board, zone: Point) -> int:
    return max((w.points for w in board.landscape.score().workers if w.zone == zone), default=0)


def _deck() -> rules.Deck:
    # The lessons are designed on the project's own deck, whatever deck the games use.
    return _DECK


_DECK = rules.load_deck()
_FERRY = rules.Variants(ferryman=True)
_DIAGONAL = rules.Variants(diagonal=True)


def _turn(at: Point, rotation: int = 0, worker: rules.WorkerAction = None) -> rules.Turn:
    return rules.Turn(rules.Placement(at, rotation), worker)


# The workers of the last lesson's landscape, by the card they came with: two fishermen
# share one lake, so that only one of them scores.
_END_WORKERS: dict[int, Point] = {2: (1, 2), 5: (2, 1), 7: (2, 4), 10: (5, 2), 12: (5, 6)}

STEPS: tuple[Step, ...] = (
    Step(
        1,
        "join",
        gettext_lazy("Place a card"),
        gettext_lazy(
            "Every round you place the round's card beside your landscape. Turn it (R) so "
            "that its water touches the lake of the first card, then choose a + slot for "
            "it (or type its number) and commit."
        ),
        (_laid(1, (0, 0)),),
        24,
        _turn((1, 0), 90),
        point=(1, 0),
    ),
    Step(
        2,
        "place",
        gettext_lazy("Fields and the farmer"),
        gettext_lazy(
            "After placing the card you may put a worker on one of its zones. On a field it "
            "is a farmer: it scores one point for each zone of its field. Make the field as "
            "large as you can and put a farmer on it."
        ),
        (_laid(1, (0, 0)),),
        20,
        _turn((0, 1), 90, rules.PlaceWorker((0, 2))),
        terrain=rules.Terrain.FIELD,
    ),
    Step(
        3,
        "place",
        gettext_lazy("Lakes and the fisherman"),
        gettext_lazy(
            "A worker on water is a fisherman: it scores one point for each fisherman's hut "
            "beside its lake. Place the card so that its lake has as many huts beside it as "
            "it can, and put a fisherman on it."
        ),
        (_laid(1, (0, 0)), _laid(22, (1, 0))),
        21,
        _turn((0, -1), 0, rules.PlaceWorker((0, -1))),
        terrain=rules.Terrain.WATER,
    ),
    Step(
        4,
        "place",
        gettext_lazy("Forests and the woodcutter"),
        gettext_lazy(
            "A worker in a forest is a woodcutter: it scores one point for each region that "
            "borders its forest, and every tower is a region of its own. Place the card and "
            "a woodcutter so that its forest borders as many regions as it can."
        ),
        (_laid(1, (0, 0)), _laid(7, (0, 1))),
        10,
        _turn((1, 1), 90, rules.PlaceWorker((2, 3))),
        terrain=rules.Terrain.FOREST,
    ),
    Step(
        5,
        "place",
        gettext_lazy("Towers and the watchman"),
        gettext_lazy(
            "A worker on a tower is a watchman: it scores one point for each forest zone it "
            "sees in a straight line up, down, left and right, up to the next tower. Place "
            "the card and a watchman where it sees the most forest."
        ),
        (_laid(22, (0, 0)), _laid(13, (0, 1), 270)),
        4,
        _turn((0, -1), 0, rules.PlaceWorker((0, -2))),
        terrain=rules.Terrain.TOWER,
    ),
    Step(
        6,
        "move",
        gettext_lazy("Moving a worker"),
        gettext_lazy(
            "Instead of placing a new worker you may move one: into a region that borders "
            "its own, onto any zone of it. Your watchman sees no forest yet. Place the card, "
            "then move the worker where it scores the most."
        ),
        (_laid(1, (0, 0), 0, (1, 1)),),
        20,
        _turn((0, 1), 90, rules.MoveWorker((1, 1), (0, 1))),
    ),
    Step(
        7,
        "total",
        gettext_lazy("The end of the game"),
        gettext_lazy(
            "After 16 rounds the landscape is 4 cards by 4 and the game ends: each worker "
            "scores for its profession and your score is their sum. This is the last round: "
            "place the last card, and place or move a worker if it helps, to end with the best "
            "score."
        ),
        (*(_laid(n, ((n - 1) // 4, (n - 1) % 4), 0, _END_WORKERS.get(n)) for n in range(1, 16)),),
        16,
        _turn((3, 3), 0, rules.MoveWorker((5, 2), (6, 1))),
    ),
    Step(
        8,
        "diagonal",
        gettext_lazy("Variant: diagonal placement"),
        gettext_lazy(
            "In the diagonal variant a card may also go where it touches the landscape only "
            "at a corner. Place the card on such a corner slot."
        ),
        (_laid(1, (0, 0)), _laid(5, (0, 1))),
        8,
        _turn((1, 2), 0),
        variants=_DIAGONAL,
    ),
    Step(
        9,
        "ferry",
        gettext_lazy("Variant: the fisherman as ferryman"),
        gettext_lazy(
            "In the ferryman variant a lake with a fisherman on it is a ferry: a worker "
            "beside that lake may move to any region on its other shores. Place the card, "
            "then ferry your farmer across the lake to where it scores the most."
        ),
        (_laid(11, (0, 0), 0, (0, 0)), _laid(18, (0, 1), 0, (0, 2))),
        20,
        _turn((1, 1), 0, rules.MoveWorker((0, 0), (1, 2))),
        variants=_FERRY,
    ),
)
