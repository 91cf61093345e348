"""Puzzle positions: which turns of a game make a puzzle, and how an answer is graded.

Computation only (no writes). Turns are valued as the post-game analysis values them
(``rules.bot.assess_turn``: the one-ply search on the learned evaluation, an expected final
score), so a puzzle's answer agrees with what the analysis of its game said.

A position is what its player knew at that turn: the landscape, the card, the round, the
variants, and which cards of the deck were still unseen (never their order); nothing of a
later card.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import rules
from rules.bot import ASSESSMENT
from rules.evaluation import Outlook, value_turns

#: A puzzle's best turn must beat the best *different* turn by this many points of expected
#: final score. It is the loss at which the analysis calls a round a mistake
#: (``games.analysis.NOTABLE_LOSS``): whoever plays the runner-up makes a mistake, so the
#: best turn is worth finding. On the one-ply evaluation most rounds offer two turns within
#: a few tenths of each other; one position in five to seven clears 0.5 (24 of 120, and 41
#: of 300, positions of reference-bot games; the largest gap seen was 1.3), so a game
#: yields two or three.
MIN_GAP = 0.5
#: Within this of the best (a rounding of the stored values) an answer is the best turn.
SOLVE_EPSILON = 0.05
#: An answer that loses at most this many points is a near miss: a sound turn, just not
#: the best (the runner-up is at least ``MIN_GAP`` behind). Past one point, the analysis
#: gives the round 80% accuracy or less.
NEAR_MISS = 1.0
#: Round 1 (one card on an empty table) teaches nothing: puzzles start at round 2.
FIRST_ROUND = 2


class Grade(enum.StrEnum):
    """How an answer did: a full solve, a near miss, a miss."""

    SOLVED = "solved"
    NEAR = "near"
    MISSED = "missed"

    @property
    def score(self) -> float:
        """The answer as a game against the puzzle: a win, a draw, a loss."""
        return {Grade.SOLVED: 1.0, Grade.NEAR: 0.5, Grade.MISSED: 0.0}[self]


def grade(loss: float) -> Grade:
    """The grade of an answer that gives away ``loss`` expected points against the best."""
    if loss <= SOLVE_EPSILON:
        return Grade.SOLVED
    if loss <= NEAR_MISS:
        return Grade.NEAR
    return Grade.MISSED


@dataclass(frozen=True, slots=True)
class Position:
    """A turn to find: the board before it, its card, round and the cards still unseen."""

    board: rules.Board
    card: rules.Card
    round: int
    variants: rules.Variants
    unseen: tuple[rules.Card, ...]
    #: The player's turns that made the board, one per card on it.
    before: tuple[rules.Turn, ...]

    @property
    def key(self) -> str:
        """The same for the same position, whichever game it came from (de-duplication)."""
        cards = sorted((p.card_at, p.card.number, p.rotation) for p in self.board.cards)
        text = json.dumps(
            [cards, sorted(self.board.workers), self.card.number, self.round, self.variants.names()]
        )
        return hashlib.sha256(text.encode()).hexdigest()

    def valued(self) -> list[tuple[float, rules.Turn]]:
        """Every legal turn with its expected final score, best first (as the analysis)."""
        outlook = Outlook.of(self.unseen, rules.ROUNDS - len(self.board.cards) - 1)
        evaluated = value_turns(
            self.board, self.card, self.variants, outlook, ASSESSMENT.evaluation
        )
        return sorted(evaluated, key=lambda entry: -entry[0])

    def value_of(self, turn: rules.Turn) -> float:
        """The expected final score after ``turn``; raises ``IllegalMoveError`` if illegal."""
        self.board.play(self.card, turn, self.variants)  # raises on an illegal turn
        return next(value for value, other in self.valued() if other == turn)


@dataclass(frozen=True, slots=True)
class Found:
    """A position whose best turn is clearly best."""

    position: Position
    best: rules.Turn
    best_value: float
    runner_up: float

    @property
    def gap(self) -> float:
        return self.best_value - self.runner_up


def _outcome(position: Position, turn: rules.Turn) -> tuple[object, ...]:
    # Turns that leave the same landscape, supply and scoring regions are one answer (a
    # worker on either zone of one region, a card the same both ways up).
    after = position.board.play(position.card, turn, position.variants)
    region_at = after.landscape.regions().region_at
    zones = sorted(
        (point, zone.terrain.value, zone.hut)
        for placed in after.cards
        for point, zone in placed.card.placed_zones(placed.card_at, placed.rotation)
    )
    return (tuple(zones), tuple(sorted(Counter(map(region_at, after.workers)).items())))


def find(position: Position) -> Found | None:
    """The position as a puzzle if its best turn beats every different one by ``MIN_GAP``."""
    valued = position.valued()
    best_value, best = valued[0]
    best_outcome: tuple[object, ...] | None = None
    for value, turn in valued[1:]:
        if value < best_value - MIN_GAP:
            return Found(position, best, best_value, value)
        # As good, or nearly: a puzzle only if it is the best turn in other words.
        if best_outcome is None:
            best_outcome = _outcome(position, best)
        if _outcome(position, turn) != best_outcome:
            return None
    return None


def positions_of(
    cards: Sequence[rules.Card],
    turns: Sequence[rules.Turn],
    variants: rules.Variants,
    deck: rules.Deck,
) -> list[Position]:
    """The positions before each turn of one player (from ``FIRST_ROUND``): ``cards[i]`` is
    round ``i + 1``'s card, ``turns`` the player's turns, legal as stored."""
    positions = []
    board = rules.Board()
    for index, (card, turn) in enumerate(zip(cards, turns, strict=False)):
        if index + 1 >= FIRST_ROUND:
            revealed = {c.number for c in cards[: index + 1]}
            unseen = tuple(c for c in deck if c.number not in revealed)
            positions.append(
                Position(board, card, index + 1, variants, unseen, tuple(turns[:index]))
            )
        board = board.play(card, turn, variants)
    return positions
