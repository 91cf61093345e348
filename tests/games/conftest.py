from __future__ import annotations

from collections.abc import Callable

import pytest

import rules
from accounts.models import User
from games import selectors, services
from games.models import Game


@pytest.fixture
def solo_game(user: User) -> Game:
    """A new solo game of ``user`` with both variants, dealt from a fixed seed."""
    return services.game_create_solo(user=user, diagonal=True, ferryman=True, seed=7)


def reference_turn_for(game: Game) -> tuple[int, rules.Turn]:
    """The round in play and the reference player's turn in it."""
    state = selectors.rules_game(game)
    player = state.waiting_for()[0]
    card = state.current_card
    assert card is not None
    return state.round, rules.reference_turn(state.boards[player], card, state.variants)


@pytest.fixture
def play_rounds() -> Callable[[Game, int], Game]:
    """Play ``n`` rounds of a solo game with the reference player, through the service."""

    def play(game: Game, n: int) -> Game:
        seat = game.seats.get()
        for _ in range(n):
            round_number, turn = reference_turn_for(game)
            game = services.move_submit(
                game=game, user=seat.user, round_number=round_number, turn=turn
            )
        return game

    return play


def reference_turn_of(game: Game, user: User) -> tuple[int, rules.Turn]:
    """The round in play and the reference player's turn for ``user`` in it."""
    state = selectors.rules_game(game)
    card = state.current_card
    assert card is not None
    board = state.boards[user.username]
    return state.round, rules.reference_turn(board, card, state.variants)


def play_turn(game: Game, user: User) -> Game:
    """Commit ``user``'s reference turn of the round in play, through the service."""
    game.refresh_from_db()
    round_number, turn = reference_turn_of(game, user)
    return services.move_submit(game=game, user=user, round_number=round_number, turn=turn)


def started_game(players: list[User], **options: object) -> Game:
    """A multiplayer game created by the first player, joined by the others, started."""
    creator, *others = players
    defaults: dict[str, object] = {"seats_max": len(players), "pace": Game.Pace.LIVE}
    defaults.update(options)
    game = services.game_create_multi(user=creator, **defaults)  # type: ignore[arg-type]
    for player in others:
        services.game_join(game=game, user=player)
    game.refresh_from_db()
    if game.is_open:
        services.game_start(game=game, user=creator)
        game.refresh_from_db()
    return game
