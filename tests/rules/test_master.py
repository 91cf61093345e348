"""The master level (issue #53): the strong level's search one card deeper, within a budget.
Whatever the budget, even none, it plays a legal turn; on a budget of replies it plays the
same turn twice, blind to the order of the cards to come; where its search completes it
values its own turn at least as high as the strong level's; and it stops when its clock
says the budget is spent."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Board, Turn, Variants, load_deck
from rules.bot import MASTER_BUDGET, BotLevel, Budget, bot_turn, search_of
from rules.lookahead import DEEP_CARDS, master_choices
from tests.rules.helpers import ALL_VARIANTS, fresh_python, position

POSITIONS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: A deterministic budget: two next cards of a shortlist of eight turns.
SMALL = Budget(seconds=None, replies=16)


class _Clock:
    # A clock that moves ``step`` seconds each time it is read: the search's own pace.
    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


@POSITIONS
@given(
    seed=st.integers(0, 2**32 - 1),
    variants=st.sampled_from(ALL_VARIANTS),
    rounds=st.integers(0, 15),
    budget=st.sampled_from(
        [Budget(seconds=0.0), Budget(seconds=None, replies=0), SMALL, Budget(seconds=0.05)]
    ),
)
def test_the_master_plays_a_legal_turn_whatever_its_budget(
    seed: int, variants: Variants, rounds: int, budget: Budget
) -> None:
    board, card, unseen = position(seed, variants, rounds)
    turn = bot_turn(board, card, unseen=unseen, variants=variants, level="master", budget=budget)
    board.play(card, turn, variants)  # raises if illegal


@settings(POSITIONS, max_examples=4)
@given(
    seed=st.integers(0, 2**32 - 1),
    variants=st.sampled_from(ALL_VARIANTS),
    rounds=st.integers(0, 13),
)
def test_where_the_search_completes_the_master_rates_its_turn_above_the_strong_levels(
    seed: int, variants: Variants, rounds: int
) -> None:
    # The master's shortlist holds the strong level's choice (a wider margin, the same
    # placements first), so on a completed search it can only prefer a turn it values more.
    board, card, unseen = position(seed, variants, rounds)
    strong = bot_turn(board, card, unseen=unseen, variants=variants, level="strong", seed=seed)
    search = search_of(BotLevel.MASTER)
    unlimited = Budget(seconds=None, replies=None)
    choices = master_choices(board, card, variants, unseen, seed, search, unlimited)
    values = dict((turn, value) for value, turn in reversed(choices))
    assert strong in values
    assert choices[0][0] >= values[strong]
    assert choices[0][1] == bot_turn(
        board, card, unseen=unseen, variants=variants, level="master", seed=seed, budget=unlimited
    )


def test_with_no_budget_the_master_plays_its_two_ply_and_with_one_it_looks_deeper() -> None:
    # Round 8: the two-ply's ranking and the deeper one differ here.
    variants = Variants()
    board, card, unseen = position(11, variants, 7)
    search = search_of(BotLevel.MASTER)
    none = master_choices(board, card, variants, unseen, 1, search, Budget(seconds=0.0))
    replies = master_choices(board, card, variants, unseen, 1, search, Budget(None, replies=0))
    assert none == replies  # nothing deeper: the same values
    deeper = master_choices(board, card, variants, unseen, 1, search, SMALL)
    # The same turns, valued again one card deeper.
    assert {turn for _, turn in deeper} == {turn for _, turn in none}
    assert dict((t, v) for v, t in deeper) != dict((t, v) for v, t in none)


@pytest.mark.parametrize("step", [0.001, 0.05, 0.4])
def test_the_master_stops_when_its_clock_says_the_budget_is_spent(step: float) -> None:
    # Each read of the clock costs ``step`` seconds: a slower search reaches fewer cards,
    # and stops within one step and one card of its budget.
    variants = Variants(ferryman=True)
    board, card, unseen = position(4, variants, 5)
    clock = _Clock(step)
    budget = Budget(seconds=1.0, clock=clock)
    turn = bot_turn(board, card, unseen=unseen, variants=variants, level="master", budget=budget)
    board.play(card, turn, variants)
    # Once a read finds the budget spent, the clock is not read again.
    assert clock.now - step <= 1.0 + step
    assert clock.reads <= 2 + DEEP_CARDS * 8


def test_the_master_plays_a_whole_game_legally_and_the_same_way_twice() -> None:
    variants = Variants(diagonal=True, ferryman=True)
    deck = load_deck()
    numbers = deck.deal(random.Random(7))

    def play() -> tuple[list[Turn], int]:
        board, turns = Board(), []
        for k, number in enumerate(numbers):
            card = deck.card(number)
            unseen = [c for c in deck if c.number not in numbers[: k + 1]]
            turn = bot_turn(
                board, card, unseen=unseen, variants=variants, level="master", seed=3, budget=SMALL
            )
            board = board.play(card, turn, variants)  # raises if illegal
            turns.append(turn)
        return turns, board.landscape.score().total

    first = play()
    assert first == play()
    assert first[1] >= 35


@pytest.mark.parametrize("rounds", [3, 11, 13])
def test_the_master_is_blind_to_the_order_of_the_cards_to_come(rounds: int) -> None:
    variants = Variants(diagonal=True)
    board, card, unseen = position(rounds, variants, rounds)
    shuffled = random.Random(rounds).sample(unseen, len(unseen))
    assert shuffled != unseen
    turns = [
        bot_turn(board, card, unseen=cards, variants=variants, level="master", budget=SMALL)
        for cards in (unseen, shuffled)
    ]
    assert turns[0] == turns[1]


def test_the_masters_default_budget_is_about_a_second_of_cpu() -> None:
    assert MASTER_BUDGET.seconds is not None and 0.5 <= MASTER_BUDGET.seconds <= 1.0
    assert MASTER_BUDGET.replies is None


def test_the_master_loads_no_numpy() -> None:
    code = (
        "import sys, random, rules, rules.bot\n"
        "board, deck = rules.Board(), rules.load_deck()\n"
        "numbers = deck.deal(random.Random(1))\n"
        "for number in numbers[:3]:\n"
        "    card = deck.card(number)\n"
        "    budget = rules.bot.Budget(seconds=None, replies=8)\n"
        "    unseen = [c for c in deck if c.number not in numbers]\n"
        "    turn = rules.bot.bot_turn(\n"
        "        board, card, unseen=unseen, level='master', budget=budget)\n"
        "    board = board.play(card, turn)\n"
        "print('numpy' in sys.modules, 'rules.lookahead' in sys.modules)\n"
    )
    assert fresh_python(code).split() == ["False", "True"]
