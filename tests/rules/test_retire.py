"""Leaving a game: resignation and time-outs take a player out and rank them last."""

from __future__ import annotations

import pytest

from rules import ROUNDS, Game, IllegalMoveError, Placement, Turn, reference_turn

CARDS = list(range(1, 17))


def play_round(game: Game, *players: str) -> None:
    for player in players:
        card = game.current_card
        assert card is not None
        game.play(player, reference_turn(game.boards[player], card, game.variants))


def test_retiring_player_is_no_longer_waited_for() -> None:
    game = Game(["ana", "ben", "cy"], CARDS)
    play_round(game, "ana", "cy")
    assert game.waiting_for() == ["ben"]
    game.retire("ben")
    # Ben was the last one missing: the round completes and the next card is revealed.
    assert game.round == 2
    assert game.waiting_for() == ["ana", "cy"]
    assert game.active_players == ["ana", "cy"]


def test_retired_player_cannot_play_or_retire_again() -> None:
    game = Game(["ana", "ben"], CARDS)
    game.retire("ben")
    with pytest.raises(IllegalMoveError, match="ben has left the game"):
        game.play("ben", Turn(Placement((0, 0))))
    with pytest.raises(IllegalMoveError, match="already left"):
        game.retire("ben")
    with pytest.raises(IllegalMoveError, match="does not play"):
        game.retire("zoe")


def test_last_player_finishes_alone_and_wins() -> None:
    game = Game(["ana", "ben"], CARDS)
    play_round(game, "ana", "ben")
    game.retire("ana")
    for _ in range(ROUNDS - 1):
        assert game.waiting_for() == ["ben"]
        play_round(game, "ben")
    assert game.is_over
    standings = game.outcome().standings
    assert [(s.player, s.place) for s in standings] == [("ben", 1), ("ana", 2)]
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.retire("ben")


def test_retired_players_rank_last_by_rounds_played_whatever_their_score() -> None:
    game = Game(["ana", "ben", "cy", "dan"], CARDS)
    play_round(game, "ana", "ben", "cy", "dan")
    play_round(game, "ana", "ben", "cy", "dan")
    game.retire("cy")  # two rounds played
    play_round(game, "ana", "ben", "dan")
    game.retire("ben")  # three rounds played
    game.retire("dan")  # three rounds played
    assert not game.is_over
    ranking = game.outcome().ranking
    assert ranking == (("ana",), ("ben", "dan"), ("cy",))
    places = {s.player: (s.place, s.shared) for s in game.outcome().standings}
    assert places == {"ana": (1, False), "ben": (2, True), "dan": (2, True), "cy": (4, False)}
    # Their landscapes still score, for the record.
    assert game.outcome().scores["cy"] == game.boards["cy"].landscape.score()


def test_game_is_over_when_everyone_has_left() -> None:
    game = Game(["solo"], CARDS)
    play_round(game, "solo")
    game.retire("solo")
    assert game.is_over
    assert game.waiting_for() == []
    assert game.outcome().standings[0].place == 1
    with pytest.raises(IllegalMoveError, match="already left"):
        game.retire("solo")


def test_rounds_played_counts_each_players_turns() -> None:
    game = Game(["ana", "ben"], CARDS)
    play_round(game, "ana", "ben")
    play_round(game, "ana")
    assert (game.rounds_played("ana"), game.rounds_played("ben")) == (2, 1)
