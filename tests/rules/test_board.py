"""Placing cards and acting with workers on one player's board."""

from __future__ import annotations

import pytest

from rules import (
    ROTATIONS,
    Board,
    IllegalMoveError,
    MoveWorker,
    PlacedCard,
    Placement,
    PlaceWorker,
    Turn,
    Variants,
)
from tests.rules.helpers import card, play_cards

PLAIN = card(1, "G W F T")
FIELD = card(2, "G G W W")
OTHER = card(3, "F F W W")


def board_of(*positions: tuple[int, int]) -> Board:
    """A board with a card at each card position, in order."""
    return play_cards([(PLAIN, Turn(Placement(at))) for at in positions])


# -- the first card ----------------------------------------------------------------------


def test_first_card_goes_to_the_origin_in_any_rotation() -> None:
    assert Board().legal_placements() == [Placement((0, 0), r) for r in ROTATIONS]


def test_first_card_elsewhere_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match=r"first card .* \[0, 0\]"):
        Board().place(PLAIN, Placement((1, 0)))


# -- edges, corners, overlap, bounds -----------------------------------------------------


def test_later_card_must_share_a_full_edge() -> None:
    board = board_of((0, 0))
    assert board.legal_positions() == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    with pytest.raises(IllegalMoveError, match="share no full edge"):
        board.place(PLAIN, Placement((1, 1)))


def test_diagonal_variant_allows_touching_only_at_a_corner() -> None:
    board = board_of((0, 0))
    diagonal = Variants(diagonal=True)
    assert board.legal_positions(diagonal) == [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ]
    after = board.place(PLAIN, Placement((1, 1)), diagonal)
    assert after.card_positions() == {(0, 0), (1, 1)}
    with pytest.raises(IllegalMoveError, match="edge or corner"):
        board.place(PLAIN, Placement((2, 2)), diagonal)


def test_card_never_goes_on_another() -> None:
    with pytest.raises(IllegalMoveError, match=r"already lies at \[0, 1\]"):
        board_of((0, 0), (0, 1)).place(PLAIN, Placement((0, 1)))


@pytest.mark.parametrize("variants", [Variants(), Variants(diagonal=True)])
def test_landscape_never_grows_beyond_four_cards_wide(variants: Variants) -> None:
    board = board_of((0, 0), (0, 1), (0, 2), (0, 3))
    for at in [(0, 4), (0, -1)]:
        with pytest.raises(IllegalMoveError, match="more than 4 cards wide or tall"):
            board.place(PLAIN, Placement(at), variants)
    assert all(0 <= c <= 3 for _, c in board.legal_positions(variants))


def test_landscape_never_grows_beyond_four_cards_tall() -> None:
    board = board_of((0, 0), (-1, 0), (-2, 0), (-3, 0))
    with pytest.raises(IllegalMoveError, match="more than 4 cards wide or tall"):
        board.place(PLAIN, Placement((1, 0)))
    assert (-4, 0) not in board.legal_positions()
    assert (0, 1) in board.legal_positions()


def test_rotation_must_be_a_quarter_turn() -> None:
    with pytest.raises(IllegalMoveError, match="0, 90, 180 or 270"):
        Board().place(PLAIN, Placement((0, 0), 45))


# -- rotation and zone coordinates -------------------------------------------------------


@pytest.mark.parametrize(
    ("rotation", "expected"),
    [
        (0, {(0, 0): "G", (0, 1): "W", (1, 1): "F", (1, 0): "T"}),
        # Turning clockwise moves the top-left zone to the top-right.
        (90, {(0, 0): "T", (0, 1): "G", (1, 1): "W", (1, 0): "F"}),
        (180, {(0, 0): "F", (0, 1): "T", (1, 1): "G", (1, 0): "W"}),
        (270, {(0, 0): "W", (0, 1): "F", (1, 1): "T", (1, 0): "G"}),
    ],
)
def test_rotation_turns_the_card_clockwise(
    rotation: int, expected: dict[tuple[int, int], str]
) -> None:
    landscape = Board().place(PLAIN, Placement((0, 0), rotation)).landscape
    assert {point: zone.token for point, zone in landscape.iter_zones()} == expected


def test_card_at_row_col_covers_zones_2r_2c_to_2r_plus_1_2c_plus_1() -> None:
    board = board_of((0, 0), (-1, 0))
    landscape = board.landscape
    assert {point for point, _ in landscape.iter_zones()} == {
        (-2, 0),
        (-2, 1),
        (-1, 0),
        (-1, 1),
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
    }
    tokens = {point: zone.token for point, zone in landscape.iter_zones()}
    assert [tokens[p] for p in [(-2, 0), (-2, 1), (-1, 1), (-1, 0)]] == ["G", "W", "F", "T"]


def test_board_built_from_its_cards_has_the_same_landscape() -> None:
    board = board_of((0, 0), (0, 1), (1, 1))
    rebuilt = Board(
        tuple(PlacedCard(p.card, p.card_at, p.rotation) for p in board.cards), board.workers
    )
    assert rebuilt.landscape == board.landscape


# -- placing workers ---------------------------------------------------------------------


def test_worker_goes_only_on_this_rounds_card() -> None:
    board = play_cards([(PLAIN, Turn(Placement((0, 0)))), (FIELD, Turn(Placement((0, 1))))])
    assert board.act(PlaceWorker((0, 2))).workers == ((0, 2),)
    with pytest.raises(IllegalMoveError, match=r"card placed this round, not on zone \[0, 0\]"):
        board.act(PlaceWorker((0, 0)))


def test_at_most_seven_workers() -> None:
    positions = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2)]
    board = play_cards(
        [(PLAIN, Turn(Placement(at), PlaceWorker((2 * at[0], 2 * at[1])))) for at in positions]
    )
    assert (board.supply, len(board.workers)) == (0, 7)
    last = board.place(PLAIN, Placement((1, 3)))
    assert not any(isinstance(a, PlaceWorker) for a in last.legal_worker_actions())
    with pytest.raises(IllegalMoveError, match="all 7 workers are already placed"):
        last.act(PlaceWorker((2, 6)))


def test_worker_actions_offer_nothing_placing_and_moving() -> None:
    board = play_cards([(FIELD, Turn(Placement((0, 0)), PlaceWorker((0, 0))))])
    after = board.place(OTHER, Placement((0, 1)))
    actions = after.legal_worker_actions()
    assert actions[0] is None
    assert actions[1:5] == [PlaceWorker(p) for p in [(0, 2), (0, 3), (1, 3), (1, 2)]]
    # The field (0,0)-(0,1) borders the forest to the right and the water below.
    targets = [(0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)]
    assert actions[5:] == [MoveWorker((0, 0), target) for target in targets]


# -- moving workers ----------------------------------------------------------------------


def test_worker_moves_to_a_neighbouring_region() -> None:
    board = play_cards([(FIELD, Turn(Placement((0, 0)), PlaceWorker((0, 0))))])
    moved = board.place(OTHER, Placement((0, 1))).act(MoveWorker((0, 0), (1, 1)))
    assert moved.workers == ((1, 1),)
    assert moved.landscape.score().workers[0].profession.value == "fisherman"


def test_worker_cannot_move_within_its_own_region() -> None:
    board = play_cards([(FIELD, Turn(Placement((0, 0)), PlaceWorker((0, 0))))])
    with pytest.raises(IllegalMoveError, match="own region"):
        board.act(MoveWorker((0, 0), (0, 1)))


def test_worker_cannot_move_to_a_region_that_is_not_a_neighbour() -> None:
    board = play_cards(
        [
            (FIELD, Turn(Placement((0, 0)), PlaceWorker((0, 0)))),
            (OTHER, Turn(Placement((1, 0)), None)),
        ]
    )
    # The forest (2,0)-(2,1) lies beyond the water, which is the field's only neighbour.
    with pytest.raises(IllegalMoveError, match="not in a region that shares an edge"):
        board.act(MoveWorker((0, 0), (2, 0)))


def test_ferryman_lets_the_same_move_through() -> None:
    board = play_cards(
        [
            (FIELD, Turn(Placement((0, 0)), PlaceWorker((1, 0)))),
            (OTHER, Turn(Placement((1, 0)), None)),
            (card(4, "G W T F"), Turn(Placement((0, 1)), PlaceWorker((0, 2)))),
        ],
        Variants(ferryman=True),
    )
    # G G G W    The farmer on (0,2) borders the water (1,0)-(1,1), where a
    # W W F T    fisherman stands; the forest (2,0)-(2,1) borders that water but not
    # F F . .    the field. The water (3,0)-(3,1) is two regions away.
    # W W . .
    with pytest.raises(IllegalMoveError, match="not in a region that shares an edge"):
        board.act(MoveWorker((0, 2), (2, 0)))
    moved = board.act(MoveWorker((0, 2), (2, 0)), Variants(ferryman=True))
    assert moved.workers == ((1, 0), (2, 0))
    with pytest.raises(IllegalMoveError, match="nor across a neighbouring water region"):
        board.act(MoveWorker((0, 2), (3, 0)), Variants(ferryman=True))


def test_move_needs_a_worker_on_the_source() -> None:
    board = play_cards([(FIELD, Turn(Placement((0, 0)), PlaceWorker((0, 0))))])
    with pytest.raises(IllegalMoveError, match=r"no worker stands on zone \[1, 0\]"):
        board.act(MoveWorker((1, 0), (0, 0)))


def test_move_to_a_zone_without_a_card_is_refused() -> None:
    board = play_cards([(FIELD, Turn(Placement((0, 0)), PlaceWorker((0, 0))))])
    with pytest.raises(IllegalMoveError, match=r"no card lies on zone \[5, 5\]"):
        board.act(MoveWorker((0, 0), (5, 5)))


def test_one_of_two_stacked_workers_moves() -> None:
    board = play_cards(
        [
            (FIELD, Turn(Placement((0, 0)), PlaceWorker((0, 0)))),
            (card(5, "G W W F"), Turn(Placement((0, 1)), PlaceWorker((0, 2)))),
        ]
    )
    board = board.act(MoveWorker((0, 0), (1, 0))).act(MoveWorker((0, 2), (1, 0)))
    assert board.workers == ((1, 0), (1, 0))
    moves = [a for a in board.legal_worker_actions() if isinstance(a, MoveWorker)]
    assert {move.source for move in moves} == {(1, 0)}
    assert len(moves) == len(set(moves))  # the stack gives one set of moves
    moved = board.act(MoveWorker((1, 0), (0, 0)))
    assert moved.workers == ((0, 0), (1, 0))


def test_playing_a_turn_changes_nothing_when_it_is_illegal() -> None:
    board = play_cards([(FIELD, Turn(Placement((0, 0)), PlaceWorker((0, 0))))])
    before = (board.cards, board.workers, board.landscape.to_zone_map())
    with pytest.raises(IllegalMoveError):
        board.play(OTHER, Turn(Placement((0, 1)), MoveWorker((0, 0), (0, 1))))
    assert (board.cards, board.workers, board.landscape.to_zone_map()) == before
