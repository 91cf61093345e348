"""Whole games: the deal, automatic setting aside, refusals that change nothing, features."""

from __future__ import annotations

import pytest

from winter import (
    FeatureKind,
    Game,
    IllegalMoveError,
    InvalidInputError,
    Options,
    Placement,
    SetAside,
    bag_counts,
    deal,
    game_from_record,
    game_to_record,
    orientation,
)


def test_deal_is_a_seeded_order_of_the_83_tiles() -> None:
    order = deal(7)
    assert order == deal(7) and order != deal(8)
    assert sorted(order) == sorted(n for n, c in bag_counts().items() for _ in range(c))
    assert deal(7)[:5] == ("WinT", "WinH", "WinL", "WinL", "WinU")


def test_a_dealt_game_draws_in_order() -> None:
    game = Game(["ana", "ben"], order=deal(3))
    assert game.drawn == deal(3)[0]
    move = game.legal_moves(game.drawn)[0]
    game.play(Placement(deal(3)[0], move.at, move.rotation))
    assert game.drawn == deal(3)[1] and game.to_move == 1


def test_a_tile_that_fits_nowhere_is_set_aside_and_the_same_player_draws() -> None:
    # Rows of cities all round: make a board where WinC cannot go, then deal it next.
    game = Game(["ana", "ben"])
    game.play(Placement("WinE", (-1, 0), 180, "S"))  # closes the start's city: none open
    assert not game.can_place("WinC")
    order = [*(t.tile for t in game.turns)]
    rest = bag_counts()
    for name in order:
        rest[name] -= 1
    tail = ["WinC", "WinU"] + [
        n for n, c in rest.items() for _ in range(c - (n in ("WinC", "WinU")))
    ]
    dealt = Game(["ana", "ben"], order=order + tail)
    # A knight closes the city: the turn scores it, though the next tile is set aside.
    scored = dealt.play(Placement("WinE", (-1, 0), 180, "S"))
    assert [(s.kind, s.players, s.points) for s in scored] == [(FeatureKind.CITY, (0,), 4)]
    assert dealt.turns[-1] == SetAside("WinC")
    assert dealt.drawn == "WinU" and dealt.to_move == 1
    record = game_to_record(dealt)
    assert record["turns"][-1] == {"tile": "WinC", "set_aside": True}
    assert game_from_record(record).turns == dealt.turns


def test_a_refused_turn_names_it_and_changes_nothing() -> None:
    game = Game(["ana", "ben"], order=deal(1))
    tile = game.drawn
    assert tile is not None
    before = game_to_record(game)
    with pytest.raises(IllegalMoveError, match=r"^turn 1 \(ana\): .* share no side"):
        game.play(Placement(tile, (9, 9), 0))
    with pytest.raises(IllegalMoveError, match=r"^turn 1 \(ana\): the tile drawn is"):
        game.play(Placement("WinC" if tile != "WinC" else "WinX", (-1, 0), 0))
    with pytest.raises(InvalidInputError, match="rotation 45"):
        game.play(Placement(tile, (1, 0), 45))
    assert game_to_record(game) == before
    assert game.drawn == tile and game.scores == (0, 0) and game.supply(0) == 7


def test_without_farmers_no_follower_goes_on_a_field() -> None:
    game = Game(["ana", "ben"], Options(farmers=False))
    (move,) = game.legal_moves("WinB")
    assert move.followers == ("cloister",)
    with pytest.raises(IllegalMoveError, match="without farmers"):
        game.play(Placement("WinB", (1, 0), 0, "n1"))


def test_a_player_without_followers_is_offered_none() -> None:
    game = Game(["ana", "ben"], order=deal(2))
    while game.supply(game.to_move) and game.drawn is not None:
        game.play(list(game.iter_placements(game.drawn))[-1])  # a follower whenever allowed
    assert game.drawn is not None
    assert all(move.followers == () for move in game.legal_moves(game.drawn))
    move = game.legal_moves(game.drawn)[0]
    name = orientation(game.drawn, move.rotation).segment_name[0]
    with pytest.raises(IllegalMoveError, match="none is left in supply"):
        game.play(Placement(game.drawn, move.at, move.rotation, name))


def test_feature_shows_tiles_followers_and_points_at_stake() -> None:
    game = Game(["ana", "ben"])
    game.play(Placement("WinM", (-1, 0), 180, "S"))
    city = game.feature_at((0, 0), "N")
    assert city.kind is FeatureKind.CITY and not city.complete
    assert (city.tiles, city.shields, city.open_sides) == (((-1, 0), (0, 0)), 1, 1)
    assert (city.points, city.points_if_completed, city.players) == (3, 6, (0,))
    assert [(f.player, f.at, f.segment) for f in city.followers] == [(0, (-1, 0), "E")]


def test_dead_places_are_those_no_tile_left_can_fill() -> None:
    game = Game(["ana", "ben"])
    assert list(game.iter_dead_places()) == []
    assert game.tiles_left == 83 and game.bag()["WinD"] == 3
    game = Game(["ana", "ben"], order=deal(5))
    while game.tiles_left > 10:
        assert game.drawn is not None
        game.play(next(game.legal_moves(game.drawn)[-1].iter_placements(game.drawn)))
    dead = list(game.iter_dead_places())
    assert dead and set(dead) < set(game.open_places())
    for name in game.bag():
        assert not {move.at for move in game.legal_moves(name)} & set(dead)


def test_every_feature_reports_its_kind_tiles_and_segments() -> None:
    game = Game(["ana", "ben"])
    kinds = sorted(feature.kind.value for feature in game.iter_features())
    assert kinds == ["city", "field", "field", "road"]  # the start tile alone
    road = game.feature_at((0, 0), "W")
    assert road.segments == (((0, 0), "E"),) and road.open_sides == 2
    with pytest.raises(InvalidInputError):
        game.feature_at((0, 0), "cloister")
