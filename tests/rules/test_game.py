"""Whole games: rounds, whose turn it is, refusals that change nothing, and the outcome."""

from __future__ import annotations

import random

import pytest

from rules import (
    Game,
    IllegalMoveError,
    InvalidInputError,
    Outcome,
    Placement,
    PlaceWorker,
    Turn,
    game_to_record,
    load_deck,
    rank,
)
from tests.rules.helpers import random_game, score

CARDS = list(range(1, 17))


def first_turn(game: Game, player: str) -> Turn:
    """The player's first legal turn of the round in play."""
    card = game.current_card
    assert card is not None
    return next(iter(game.boards[player].iter_turns(card, game.variants)))


# -- flow --------------------------------------------------------------------------------


def test_solo_game_advances_a_round_per_turn() -> None:
    game = Game(["solo"], CARDS)
    assert (game.round, game.waiting_for(), game.revealed) == (1, ["solo"], (1,))
    game.play("solo", Turn(Placement((0, 0))))
    assert (game.round, game.waiting_for(), game.revealed) == (2, ["solo"], (1, 2))
    assert game.current_card == load_deck().card(2)


def test_round_advances_only_when_every_player_has_played() -> None:
    game = Game(["ana", "ben", "cy"], CARDS)
    game.play("ben", Turn(Placement((0, 0))))
    assert game.round == 1
    assert game.waiting_for() == ["ana", "cy"]
    game.play("cy", Turn(Placement((0, 0), 90)))
    assert game.waiting_for() == ["ana"]
    assert game.revealed == (1,)  # the next card stays hidden
    game.play("ana", Turn(Placement((0, 0), 180)))
    assert game.round == 2
    assert game.waiting_for() == ["ana", "ben", "cy"]
    assert list(game.revealed) == [1, 2]


def test_player_cannot_play_twice_in_a_round() -> None:
    game = Game(["ana", "ben"], CARDS)
    game.play("ana", Turn(Placement((0, 0))))
    with pytest.raises(IllegalMoveError, match="ana has already played round 1"):
        game.play("ana", Turn(Placement((0, 0))))


def test_stranger_cannot_play() -> None:
    with pytest.raises(IllegalMoveError, match="'eve' does not play in this game"):
        Game(["ana"], CARDS).play("eve", Turn(Placement((0, 0))))


def test_game_ends_after_sixteen_rounds() -> None:
    game = random_game(seed=3, players=3)
    assert game.is_over
    assert (game.round, game.waiting_for(), game.current_card) == (17, [], None)
    assert len(game.revealed) == 16
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play("p0", Turn(Placement((0, 0))))


def test_illegal_turn_leaves_the_game_exactly_as_it_was() -> None:
    game = random_game(seed=5, players=3, rounds=8)
    game.play("p1", first_turn(game, "p1"))
    before = game_to_record(game)
    boards = dict(game.boards)
    bad = [
        Turn(Placement((9, 9))),  # touches no card
        Turn(Placement((0, 0))),  # on another card
        # A legal placement, then a worker on a zone of an earlier card.
        Turn(first_turn(game, "p0").placement, PlaceWorker((0, 0))),
    ]
    for turn in bad:
        with pytest.raises(IllegalMoveError):
            game.play("p0", turn)
    assert game_to_record(game) == before
    assert game.boards == boards
    assert all(game.boards[p] is boards[p] for p in boards)
    assert game.waiting_for() == ["p0", "p2"]


def test_check_does_not_play_the_turn() -> None:
    game = Game(["solo"], CARDS)
    board = game.check("solo", Turn(Placement((0, 0))))
    assert len(board.cards) == 1
    assert game.round == 1 and game.boards["solo"].cards == ()


def test_new_game_deals_sixteen_distinct_cards_from_the_seed() -> None:
    game = Game.new(["solo"], random.Random(7))
    assert len(game.cards) == 16 and len(set(game.cards)) == 16
    assert game.cards == Game.new(["x"], random.Random(7)).cards


@pytest.mark.parametrize(
    ("players", "cards", "message"),
    [
        ([], CARDS, "at least one player"),
        (["ana", "ana"], CARDS, "same name"),
        (["ana"], [1, 1], "appears twice"),
        (["ana"], [25], "no card number 25"),
        (["ana"], list(range(1, 18)), "at most 16 cards"),
    ],
)
def test_malformed_games_are_refused(players: list[str], cards: list[int], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        Game(players, cards)


# -- outcome -----------------------------------------------------------------------------


def test_higher_total_wins_whatever_the_workers() -> None:
    scores = {"ana": score("G@ G G"), "ben": score("G@ G . G@ G")}
    # ana: one farmer, 3. ben: two farmers, 2 + 2 = 4.
    assert rank(scores) == (("ben",), ("ana",))


def test_tie_goes_to_the_better_best_worker() -> None:
    scores = {
        "ana": score("G@ G . G@ G"),  # 4 as 2 + 2
        "ben": score("G@ G G . G@"),  # 4 as 3 + 1
    }
    assert rank(scores) == (("ben",), ("ana",))


def test_tie_goes_on_to_the_second_best_worker() -> None:
    scores = {
        "ana": score("G@ G G . G@ G . G@"),  # 6 as 3 + 2 + 1
        "ben": score("G@ G G . G@ . G@ G"),  # 6 as 3 + 1 + 2: the same, so shared
        "cy": score("G@ G G . G@ G G"),  # 6 as 3 + 3: level on the best, ahead on the next
    }
    assert rank(scores) == (("cy",), ("ana", "ben"))


def test_missing_worker_counts_zero_in_the_tie_break() -> None:
    # Both 3; ben's second worker scores 0 (a watchman seeing no forest).
    scores = {"ana": score("G@ G G"), "ben": score("G@ G G . T@")}
    assert scores["ben"].tiebreak == (3, 0)
    assert rank(scores) == (("ana", "ben"),)


def test_outcome_gives_places_and_shared_wins() -> None:
    game = Game(["ana", "ben", "cy"], CARDS)
    for player in ["ana", "ben", "cy"]:
        game.play(player, Turn(Placement((0, 0)), PlaceWorker((0, 0))))
    outcome = game.outcome()
    assert outcome.winners == ("ana", "ben", "cy")
    assert [(s.player, s.place, s.shared) for s in outcome.standings] == [
        ("ana", 1, True),
        ("ben", 1, True),
        ("cy", 1, True),
    ]


def test_standings_skip_places_after_a_shared_place() -> None:
    scores = {"ana": score("G@ G"), "ben": score("G@ G"), "cy": score("G@")}
    outcome = Outcome(scores, rank(scores))
    assert [(s.player, s.place, s.shared) for s in outcome.standings] == [
        ("ana", 1, True),
        ("ben", 1, True),
        ("cy", 3, False),
    ]
    assert outcome.winners == ("ana", "ben")
