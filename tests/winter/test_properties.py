"""Random legal games never break an invariant (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from winter import (
    FOLLOWERS_PER_PLAYER,
    FeatureKind,
    Game,
    Options,
    deal,
    game_from_record,
    game_to_record,
    orientation,
)

DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def check_invariants(game: Game, before: tuple[int, ...]) -> None:
    features = list(game.iter_features())
    on_board = [0] * len(game.players)
    for feature in features:
        for follower in feature.followers:
            on_board[follower.player] += 1
        if feature.complete and feature.kind is not FeatureKind.FIELD:
            assert feature.followers == (), feature
    for seat in range(len(game.players)):
        assert game.supply(seat) + on_board[seat] == FOLLOWERS_PER_PLAYER
        assert game.score(seat) >= before[seat]
    # The features split the board's segments among them, each segment in one feature, and
    # the feature found from any of its segments is that one (what lights on the page).
    board = game.board
    owners = {segment: feature for feature in features for segment in feature.segments}
    assert len(owners) == sum(len(feature.segments) for feature in features)
    every = {
        (at, name) for at, placed in board.items() for name in orientation(*placed).segment_name
    }
    assert set(owners) == every
    for (at, name), feature in owners.items():
        assert game.feature_at(at, name) == feature
        if feature.kind is not FeatureKind.CLOISTER:  # (a cloister's tiles: it and around)
            assert feature.tiles == tuple(sorted({place for place, _ in feature.segments}))
    for (row, col), (name, rotation) in board.items():
        sides = orientation(name, rotation).sides
        for side, (dr, dc) in enumerate(DELTAS):
            neighbour = board.get((row + dr, col + dc))
            if neighbour is not None:
                facing = orientation(*neighbour).sides[(side + 2) % 4]
                assert sides[side] is facing, ((row, col), side)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    players=st.integers(2, 5),
    farmers=st.booleans(),
    keen=st.floats(0, 1),
)
def test_random_legal_games_keep_every_invariant(
    seed: int, players: int, farmers: bool, keen: float
) -> None:
    rng = random.Random(seed)
    names = [f"p{seat}" for seat in range(players)]
    game = Game(names, Options(farmers=farmers), order=deal(seed))
    while (tile := game.drawn) is not None:
        before = game.scores
        moves = game.legal_moves(tile)
        move = rng.choice(moves)
        placements = list(move.iter_placements(tile))
        placement = placements[-1] if rng.random() < keen else rng.choice(placements)
        # A copy plays on its own: the original keeps its features (the pages' previews).
        if len(game.turns) % 11 == 0:
            kept = list(game.iter_features())
            game.copy().play(placement)
            assert list(game.iter_features()) == kept
        game.play(placement)
        if len(game.turns) % 7 == 0 or game.drawn is None:
            check_invariants(game, before)
    assert game.is_over() and game.tiles_left == 0
    assert len(game.board) + sum(1 for t in game.turns if not hasattr(t, "at")) == 84
    replayed = game_from_record(game_to_record(game))
    assert replayed.scores == game.scores and replayed.end_points() == game.end_points()
