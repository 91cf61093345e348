"""The computer players: legal, and pure functions of the public view of the position."""

from __future__ import annotations

import pytest

from winter import Game, InvalidInputError, deal
from winter.bot import BOT_LEVELS, View, bot_turn, choose


def same_start_other_future(seed: int, turns: int) -> tuple[Game, Game]:
    """Two dealt games with the same first ``turns`` tiles and different tiles after."""
    order = list(deal(seed))
    head, tail = order[:turns], order[turns:]
    other = head + tail[:1] + list(reversed(tail[1:]))
    assert other != order
    games = Game(["ana", "ben"], order=order), Game(["ana", "ben"], order=other)
    for game in games:
        while len(game.turns) < turns:
            game.play(bot_turn("normal", game))
    return games


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_same_public_view_same_move_whatever_the_hidden_order(level: str) -> None:
    first, second = same_start_other_future(seed=11, turns=30)
    assert first.board == second.board and first.drawn == second.drawn
    assert bot_turn(level, first) == bot_turn(level, second)


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_each_level_plays_legal_turns_to_the_end(level: str) -> None:
    game = Game(["ana", "ben"], order=deal(4))
    while game.drawn is not None and len(game.turns) < 12:
        turn = bot_turn(level, game)
        assert game.is_legal(turn)
        game.play(turn)
    assert game.scores == tuple(game.score(seat) for seat in range(2))


def test_the_view_hides_the_order() -> None:
    game = Game(["ana", "ben"], order=deal(9))
    view = View.from_game(game)
    assert view.tile == game.drawn and view.game.drawn is None
    assert view.game.bag() == game.bag()


def test_unknown_level_and_finished_game_are_refused() -> None:
    game = Game(["ana", "ben"], order=deal(9))
    with pytest.raises(InvalidInputError, match="unknown level 'grandmaster'"):
        choose("grandmaster", View.from_game(game))
    with pytest.raises(InvalidInputError, match="no tile is drawn"):
        View.from_game(Game(["ana", "ben"]))
