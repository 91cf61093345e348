"""The reference player: one-ply greedy on the score preview, with a fixed tie-break."""

from __future__ import annotations

from rules import MoveWorker, Placement, PlaceWorker, Turn, Variants, reference_turn
from tests.rules.helpers import card, play_cards, random_game

# G G G G*     Two farmers share the field (6 zones); the water beside it borders the
# G G W  W     hut at (0,3).
BOARD = play_cards(
    [
        (card(1, "G G G G"), Turn(Placement((0, 0)), PlaceWorker((0, 0)))),
        (card(2, "G G* W W"), Turn(Placement((0, 1)), PlaceWorker((0, 2)))),
    ]
)
# Four towers, no forest anywhere: no worker gains anything on this card.
TOWERS = card(3, "T T T T")


def test_reference_player_moves_a_worker_out_of_a_shared_region() -> None:
    turn = reference_turn(BOARD, TOWERS)
    assert isinstance(turn.worker, MoveWorker)
    assert turn.worker.target in [(1, 2), (1, 3)]
    # The field still has its other farmer: 6, plus the fisherman's hut: 1.
    assert BOARD.play(TOWERS, turn).landscape.score().total == 7


def test_reference_player_takes_the_first_of_equal_turns() -> None:
    turn = reference_turn(BOARD, TOWERS)
    best = [
        t for t in BOARD.iter_turns(TOWERS) if BOARD.play(TOWERS, t).landscape.score().total == 7
    ]
    assert turn == best[0]


def test_reference_player_is_deterministic() -> None:
    game = random_game(seed=31, players=1, variants=Variants(ferryman=True), rounds=9)
    board, card_now = game.boards["p0"], game.current_card
    assert card_now is not None
    turns = {reference_turn(board, card_now, game.variants) for _ in range(3)}
    assert len(turns) == 1
