"""Properties of random legal games, checked with hypothesis.

Every game here is played by seeded random choices among the generated legal turns, so
a failing example is replayed from its seed alone.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import (
    MAX_SPAN,
    ROTATIONS,
    Board,
    Card,
    Game,
    IllegalMoveError,
    Landscape,
    MoveWorker,
    Placement,
    PlaceWorker,
    Turn,
    Variants,
    WorkerAction,
    game_from_record,
    game_to_record,
    reference_turn,
)
from tests.rules.helpers import ALL_VARIANTS, random_game, rotate_zonemap, shift_zonemap

# Each example plays whole games: a couple of dozen cover the rules in a few seconds.
GAMES = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
variants_ = st.sampled_from(ALL_VARIANTS)


def boards_of_a_game(seed: int, variants: Variants) -> list[tuple[Board, Card]]:
    """Each (board, card) a solo player faced in a random game."""
    rng = random.Random(seed)
    game = Game.new(["solo"], rng, variants=variants)
    faced = []
    while not game.is_over:
        card = game.current_card
        assert card is not None
        board = game.boards["solo"]
        faced.append((board, card))
        game.play("solo", rng.choice(list(board.iter_turns(card, variants))))
    return faced


@GAMES
@given(seed=seeds, players=st.integers(1, 3), variants=variants_)
def test_replaying_the_record_reproduces_the_game(
    seed: int, players: int, variants: Variants
) -> None:
    game = random_game(seed, players, variants)
    record = game_to_record(game)
    again = game_from_record(json.loads(json.dumps(record)))
    assert game_to_record(again) == record
    assert again.boards == game.boards
    assert again.scores() == game.scores()
    assert again.outcome().ranking == game.outcome().ranking


@GAMES
@given(seed=seeds, players=st.integers(1, 3), rounds=st.integers(0, 15), variants=variants_)
def test_replaying_an_unfinished_record_resumes_the_same_round(
    seed: int, players: int, rounds: int, variants: Variants
) -> None:
    game = random_game(seed, players, variants, rounds=rounds)
    again = game_from_record(game_to_record(game))
    assert (again.round, again.waiting_for(), again.current_card) == (
        game.round,
        game.waiting_for(),
        game.current_card,
    )


@GAMES
@given(seed=seeds, variants=variants_)
def test_every_generated_turn_is_accepted(seed: int, variants: Variants) -> None:
    rng = random.Random(seed)
    for board, card in boards_of_a_game(seed, variants):
        turns = list(board.iter_turns(card, variants))
        assert len(turns) == len(set(turns)), "a turn is generated twice"
        expected = [
            Turn(placement, action)
            for placement in board.legal_placements(variants)
            for action in board.place(card, placement, variants).legal_worker_actions(variants)
        ]
        assert turns == expected
        for turn in rng.sample(turns, min(len(turns), 12)):
            after = board.play(card, turn, variants)
            assert len(after.cards) == len(board.cards) + 1


@GAMES
@given(seed=seeds, variants=variants_)
def test_moves_outside_the_generated_set_are_refused(seed: int, variants: Variants) -> None:
    rng = random.Random(seed)
    for board, card in boards_of_a_game(seed, variants):
        legal = set(board.legal_positions(variants))
        for row in range(-4, 5):
            for col in range(-4, 5):
                placement = Placement((row, col), rng.choice(ROTATIONS))
                try:
                    board.place(card, placement, variants)
                except IllegalMoveError:
                    assert (row, col) not in legal
                else:
                    assert (row, col) in legal
        placed = board.place(card, rng.choice(board.legal_placements(variants)), variants)
        actions = set(placed.legal_worker_actions(variants))
        zones = [point for point, _ in placed.landscape.iter_zones()]
        candidates: list[WorkerAction] = [PlaceWorker(rng.choice(zones)) for _ in range(10)]
        candidates += [MoveWorker(rng.choice(zones), rng.choice(zones)) for _ in range(20)]
        candidates += [MoveWorker(w, rng.choice(zones)) for w in placed.workers]
        for action in candidates:
            try:
                placed.act(action, variants)
            except IllegalMoveError:
                assert action not in actions
            else:
                assert action in actions


@GAMES
@given(seed=seeds, variants=variants_, turns=st.integers(1, 3))
def test_scores_do_not_change_when_the_landscape_turns_or_shifts(
    seed: int, variants: Variants, turns: int
) -> None:
    game = random_game(seed, 1, variants)
    landscape = Landscape.from_zone_map(game.boards["p0"].landscape.to_zone_map())
    expected = landscape.score()

    turned = landscape
    for _ in range(turns):
        turned = Landscape.from_zone_map(rotate_zonemap(turned))
    assert (turned.score().total, turned.score().tiebreak) == (expected.total, expected.tiebreak)

    shifted = Landscape.from_zone_map(shift_zonemap(landscape, 3, 2))
    assert shifted.score().tiebreak == expected.tiebreak
    moved = Landscape.from_zones(
        {(r - 7, c + 11): zone for (r, c), zone in landscape.iter_zones()},
        [(r - 7, c + 11) for r, c in landscape.workers],
    )
    assert moved.score().tiebreak == expected.tiebreak


@GAMES
@given(seed=seeds, variants=variants_)
def test_worker_moves_turn_with_the_landscape(seed: int, variants: Variants) -> None:
    game = random_game(seed, 1, variants, rounds=10)
    landscape = Landscape.from_zone_map(game.boards["p0"].landscape.to_zone_map())
    turned = Landscape.from_zone_map(rotate_zonemap(landscape))
    height = landscape.height

    def turn(point: tuple[int, int]) -> tuple[int, int]:
        return (point[1], height - 1 - point[0])

    for source in set(landscape.workers):
        targets = landscape.worker_targets(source, ferryman=variants.ferryman)
        assert turned.worker_targets(turn(source), ferryman=variants.ferryman) == sorted(
            map(turn, targets)
        )


@GAMES
@given(seed=seeds, variants=variants_)
def test_landscape_ends_a_four_by_four_square(seed: int, variants: Variants) -> None:
    game = random_game(seed, 2, variants)
    for board in game.boards.values():
        positions = board.card_positions()
        assert len(board.cards) == len(positions) == 16
        rows = {r for r, _ in positions}
        cols = {c for _, c in positions}
        assert len(rows) == len(cols) == MAX_SPAN
        assert board.cards[0].card_at == (0, 0)
        landscape = board.landscape
        assert (landscape.height, landscape.width) == (8, 8)
        assert len(list(landscape.iter_zones())) == 64
        assert len(board.workers) <= 7


@settings(max_examples=6, deadline=None)
@given(seed=seeds, variants=variants_, round_=st.integers(4, 13))
def test_reference_player_takes_a_best_preview(seed: int, variants: Variants, round_: int) -> None:
    board, card = boards_of_a_game(seed, variants)[round_ - 1]
    chosen = reference_turn(board, card, variants)
    totals = [
        board.play(card, turn, variants).landscape.score().total
        for turn in board.iter_turns(card, variants)
    ]
    assert board.play(card, chosen, variants).landscape.score().total == max(totals)
    first_best = list(board.iter_turns(card, variants))[totals.index(max(totals))]
    assert chosen == first_best


@GAMES
@given(seed=seeds, variants=variants_)
def test_total_with_agrees_with_score(seed: int, variants: Variants) -> None:
    game = random_game(seed, 1, variants, rounds=12)
    landscape = game.boards["p0"].landscape
    assert landscape.total_with(landscape.workers) == landscape.score().total


@GAMES
@given(seed=seeds, variants=variants_)
def test_landscape_grown_card_by_card_equals_one_built_at_once(
    seed: int, variants: Variants
) -> None:
    for board, _ in boards_of_a_game(seed, variants):
        rebuilt = Board(board.cards, board.workers).landscape
        assert rebuilt == board.landscape
        assert rebuilt.to_zone_map() == board.landscape.to_zone_map()
        assert rebuilt.score() == board.landscape.score()
