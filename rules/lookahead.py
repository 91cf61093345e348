"""The master level's search: the strong level's, one card deeper, within a budget (issue #53).

The strong level ranks its shortlisted turns by the expected evaluation after the best
reply to each of a few next cards (a two-ply). The master first does the same (the best
turn so far, always ready), on a wider shortlist: the best two turns of the best four
placements within ``MARGIN`` points of the best turn. Then, one next card after another
(the same cards, in the same order, for every turn), it values each shortlisted turn by the
strong level's own two-ply value of the best reply to that card: one card of look-ahead
more than strong, the lab's three-ply (``benchmarks/lab/deeper_search.py``, +0.78 points).
What each completed card adds to a turn is the three-ply's value less the two-ply's on the
same card (a correction whose noise is far smaller than either value's); a turn's value is
its two-ply value plus the mean correction. A card left unfinished when the budget runs out
counts for nothing, so every turn is always compared on the same cards.

The work is shared: the turns of one placement leave the same cards, so their replies of
one placement leave the same cards again, and each next card's best reply to all of them is
valued in one pass over the landscape (``rules.evaluation.best_values``).

The budget (``rules.bot.Budget``) is CPU seconds on a clock (``time.process_time`` by
default: a loaded machine slows the answer, not the player) or, for tests and the lab, a
number of replies valued, which makes the search deterministic. Rounds 15 and 16 are the
strong level's (round 15 is exact there already). Blind to the order of the cards to come.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rules.board import Board
from rules.bot import (
    Budget,
    Search,
    _best_values,
    _rng,
    _shortlist,
    _strong_choices,
    _strong_ranked,
)
from rules.evaluation import Outlook
from rules.model import ROUNDS, Card, Placement, Turn, Variants

#: Turns within this many points of the best one (on the evaluation) are shortlisted: the
#: lab's three-ply gained its +0.78 with 2; narrowed to 0.5 it gained nothing (issue #39).
MARGIN = 2.0
#: The most next cards a move looks one card deeper on, when the budget allows.
DEEP_CARDS = 8


class _Meter:
    # What a move has spent of its budget, and whether the next step still fits.
    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.started = budget.clock()
        self.replies = 0

    def spent(self) -> float:
        return self.budget.clock() - self.started

    def allows(self, replies: int, seconds: float = 0.0) -> bool:
        # ``seconds``: what the step is expected to cost, so that it ends within the budget.
        budget = self.budget
        if budget.replies is not None and self.replies + replies > budget.replies:
            return False
        return budget.seconds is None or self.spent() + seconds <= budget.seconds


def master_choices(
    board: Board,
    card: Card,
    variants: Variants,
    unseen: Collection[Card],
    seed: int,
    search: Search,
    budget: Budget,
) -> list[tuple[float, Turn]]:
    """The master's turns with their values, best first (the shortlist, then the rest on
    the evaluation); see the module docstring. Always at least one legal turn: with no
    budget left, the wide two-ply's ranking."""
    meter = _Meter(budget)
    rounds_left = ROUNDS - len(board.cards) - 1
    if rounds_left <= max(1, search.endgame) or not unseen or search.candidates <= 1:
        return _strong_choices(board, card, variants, unseen, seed, search)
    ranked = _strong_ranked(board, card, variants, unseen, search)
    shortlist = _shortlist(ranked, search, MARGIN)
    if len(shortlist) <= 1:
        return ranked
    turns = [turn for _, turn in shortlist]
    pool = sorted(unseen, key=lambda c: c.number)
    # One order of the next cards for the whole move: the two-ply takes its first few, the
    # deeper look as many of them as the budget allows.
    order = _rng(seed, board, card).sample(pool, len(pool))
    afters = [board.play(card, turn, variants) for turn in turns]
    groups: dict[Placement, list[int]] = {}
    for k, turn in enumerate(turns):
        groups.setdefault(turn.placement, []).append(k)

    # The two-ply, as the strong level's: as many next cards as its budget buys.
    work = len(groups) * len(board.legal_placements(variants))
    count = min(len(pool), max(search.samples, search.budget // work))
    sums = [0.0] * len(turns)
    for following in order[:count]:
        outlook = _outlook(pool, following, rounds_left - 1)
        for group in groups.values():
            values = _best_values(
                [afters[k] for k in group], following, variants, outlook, search.evaluation
            )
            for k, value in zip(group, values, strict=True):
                sums[k] += value
    two_ply = [total / count for total in sums]

    # One card deeper, card by card, while the budget lasts.
    corrections = [0.0] * len(turns)
    done = 0
    last = 0.0
    for following in order[:DEEP_CARDS]:
        started = meter.spent()
        gains = _deeper(
            afters, groups, board, following, pool, rounds_left, seed, search, variants, meter, last
        )
        if gains is None:
            break
        for k, gain in enumerate(gains):
            corrections[k] += gain
        done += 1
        last = meter.spent() - started
    valued = [
        (value + (correction / done if done else 0.0), turn)
        for value, correction, turn in zip(two_ply, corrections, turns, strict=True)
    ]
    valued.sort(key=lambda entry: -entry[0])
    chosen = set(turns)
    return valued + [entry for entry in ranked if entry[1] not in chosen]


def _outlook(pool: Sequence[Card], following: Card, rounds_left: int) -> Outlook:
    return Outlook.of([c for c in pool if c.number != following.number], rounds_left)


def _deeper(
    afters: list[Board],
    groups: dict[Placement, list[int]],
    board: Board,
    following: Card,
    pool: list[Card],
    rounds_left: int,
    seed: int,
    search: Search,
    variants: Variants,
    meter: _Meter,
    expected: float,
) -> list[float] | None:
    # For each shortlisted turn, on ``following``: the strong level's two-ply value of the
    # best reply, less the best reply's evaluation (the two-ply's value on this card).
    # ``None`` when the budget runs out before every turn is valued.
    if not meter.allows(len(afters), expected):
        return None
    rest = [c for c in pool if c.number != following.number]
    reply_left = rounds_left - 1
    # The cards after the reply: the same for every turn; every one of them when the reply
    # is the strong level's exact endgame, else as many as its two-ply's budget buys.
    if reply_left <= search.endgame:
        nexts = rest
    else:
        work = search.candidates * len(afters[0].legal_placements(variants))
        count = max(search.samples, search.budget // work)
        nexts = _rng(seed, board, following).sample(rest, min(count, len(rest)))
    outlooks = [_outlook(rest, n, reply_left - 1) for n in nexts]
    gains = [0.0] * len(afters)
    for group in groups.values():
        if not meter.allows(len(group)):
            return None
        meter.replies += len(group)
        # Each turn's shortlisted replies, the strong level's; the replies of one placement
        # to the turns of one placement leave the same cards: valued together.
        entries: list[tuple[int, int]] = []
        replies: dict[Placement, list[tuple[int, Board]]] = {}
        for k in group:
            ranked = _strong_ranked(afters[k], following, variants, rest, search)
            gains[k] = -ranked[0][0]
            for r, (_, reply) in enumerate(_shortlist(ranked, search, search.margin)):
                after = afters[k].play(following, reply, variants)
                replies.setdefault(reply.placement, []).append((len(entries), after))
                entries.append((k, r))
        sums = [0.0] * len(entries)
        for shared in replies.values():
            boards = [after for _, after in shared]
            for n, outlook in zip(nexts, outlooks, strict=True):
                values = _best_values(boards, n, variants, outlook, search.evaluation)
                for (e, _), value in zip(shared, values, strict=True):
                    sums[e] += value
        best: dict[int, float] = {}
        for (k, _), total in zip(entries, sums, strict=True):
            best[k] = max(best.get(k, float("-inf")), total / len(nexts))
        for k in group:
            gains[k] += best[k]
    return gains
