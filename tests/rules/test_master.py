"""The master level (issue #39): the strong level's search on a distilled network value.
Its batch agrees with the value one reply at a time, it plays whole legal games the same
way twice, blind to the order of the cards to come, and its weights (and numpy) load once,
when a master plays: the other levels never load numpy."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Board, InvalidInputError, Turn, Variants, load_deck
from rules.bot import BotLevel, bot_turn, search_of
from rules.evaluation import Outlook, best_values, load_weights
from rules.master import INPUTS, MasterValue, load_master
from tests.rules.helpers import ALL_VARIANTS, fresh_python, position

POSITIONS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@POSITIONS
@given(
    seed=st.integers(0, 2**32 - 1),
    variants=st.sampled_from(ALL_VARIANTS),
    rounds=st.integers(0, 13),
)
def test_the_masters_batch_is_the_best_reply_valued_one_by_one(
    seed: int, variants: Variants, rounds: int
) -> None:
    # ``best_values`` values every reply of boards sharing their cards in one batch: for
    # each board, the best of its turns each valued alone (``value``).
    board, card, unseen = position(seed, variants, rounds)
    placement = board.legal_placements(variants)[seed % len(board.legal_placements(variants))]
    afters = [
        board.play(card, turn, variants)
        for turn in board.iter_turns(card, variants)
        if turn.placement == placement
    ]
    following = unseen[seed % len(unseen)]
    outlook = Outlook.of([c for c in unseen if c != following], 14 - rounds)
    master = load_master()
    batch = master.best_values(afters, following, variants, outlook)
    for after, value in zip(afters, batch, strict=True):
        alone = max(
            master.value(after.play(following, turn, variants), outlook)
            for turn in after.iter_turns(following, variants)
        )
        assert value == pytest.approx(alone, abs=1e-9)


@POSITIONS
@given(
    seed=st.integers(0, 2**32 - 1),
    variants=st.sampled_from(ALL_VARIANTS),
    rounds=st.integers(0, 14),
)
def test_with_no_correction_the_master_values_replies_as_the_strong_level(
    seed: int, variants: Variants, rounds: int
) -> None:
    board, card, unseen = position(seed, variants, rounds)
    linear = load_weights()
    silent = MasterValue(
        linear,
        np.zeros(INPUTS),
        np.ones(INPUTS),
        ((np.ones((INPUTS, 4)), np.ones(4)), (np.zeros((4, 1)), np.zeros(1))),
    )
    outlook = Outlook.of(unseen, 15 - rounds - 1)
    assert silent.best_values([board], card, variants, outlook) == pytest.approx(
        best_values([board], card, variants, outlook, linear), abs=1e-9
    )


def test_the_master_plays_a_whole_game_legally_and_the_same_way_twice() -> None:
    variants = Variants(diagonal=True, ferryman=True)
    deck = load_deck()
    numbers = deck.deal(random.Random(7))

    def play() -> tuple[list[Turn], int]:
        board, turns = Board(), []
        for k, number in enumerate(numbers):
            card = deck.card(number)
            unseen = [c for c in deck if c.number not in numbers[: k + 1]]
            turn = bot_turn(board, card, unseen=unseen, variants=variants, level="master", seed=3)
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
    # (tests/rules/test_bot.py checks every level so; here the rounds where the master's
    # network, not the exact endgame, decides.)
    assert bot_turn(board, card, unseen=unseen, variants=variants, level="master") == bot_turn(
        board, card, unseen=shuffled, variants=variants, level="master"
    )


def test_the_masters_value_is_read_once_per_process() -> None:
    assert search_of(BotLevel.MASTER) is search_of(BotLevel.MASTER)
    assert search_of(BotLevel.MASTER).evaluation is load_master()
    # Its linear part is the strong level's own weights, not a second copy.
    assert load_master().linear is search_of(BotLevel.STRONG).evaluation


def test_numpy_loads_only_when_a_master_plays() -> None:
    code = (
        "import sys, random, rules, rules.bot\n"
        "board, deck = rules.Board(), rules.load_deck()\n"
        "card = deck.card(deck.deal(random.Random(1))[0])\n"
        "for level in ('easy', 'reference', 'strong', 'master'):\n"
        "    print('numpy' in sys.modules)\n"
        "    rules.bot.bot_turn(board, card, unseen=list(deck), level=level)\n"
        "print('numpy' in sys.modules)\n"
    )
    printed = fresh_python(code)
    assert printed.split() == ["False", "False", "False", "False", "True"]


def test_master_weights_round_trip_and_refuse_a_wrong_shape() -> None:
    master = load_master()
    again = MasterValue.from_json(master.to_json(), master.linear)
    x = np.linspace(0, 1, 3 * INPUTS).reshape(3, INPUTS)
    assert again.correction(x) == pytest.approx(master.correction(x), abs=1e-5)
    data = master.to_json()
    with pytest.raises(InvalidInputError):
        MasterValue.from_json({**data, "format": "limes-master/0"}, master.linear)
    with pytest.raises(InvalidInputError):
        MasterValue.from_json({**data, "inputs": INPUTS + 1}, master.linear)
    layers = data["layers"]
    assert isinstance(layers, list)
    with pytest.raises(InvalidInputError):
        MasterValue.from_json({**data, "layers": layers[1:]}, master.linear)
