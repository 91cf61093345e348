"""Computer players by level, turn assessment and the hindsight par of a deal.

Levels (``BOT_LEVELS``, weakest first):

- ``easy``: the reference player's one-ply greedy with noise: it misjudges each turn by a
  normal error of 2 points and, on a quarter of its turns, forgets its workers.
  For beginners. Deterministic per seed (the noise is drawn from the seed and position).
- ``reference``: ``rules.reference_turn``, the one-ply greedy player that calibrates the deck.
- ``strong``: one-ply search over every legal turn on the learned evaluation, which
  estimates the *final* score rather than the score as the landscape stands
  (``rules.evaluation.LearnedWeights``, learned by self-play); the best turns of the four
  best placements (two turns each at most, within a point of the best turn) are then ranked
  again by the expected evaluation after the best reply to each of a set of next cards, the
  same cards for each turn (a two-ply expectimax over the unseen cards). At least four next
  cards, more when the round has few placements: as many as 300 valued placements of a next
  card buy (``budget``), every unseen card when that covers them. In round 15 every turn is
  ranked on every unseen card and the exact score after the best reply (``endgame``): the
  best turn there is, blind to the order of the cards.
- ``master``: the strong level's search one card deeper, within a budget of CPU time
  (``rules.lookahead``: each shortlisted turn valued by the strong level's own two-ply value
  of the best reply to each of a few next cards, as many as the budget allows; the best
  turn so far always ready). About a second of CPU a move (``MASTER_BUDGET``): 46.25 on 200
  fresh deals, +0.79 ± 0.19 over strong on the same deals, 784 ms of CPU a move median.

A level's ``Search`` is its whole configuration; ``search_turn`` plays any other one, for
the lab (``benchmarks/lab/``) to compare settings on the same deals. The lab's three-ply
(``benchmarks/lab/deeper_search.py``: each shortlisted turn valued by the strong level's own
two-ply value of the best reply to each of a few next cards) gains about 0.8 points at 1.0 s
of CPU a move median, 8 s p95, against 29 ms: the master is it, within a budget.

Not loaded by ``import rules`` (as python-chess keeps ``chess.engine`` out of ``import
chess``): import ``rules.bot`` where a bot plays. It reads the learned weights when it loads.

Nothing here knows the order of the cards to come: a level sees the board, this round's card
and which cards of the deck are still unseen. ``hindsight_best`` is the exception on purpose:
it knows all 16 cards in order, to set a par for a deal.

``assess_turn`` (post-game analysis and hints) values turns on the one-ply evaluation only:
ten times cheaper than the two-ply. How each setting was tuned, and what it measured, is in
the lab's notebook, ``benchmarks/lab/NOTEBOOK.md``.
"""

from __future__ import annotations

import enum
import random
import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from rules.board import Board
from rules.errors import InvalidInputError
from rules.evaluation import (
    Evaluation,
    HandWeights,
    Outlook,
    best_values,
    load_weights,
    value_turns,
)
from rules.model import ROUNDS, Card, Placement, Turn, Variants
from rules.players import reference_turn


class BotLevel(enum.StrEnum):
    """The computer players' levels, weakest first; ``value`` is the stored slug."""

    EASY = "easy"
    REFERENCE = "reference"
    STRONG = "strong"
    MASTER = "master"

    @property
    def expected_score(self) -> float:
        """The level's mean solo score on the standard rules (``benchmarks/lab/bot_strength.py``,
        1,000 seeded deals unless benchmarks/lab/NOTEBOOK.md says fewer: the master's, 200
        deals of ``master_strength.py``)."""
        return _EXPECTED_SCORE[self]


_EXPECTED_SCORE = {
    BotLevel.EASY: 30.43,
    BotLevel.REFERENCE: 37.41,
    BotLevel.STRONG: 45.68,
    BotLevel.MASTER: 46.25,
}
BOT_LEVELS: tuple[str, ...] = tuple(BotLevel)
#: Levels for the lab and the command line only, which the site does not seat: none since
#: the master looks one card deeper (issue #53; the distilled master of issue #39 was one).
LAB_LEVELS: frozenset[BotLevel] = frozenset()


@dataclass(frozen=True, slots=True)
class Budget:
    """How long the master thinks about a move: ``seconds`` of ``clock`` (CPU time of the
    process by default, so that other load slows the answer, not the player; the site's
    workers pass ``time.thread_time``), or, deterministic for tests and the lab, at most
    ``replies`` replies valued one card deeper. ``None``: no limit of that kind. Whatever
    the budget, even none, the answer is a legal turn."""

    seconds: float | None = 1.0
    replies: int | None = None
    clock: Callable[[], float] = time.process_time


#: The master's budget when none is given: about a second of CPU a move (issue #53).
MASTER_BUDGET = Budget(seconds=0.9)


@dataclass(frozen=True, slots=True)
class TurnAssessment:
    """How a played turn compares with the strong bot's own choice.

    Values are final scores the strong bot expects after the turn, playing on itself;
    ``best_value >= played_value`` always (when the played turn is as good, it is ``best``).
    """

    played: Turn
    played_value: float
    best: Turn
    best_value: float


@dataclass(frozen=True, slots=True)
class Search:
    """A searching level: its evaluation and how widely the two-ply looks (the defaults:
    the strong level before the learned evaluation, on the hand-tuned one)."""

    evaluation: Evaluation = field(default_factory=HandWeights)
    #: The best turns on the evaluation that the next card's expectation then ranks (the
    #: best placements, with ``per_placement``); 1: one-ply only.
    candidates: int = 6
    #: How many of the unseen cards that expectation averages over, at least.
    samples: int = 6
    #: More next cards when a round has few placements: as many as this many valued
    #: placements of a next card a move buy (every unseen card at most).
    budget: int = 1200
    #: Only turns within this many points of the best one are ranked again.
    margin: float = float("inf")
    #: If set, ``candidates`` counts placements: the best turns of the best ``candidates``
    #: placements are ranked again, this many of each at most (turns with one placement
    #: share most of the two-ply's work).
    per_placement: int = 2
    #: With this many rounds left or fewer, every turn is ranked again on every unseen card
    #: (the landscape is nearly full: few placements, so it is cheap). With one round left
    #: the reply is valued on the exact score: the turn is the best there is.
    endgame: int = 0


#: The learned evaluation, read once, when this module loads.
_LEARNED = load_weights()
#: The searching levels, on the learned evaluation.
_SEARCHES: dict[BotLevel, Search] = {
    BotLevel.STRONG: Search(_LEARNED, candidates=4, samples=4, budget=300, margin=1.0, endgame=1),
}
#: What post-game analysis and hints value turns with: a one-ply search on the learned
#: evaluation, ten times cheaper than ``strong``.
ASSESSMENT = Search(_LEARNED, candidates=1)


def search_of(level: BotLevel) -> Search:
    """The search a searching level plays with; raises ``KeyError`` for another level."""
    if level == BotLevel.MASTER:
        # The master searches as the strong level does, one card deeper.
        return _SEARCHES[BotLevel.STRONG]
    return _SEARCHES[level]


def search_turn(
    board: Board,
    card: Card,
    *,
    unseen: Collection[Card],
    search: Search,
    variants: Variants = Variants(),
    seed: int = 0,
) -> Turn:
    """The turn ``search`` chooses for ``card`` on ``board``: a searching level's turn
    (``bot_turn``) when ``search`` is the level's (``search_of``), any other configuration's
    for the lab to compare. Blind to the order of ``unseen``, like every level."""
    return _strong_choices(board, card, variants, unseen, seed, search)[0][1]


def bot_turn(
    board: Board,
    card: Card,
    *,
    unseen: Collection[Card],
    variants: Variants = Variants(),
    level: str = "strong",
    seed: int = 0,
    budget: Budget | None = None,
) -> Turn:
    """The level's turn for ``card`` on ``board``.

    ``unseen``: the deck's cards not yet revealed (their order unknown to the bot).
    ``budget``: the master's (``MASTER_BUDGET`` if ``None``); the other levels need none.
    Deterministic for the same inputs and seed (the master: for a budget of ``replies``).
    Raises ``InvalidInputError`` for an unknown level.
    """
    if level == BotLevel.REFERENCE:
        return reference_turn(board, card, variants)
    if level == BotLevel.EASY:
        return _easy_turn(board, card, variants, _rng(seed, board, card))
    if level == BotLevel.MASTER:
        from rules.lookahead import master_choices

        search = search_of(BotLevel.MASTER)
        chosen = budget if budget is not None else MASTER_BUDGET
        return master_choices(board, card, variants, unseen, seed, search, chosen)[0][1]
    if level in BOT_LEVELS:
        search = search_of(BotLevel(level))
        return search_turn(board, card, unseen=unseen, search=search, variants=variants, seed=seed)
    raise InvalidInputError(f"unknown bot level {level!r}; the levels are {', '.join(BOT_LEVELS)}")


def assess_turn(
    board: Board,
    card: Card,
    played: Turn,
    *,
    unseen: Collection[Card],
    variants: Variants = Variants(),
    seed: int = 0,
) -> TurnAssessment:
    """For post-game analysis and hints: how ``played`` compares with the best turn on the
    one-ply evaluation (far cheaper than a level's search).

    Raises ``IllegalMoveError`` if ``played`` is not legal.
    """
    board.play(card, played, variants)  # raises on an illegal turn
    choices = _strong_choices(board, card, variants, unseen, seed, ASSESSMENT, also=played)
    best_value, best = choices[0]
    played_value = next(value for value, turn in choices if turn == played)
    if played_value >= best_value:
        best, best_value = played, played_value
    return TurnAssessment(played, played_value, best, best_value)


def hint_turn(
    board: Board,
    card: Card,
    *,
    unseen: Collection[Card],
    variants: Variants = Variants(),
) -> Turn:
    """The best turn on the one-ply assessment (``assess_turn``'s ``best``): a hint, cheap
    enough for a request. Blind to the order of the cards to come, like every level."""
    return _strong_choices(board, card, variants, unseen, 0, ASSESSMENT)[0][1]


def hindsight_best(
    cards: Sequence[Card],
    *,
    variants: Variants = Variants(),
    seed: int = 0,
    budget: float = 5.0,
) -> tuple[int, tuple[Turn, ...]]:
    """The best final score found, and its turns, knowing every card in order in advance.

    A beam search on the strong evaluation (the cards still to come known exactly), its
    width set from ``budget`` (about that many seconds on a slow machine); the result does
    not depend on the clock. The turns replay legally to the score. Raises
    ``InvalidInputError`` for no cards, more than 16, or a card twice.
    """
    if not cards or len(cards) > ROUNDS:
        raise InvalidInputError(f"a game has 1 to {ROUNDS} cards, not {len(cards)}")
    if len({c.number for c in cards}) != len(cards):
        raise InvalidInputError("a card appears twice in the card sequence")
    width = max(1, int(budget * _BEAM_PER_SECOND))
    beam: list[tuple[Board, tuple[Turn, ...]]] = [(Board(), ())]
    for index, card in enumerate(cards):
        outlook = Outlook.of(cards[index + 1 :], ROUNDS - index - 1)
        candidates: list[tuple[float, int, int, Turn]] = []
        for b, (board, _) in enumerate(beam):
            valued = value_turns(board, card, variants, outlook, HandWeights())
            for k, (value, turn) in enumerate(valued):
                candidates.append((value, b, k, turn))
        # Best value first; on a tie, the earlier state and turn: deterministic.
        candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
        kept: list[tuple[Board, tuple[Turn, ...]]] = []
        seen: set[tuple[object, ...]] = set()
        for _, b, _, turn in candidates:
            board, turns = beam[b]
            after = board.play(card, turn, variants)
            key = (after.cards, after.workers)
            if key in seen:
                continue
            seen.add(key)
            kept.append((after, (*turns, turn)))
            if len(kept) >= width:
                break
        beam = kept
    finished = [(board.landscape.score().total, turns) for board, turns in beam]
    best_total, best_turns = max(finished, key=lambda f: f[0])
    return best_total, best_turns


#: Beam states a second of budget buys (a state's expansion costs ~10 ms here).
_BEAM_PER_SECOND = 6


# -- easy ------------------------------------------------------------------------------------


def _rng(seed: int, board: Board, card: Card) -> random.Random:
    # A string seed is hashed the same way in every process (unlike ``hash``).
    return random.Random(f"{seed}:{len(board.cards)}:{card.number}:{board.workers}")


#: The easy level's misjudgement of a turn (a normal error, points) and the share of its
#: turns on which it forgets its workers.
_EASY_NOISE = 2.0
_EASY_FORGETS = 0.25


def _easy_turn(board: Board, card: Card, variants: Variants, rng: random.Random) -> Turn:
    forgets_workers = rng.random() < _EASY_FORGETS
    best: Turn | None = None
    best_total = float("-inf")
    for total, turn in value_turns(board, card, variants):
        if forgets_workers and turn.worker is not None:
            continue
        noisy = total + rng.gauss(0.0, _EASY_NOISE)
        if noisy > best_total:
            best, best_total = turn, noisy
    assert best is not None
    return best


# -- strong ----------------------------------------------------------------------------------


def _strong_choices(
    board: Board,
    card: Card,
    variants: Variants,
    unseen: Collection[Card],
    seed: int,
    search: Search,
    also: Turn | None = None,
) -> list[tuple[float, Turn]]:
    # The best few turns on the evaluation (and ``also``), valued again by the expected
    # evaluation after the best reply to each of a sample of next cards; best first.
    ranked = _strong_ranked(board, card, variants, unseen, search)
    rounds_left = ROUNDS - len(board.cards) - 1
    if rounds_left <= 0 or search.candidates <= 1 or not unseen:
        return ranked
    return _two_ply(board, card, variants, unseen, seed, search, ranked, also)


def _shortlist(
    ranked: list[tuple[float, Turn]], search: Search, margin: float
) -> list[tuple[float, Turn]]:
    # The turns a search ranks again: the best of the best placements, within ``margin``.
    best = ranked[0][0]
    if not search.per_placement:
        return [entry for entry in ranked[: search.candidates] if entry[0] >= best - margin]
    taken: Counter[Placement] = Counter()
    shortlist = []
    for entry in ranked:
        placement = entry[1].placement
        if entry[0] < best - margin:
            break
        if placement not in taken and len(taken) == search.candidates:
            continue
        if taken[placement] < search.per_placement:
            taken[placement] += 1
            shortlist.append(entry)
    return shortlist


def _two_ply(
    board: Board,
    card: Card,
    variants: Variants,
    unseen: Collection[Card],
    seed: int,
    search: Search,
    ranked: list[tuple[float, Turn]],
    also: Turn | None,
) -> list[tuple[float, Turn]]:
    # ``ranked`` (every turn on the evaluation, best first) with its shortlist valued again
    # by the expected evaluation after the best reply to each of a set of next cards.
    rounds_left = ROUNDS - len(board.cards) - 1
    endgame = rounds_left <= search.endgame
    shortlist = ranked if endgame else _shortlist(ranked, search, search.margin)
    if also is None and len(shortlist) <= 1:
        return ranked
    # As many next cards as the budget buys, the reply's placements being about as many as
    # this round's; counted before ``also`` joins, so an assessment sees the bot's cards.
    placements = len({turn.placement for _, turn in shortlist})
    turns = placements if search.per_placement else len(shortlist)
    work = turns * len(board.legal_placements(variants))
    count = len(unseen) if endgame else max(search.samples, search.budget // work)
    if also is not None and all(turn != also for _, turn in shortlist):
        shortlist.append(next(entry for entry in ranked if entry[1] == also))
    pool = sorted(unseen, key=lambda c: c.number)
    nexts = _rng(seed, board, card).sample(pool, min(count, len(pool)))
    outlooks = [
        Outlook.of([c for c in pool if c.number != n.number], rounds_left - 1) for n in nexts
    ]
    # Turns with the same placement leave the same landscape: their replies share its work.
    afters = [board.play(card, turn, variants) for _, turn in shortlist]
    groups: dict[Placement, list[int]] = {}
    for k, (_, turn) in enumerate(shortlist):
        groups.setdefault(turn.placement, []).append(k)
    sums = [0.0] * len(shortlist)
    for group in groups.values():
        boards = [afters[k] for k in group]
        for n, outlook in zip(nexts, outlooks, strict=True):
            values = _best_values(boards, n, variants, outlook, search.evaluation)
            for k, value in zip(group, values, strict=True):
                sums[k] += value
    valued = [(total / len(nexts), turn) for total, (_, turn) in zip(sums, shortlist, strict=True)]
    order = sorted(range(len(valued)), key=lambda k: -valued[k][0])
    return [valued[k] for k in order]


def _best_values(
    boards: list[Board], card: Card, variants: Variants, outlook: Outlook, evaluation: Evaluation
) -> list[float]:
    # ``best_values`` on the evaluation, or the evaluation's own batch of them: the lab's
    # network value (``benchmarks/lab/distilled.py``), which no sum over regions has.
    batch = getattr(evaluation, "best_values", None)
    if batch is not None:
        return batch(boards, card, variants, outlook)  # type: ignore[no-any-return]
    return best_values(boards, card, variants, outlook, evaluation)


def _strong_ranked(
    board: Board,
    card: Card,
    variants: Variants,
    unseen: Collection[Card],
    search: Search,
) -> list[tuple[float, Turn]]:
    # Every legal turn with its value, best first; ties keep ``iter_turns`` order.
    outlook = Outlook.of(unseen, ROUNDS - len(board.cards) - 1)
    evaluated = value_turns(board, card, variants, outlook, search.evaluation)
    order = sorted(range(len(evaluated)), key=lambda k: -evaluated[k][0])
    return [evaluated[k] for k in order]
