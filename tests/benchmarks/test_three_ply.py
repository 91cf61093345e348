"""The lab's three-ply (``benchmarks/lab/deeper_search.py``): the strong level's two-ply
looking one card further, in the rounds it is told to, blind to the order of the cards."""

from __future__ import annotations

import random

import pytest

from benchmarks.lab.deeper_search import three_ply_choices
from rules import Turn, Variants
from rules.bot import Search, _strong_choices, _strong_ranked
from rules.evaluation import load_weights
from tests.rules.helpers import position


@pytest.mark.parametrize("variants", [Variants(), Variants(diagonal=True, ferryman=True)])
def test_the_three_ply_values_a_turn_by_the_two_ply_one_card_further(variants: Variants) -> None:
    # With every unseen card sampled, a shortlisted turn is worth the mean over them of the
    # two-ply's value of its best reply (the reply's two-ply valuing at least the reply the
    # evaluation ranks first).
    board, card, unseen = position(31, variants, 12)
    two_ply = Search(load_weights(), candidates=2, samples=99, budget=0, margin=0.5, endgame=1)
    choices = three_ply_choices(board, card, variants, unseen, 5, two_ply, deepest=3, margin=0.5)
    ranked = _strong_ranked(board, card, variants, unseen, two_ply)
    assert len(choices) > 1, "a position with a shortlist, or the test shows nothing"
    assert {turn for _, turn in choices} <= {t for v, t in ranked if v >= ranked[0][0] - 0.5}

    def one_card_further(turn: Turn) -> float:
        after = board.play(card, turn, variants)
        total = 0.0
        for following in unseen:
            rest = [c for c in unseen if c != following]
            first = _strong_ranked(after, following, variants, rest, two_ply)[0][1]
            total += _strong_choices(after, following, variants, rest, 5, two_ply, first)[0][0]
        return total / len(unseen)

    for value, turn in choices:
        assert value == pytest.approx(one_card_further(turn))
    assert [v for v, _ in choices] == sorted((v for v, _ in choices), reverse=True)


def test_the_three_ply_looks_further_only_in_its_rounds() -> None:
    # Before ``deepest`` rounds are left, the search is the two-ply's, turn for turn.
    variants = Variants()
    two_ply = Search(load_weights(), candidates=3, samples=2, budget=0, endgame=1)
    board, card, unseen = position(8, variants, 11)  # four rounds left after this one
    assert three_ply_choices(
        board, card, variants, unseen, 5, two_ply, deepest=3
    ) == _strong_choices(board, card, variants, unseen, 5, two_ply)
    board, card, unseen = position(8, variants, 12)  # three
    assert three_ply_choices(
        board, card, variants, unseen, 5, two_ply, deepest=3
    ) != _strong_choices(board, card, variants, unseen, 5, two_ply)


def test_the_three_ply_is_blind_to_the_order_of_the_cards_to_come() -> None:
    # Like every level: the unseen cards are a set, their order never changes the turn.
    variants = Variants(diagonal=True)
    board, card, unseen = position(8, variants, 12)
    shuffled = random.Random(12).sample(unseen, len(unseen))
    assert shuffled != unseen
    two_ply = Search(load_weights(), candidates=3, samples=2, budget=0, endgame=1)
    assert three_ply_choices(
        board, card, variants, unseen, 5, two_ply, deepest=3
    ) == three_ply_choices(board, card, variants, shuffled, 5, two_ply, deepest=3)
