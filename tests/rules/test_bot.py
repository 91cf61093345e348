"""Computer players by level: always legal, deterministic, and the analysis tools agree."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import (
    Board,
    IllegalMoveError,
    InvalidInputError,
    Placement,
    Turn,
    Variants,
    load_deck,
    reference_turn,
)
from rules.bot import (
    ASSESSMENT,
    BOT_LEVELS,
    BotLevel,
    Budget,
    Search,
    _strong_choices,
    _strong_ranked,
    assess_turn,
    bot_turn,
    hindsight_best,
    hint_turn,
    search_of,
    search_turn,
)
from rules.evaluation import (
    HandWeights,
    LearnedWeights,
    Outlook,
    afterstate_features,
    best_values,
    load_weights,
    value_turns,
)
from tests.rules.helpers import ALL_VARIANTS, position

POSITIONS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@POSITIONS
@given(
    seed=st.integers(0, 2**32 - 1),
    variants=st.sampled_from(ALL_VARIANTS),
    rounds=st.integers(0, 15),
    level=st.sampled_from(BOT_LEVELS),
    bot_seed=st.integers(0, 2**64),
)
def test_every_level_plays_a_legal_turn(
    seed: int, variants: Variants, rounds: int, level: str, bot_seed: int
) -> None:
    board, card, unseen = position(seed, variants, rounds)
    # The master is deterministic on a budget of replies (on CPU seconds it may not be).
    budget = Budget(seconds=None, replies=16)
    turns = [
        bot_turn(
            board, card, unseen=unseen, variants=variants, level=level, seed=bot_seed, budget=budget
        )
        for _ in range(2)
    ]
    board.play(card, turns[0], variants)  # raises if illegal
    assert turns[0] == turns[1]


def test_reference_level_is_the_reference_player() -> None:
    board, card, unseen = position(5, Variants(ferryman=True), 7)
    turn = bot_turn(board, card, unseen=unseen, variants=Variants(ferryman=True), level="reference")
    assert turn == reference_turn(board, card, Variants(ferryman=True))


def test_unknown_level_is_invalid_input() -> None:
    board, card, unseen = position(1, Variants(), 3)
    with pytest.raises(InvalidInputError, match="unknown bot level 'grandmaster'"):
        bot_turn(board, card, unseen=unseen, level="grandmaster")


def test_easy_is_weaker_than_strong() -> None:
    deck = load_deck()
    totals = {"easy": 0, "strong": 0}
    for game_seed in range(4):
        numbers = deck.deal(random.Random(game_seed))
        for level in totals:
            board = Board()
            for k, number in enumerate(numbers):
                unseen = [c for c in deck if c.number not in numbers[: k + 1]]
                turn = bot_turn(board, deck.card(number), unseen=unseen, level=level, seed=3)
                board = board.play(deck.card(number), turn)
            totals[level] += board.landscape.score().total
    assert totals["strong"] > totals["easy"]


def test_easy_turns_vary_with_the_seed() -> None:
    board, card, unseen = position(11, Variants(), 6)
    turns = {bot_turn(board, card, unseen=unseen, level="easy", seed=s) for s in range(12)}
    assert len(turns) > 1


def test_strong_scores_a_last_round_exactly() -> None:
    # In round 16 the strong player has nothing left to expect: it takes the best score.
    board, card, unseen = position(8, Variants(), 15)
    turn = bot_turn(board, card, unseen=unseen)
    best = max(board.play(card, t).landscape.score().total for t in board.iter_turns(card))
    assert board.play(card, turn).landscape.score().total == best


@pytest.mark.parametrize(
    ("variants", "seed"), [(Variants(), 8), (Variants(diagonal=True, ferryman=True), 3)]
)
def test_the_strong_level_plays_the_best_expected_round_15(variants: Variants, seed: int) -> None:
    # With one round left, the strong level (``Search.endgame``) ranks every turn by the mean
    # over every unseen card of the best final score after it: brute force over both rounds
    # agrees. (On these positions the two-ply on four cards gave away 0.7 and 1.4 points.)
    board, card, unseen = position(seed, variants, 14)
    chosen = bot_turn(board, card, unseen=unseen, variants=variants, level="strong")

    def expected(turn: Turn) -> float:
        after = board.play(card, turn, variants)
        # Without an outlook, a turn's value is the score the landscape then has.
        return sum(max(v for v, _ in value_turns(after, last, variants)) for last in unseen) / len(
            unseen
        )

    values = {turn: expected(turn) for turn in board.iter_turns(card, variants)}
    assert values[chosen] == pytest.approx(max(values.values()))


def test_a_level_plays_its_own_search() -> None:
    # ``search_turn`` with a level's configuration is that level's turn; another
    # configuration (the lab's) may choose otherwise.
    variants = Variants(ferryman=True)
    board, card, unseen = position(8, variants, 6)
    strong = search_of(BotLevel.STRONG)
    assert search_turn(
        board, card, unseen=unseen, search=strong, variants=variants, seed=2
    ) == bot_turn(board, card, unseen=unseen, variants=variants, level="strong", seed=2)


@pytest.mark.parametrize("rounds", [3, 11, 13, 14])
def test_the_strong_level_is_blind_to_the_order_of_the_cards_to_come(rounds: int) -> None:
    # The unseen cards are a set to every level: their order never changes the turn.
    variants = Variants(diagonal=True)
    board, card, unseen = position(rounds, variants, rounds)
    shuffled = random.Random(rounds).sample(unseen, len(unseen))
    assert shuffled != unseen
    budget = Budget(seconds=None, replies=16)  # the master's, deterministic
    for level in BOT_LEVELS:
        assert bot_turn(
            board, card, unseen=unseen, variants=variants, level=level, budget=budget
        ) == bot_turn(board, card, unseen=shuffled, variants=variants, level=level, budget=budget)


# -- assess_turn ---------------------------------------------------------------------------


@POSITIONS
@given(
    seed=st.integers(0, 2**32 - 1),
    variants=st.sampled_from(ALL_VARIANTS),
    rounds=st.integers(0, 15),
    pick=st.integers(0, 10_000),
)
def test_assessment_is_consistent(seed: int, variants: Variants, rounds: int, pick: int) -> None:
    # The assessment values every turn one-ply on the assessment's evaluation: the played
    # turn's value, and the best turn's.
    board, card, unseen = position(seed, variants, rounds)
    turns = list(board.iter_turns(card, variants))
    played = turns[pick % len(turns)]
    assessment = assess_turn(board, card, played, unseen=unseen, variants=variants)
    assert assessment.played == played
    assert assessment.best_value >= assessment.played_value
    board.play(card, assessment.best, variants)
    outlook = Outlook.of(unseen, 15 - rounds)
    listed = {
        turn: value
        for value, turn in value_turns(board, card, variants, outlook, ASSESSMENT.evaluation)
    }
    assert assessment.played_value == listed[played]
    assert assessment.best_value == listed[assessment.best] == max(listed.values())
    if assessment.best != played:
        assert listed[played] < listed[assessment.best]


def test_assessing_an_illegal_turn_raises() -> None:
    board, card, unseen = position(2, Variants(), 4)
    with pytest.raises(IllegalMoveError):
        assess_turn(board, card, Turn(Placement((9, 9))), unseen=unseen)


def test_last_round_assessment_is_the_exact_final_score() -> None:
    board, card, unseen = position(13, Variants(), 15)
    turns = list(board.iter_turns(card))
    assessment = assess_turn(board, card, turns[0], unseen=unseen)
    assert assessment.played_value == board.play(card, turns[0]).landscape.score().total
    assert assessment.best_value == max(board.play(card, t).landscape.score().total for t in turns)


# -- hindsight_best ------------------------------------------------------------------------


@pytest.mark.parametrize("variants", ALL_VARIANTS)
def test_hindsight_turns_replay_to_the_score(variants: Variants) -> None:
    deck = load_deck()
    cards = [deck.card(n) for n in deck.deal(random.Random(42))]
    total, turns = hindsight_best(cards, variants=variants, budget=0.3)
    assert len(turns) == 16
    board = Board()
    for card, turn in zip(cards, turns, strict=True):
        board = board.play(card, turn, variants)
    assert board.landscape.score().total == total
    assert hindsight_best(cards, variants=variants, budget=0.3) == (total, turns)


def test_hindsight_beats_the_reference_player() -> None:
    deck = load_deck()
    cards = [deck.card(n) for n in deck.deal(random.Random(7))]
    board = Board()
    for card in cards:
        board = board.play(card, reference_turn(board, card))
    total, _ = hindsight_best(cards, budget=0.5)
    assert total >= board.landscape.score().total


def test_hindsight_of_a_partial_deal_and_bad_input() -> None:
    deck = load_deck()
    cards = [deck.card(n) for n in (3, 9, 14)]
    total, turns = hindsight_best(cards, budget=0.1)
    assert len(turns) == 3 and total >= 0
    with pytest.raises(InvalidInputError):
        hindsight_best([])
    with pytest.raises(InvalidInputError):
        hindsight_best([cards[0], cards[0]])


@pytest.mark.parametrize("variants", ALL_VARIANTS)
def test_next_card_expectation_ranks_legal_turns(variants: Variants) -> None:
    # The two-ply search (small parameters here) stays legal and ordered.

    board, card, unseen = position(21, variants, 6)
    weights = Search(candidates=3, samples=2, per_placement=0)
    choices = _strong_choices(board, card, variants, unseen, 5, weights)
    assert len(choices) == 3
    assert [v for v, _ in choices] == sorted((v for v, _ in choices), reverse=True)
    for _, turn in choices:
        board.play(card, turn, variants)
    assert _strong_choices(board, card, variants, unseen, 5, weights) == choices


def test_next_card_expectation_only_reranks_close_turns() -> None:
    # With a margin of 0 only turns tied with the best are ranked again; none tied, the
    # one-ply ranking (every legal turn) is the answer.

    variants = Variants()
    board, card, unseen = position(21, variants, 6)
    weights = Search(candidates=3, samples=2, margin=0.0, per_placement=0)
    ranked = _strong_ranked(board, card, variants, unseen, weights)
    choices = _strong_choices(board, card, variants, unseen, 5, weights)
    tied = sum(value == ranked[0][0] for value, _ in ranked[:3])
    assert len(choices) == (len(ranked) if tied == 1 else tied)


@POSITIONS
@given(
    seed=st.integers(0, 2**32 - 1),
    variants=st.sampled_from(ALL_VARIANTS),
    rounds=st.integers(0, 15),
)
def test_the_best_reply_value_is_the_best_listed_turn(
    seed: int, variants: Variants, rounds: int
) -> None:
    # The two-ply values a reply without listing its turns; it must agree with the listing.

    board, card, unseen = position(seed, variants, rounds)
    outlook = Outlook.of(unseen, 15 - rounds)
    for evaluation in (HandWeights(), load_weights(), random_weights(seed)):
        listed = value_turns(board, card, variants, outlook, evaluation)
        best = max(v for v, _ in listed)
        assert best_values([board], card, variants, outlook, evaluation) == [
            pytest.approx(best, abs=1e-9)
        ]


@POSITIONS
@given(
    seed=st.integers(0, 2**32 - 1),
    variants=st.sampled_from(ALL_VARIANTS),
    rounds=st.integers(0, 14),
)
def test_boards_sharing_a_landscape_value_their_replies_as_each_alone(
    seed: int, variants: Variants, rounds: int
) -> None:
    # The two-ply values the replies of turns with one placement together, sharing the
    # landscape's work; each board's value must be the one it has alone.

    board, card, unseen = position(seed, variants, rounds)
    placement = board.legal_placements(variants)[seed % len(board.legal_placements(variants))]
    afters = [
        board.play(card, turn, variants)
        for turn in board.iter_turns(card, variants)
        if turn.placement == placement
    ]
    assert len(afters) > 1  # doing nothing, and at least a worker placed on the card
    following = unseen[seed % len(unseen)]
    outlook = Outlook.of([c for c in unseen if c != following], 14 - rounds)
    for evaluation in (HandWeights(), load_weights(), random_weights(seed)):
        together = best_values(afters, following, variants, outlook, evaluation)
        alone = [best_values([a], following, variants, outlook, evaluation)[0] for a in afters]
        assert together == alone


@pytest.mark.parametrize("variants", ALL_VARIANTS)
def test_per_placement_ranks_the_best_turns_of_the_best_placements(variants: Variants) -> None:
    # ``per_placement``: ``candidates`` counts placements; the best turns of each are ranked
    # again by the two-ply, legal and best first.

    board, card, unseen = position(21, variants, 6)
    weights = Search(candidates=2, samples=2, per_placement=3)
    ranked = _strong_ranked(board, card, variants, unseen, weights)
    best_two = list(dict.fromkeys(turn.placement for _, turn in ranked))[:2]
    expected = [turn for placement in best_two for _, turn in ranked if turn.placement == placement]
    expected = [
        turn
        for k, turn in enumerate(expected)
        if sum(t.placement == turn.placement for t in expected[:k]) < 3
    ]
    choices = _strong_choices(board, card, variants, unseen, 5, weights)
    assert sorted(map(repr, (turn for _, turn in choices))) == sorted(map(repr, expected))
    assert [v for v, _ in choices] == sorted((v for v, _ in choices), reverse=True)
    for _, turn in choices:
        board.play(card, turn, variants)


# -- the learned evaluation ----------------------------------------------------------------


def random_weights(seed: int) -> LearnedWeights:
    """Learned coefficients drawn at random: every term of the evaluation counts."""
    rng = random.Random(seed)
    return LearnedWeights(
        tuple(tuple(rng.uniform(-1, 2) for _ in row) for row in LearnedWeights.from_hand().stages)
    )


@pytest.mark.parametrize("variants", ALL_VARIANTS)
def test_the_hand_evaluation_in_the_learned_shape_values_turns_alike(variants: Variants) -> None:
    # Training starts from the hand-tuned evaluation written as learned coefficients.
    board, card, unseen = position(17, variants, 7)
    outlook = Outlook.of(unseen, 15 - 7)
    hand = value_turns(board, card, variants, outlook, HandWeights())
    learned = value_turns(board, card, variants, outlook, LearnedWeights.from_hand())
    assert [turn for _, turn in hand] == [turn for _, turn in learned]
    assert all(abs(a - b) < 1e-9 for (a, _), (b, _) in zip(hand, learned, strict=True))


@pytest.mark.parametrize("variants", ALL_VARIANTS)
@pytest.mark.parametrize("rounds", [2, 6, 11, 14])
def test_a_learned_value_is_its_afterstates_features_times_the_coefficients(
    variants: Variants, rounds: int
) -> None:
    # Training fits coefficients to features; playing sums regions' worth: the same value,
    # for every turn.
    board, card, unseen = position(29 + rounds, variants, rounds)
    rounds_left = 15 - rounds
    outlook = Outlook.of(unseen, rounds_left)
    weights = random_weights(rounds)
    coefficients = weights.stages[rounds_left]
    for value, turn in value_turns(board, card, variants, outlook, weights):
        features = afterstate_features(board.play(card, turn, variants), outlook)
        expected = sum(x * w for x, w in zip(features, coefficients, strict=True))
        assert value == pytest.approx(expected, abs=1e-9)


def test_learned_weights_round_trip_and_refuse_a_wrong_shape() -> None:
    weights = load_weights()
    assert LearnedWeights.from_json(weights.to_json()).stages == tuple(
        tuple(round(x, 6) for x in row) for row in weights.stages
    )
    with pytest.raises(InvalidInputError, match="limes-evaluator/2"):
        LearnedWeights.from_json({"format": "other"})
    with pytest.raises(InvalidInputError, match="stages"):
        LearnedWeights.from_json({"format": "limes-evaluator/2", "stages": [[1.0]]})


def test_a_hint_is_the_assessments_best_turn() -> None:
    board, card, unseen = position(23, Variants(), 9)
    turn = hint_turn(board, card, unseen=unseen)
    assessment = assess_turn(board, card, turn, unseen=unseen)
    assert assessment.best == turn
