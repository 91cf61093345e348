"""Rebuilding a game from its players' turns without checking them: the same game as a replay."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import (
    Board,
    Game,
    InvalidInputError,
    MoveWorker,
    Placement,
    PlaceWorker,
    Turn,
    Variants,
    load_deck,
)
from tests.rules.helpers import ALL_VARIANTS

CARDS = list(range(1, 17))


def rebuilt(game: Game) -> Game:
    """``game`` rebuilt from each player's turns, as the web app stores them."""
    turns = {p: [t[p] for t in game.turns if p in t] for p in game.players}
    return Game.from_turns(
        game.players,
        game.cards,
        turns,
        retired=list(game.retired),
        variants=game.variants,
        deck=game.deck,
    )


def assert_same(rebuilt_game: Game, replayed: Game) -> None:
    assert rebuilt_game.boards == replayed.boards
    assert rebuilt_game.turns == replayed.turns
    assert rebuilt_game.retired == replayed.retired
    assert rebuilt_game.round == replayed.round
    assert rebuilt_game.is_over == replayed.is_over
    assert rebuilt_game.waiting_for() == replayed.waiting_for()
    assert rebuilt_game.current_card == replayed.current_card
    assert rebuilt_game.outcome() == replayed.outcome()
    for player in replayed.players:
        assert (
            rebuilt_game.boards[player].landscape.to_zone_map()
            == replayed.boards[player].landscape.to_zone_map()
        )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.integers(min_value=1, max_value=4),
    variants=st.sampled_from(ALL_VARIANTS),
)
def test_rebuilt_game_equals_its_replay_at_every_step(
    seed: int, players: int, variants: Variants
) -> None:
    # Random legal turns, played in random order within a round, and now and then a player
    # leaves (before playing the round or after): every intermediate game is compared.
    rng = random.Random(seed)
    game = Game.new([f"p{k}" for k in range(players)], rng, variants=variants)
    assert_same(rebuilt(game), game)
    while not game.is_over:
        card = game.current_card
        assert card is not None
        waiting = game.waiting_for()
        player = rng.choice(waiting)
        if rng.random() < 0.03:
            game.retire(player)
        else:
            turns = list(game.boards[player].iter_turns(card, variants))
            game.play(player, rng.choice(turns))
            if rng.random() < 0.02 and not game.is_over:
                game.retire(player)
        assert_same(rebuilt(game), game)


def test_rebuilt_board_moves_workers_as_played() -> None:
    deck = load_deck()
    cards = [deck.card(n) for n in CARDS]
    turns = [
        Turn(Placement((0, 0)), PlaceWorker((0, 0))),
        Turn(Placement((0, 1)), PlaceWorker((0, 2))),
        Turn(Placement((1, 0)), MoveWorker((0, 0), (2, 0))),
    ]
    board = Board.from_turns(cards, turns)
    assert [placed.card_at for placed in board.cards] == [(0, 0), (0, 1), (1, 0)]
    assert board.workers == ((0, 2), (2, 0))
    assert board.supply == 5


def test_rebuilding_refuses_what_cannot_be_a_stored_game() -> None:
    deck = load_deck()
    with pytest.raises(InvalidInputError, match="2 turns but only 1 cards"):
        Board.from_turns([deck.card(1)], [Turn(Placement((0, 0)))] * 2)
    with pytest.raises(InvalidInputError, match="no worker stands on zone"):
        Board.from_turns([deck.card(1)], [Turn(Placement((0, 0)), MoveWorker((0, 0), (0, 1)))])
    with pytest.raises(InvalidInputError, match="'zoe' does not play"):
        Game.from_turns(["ana"], CARDS, {"zoe": []})
    with pytest.raises(InvalidInputError, match="'zoe' does not play"):
        Game.from_turns(["ana"], CARDS, {"ana": []}, retired=["zoe"])
