"""The rulebook's examples, each as a ``winter-game/1`` record with its score.

Every record starts from the start tile (WinD at [0, 0]: city to the north, the road
running west to east, fields north and south of it). Players alternate ana, ben, ana, …
"""

from __future__ import annotations

from typing import Any

from winter import FeatureKind, Scoring, game_from_record
from winter.cli import replay_json


def turn(tile: str, row: int, col: int, rotation: int, follower: str | None = None) -> Any:
    return {"tile": tile, "at": [row, col], "rotation": rotation, "follower": follower}


def record(*turns: Any, farmers: bool = True) -> dict[str, Any]:
    return {"format": "winter-game/1", "players": ["ana", "ben"], "farmers": farmers,
            "turns": list(turns)}  # fmt: skip


def points(data: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Each player's (during play, end of game) points, as ``python -m winter replay``."""
    replayed = replay_json(game_from_record(data))["players"]
    return {name: (p["during"], p["end"]) for name, p in replayed.items()}


def test_closed_road_of_four_tiles_scores_4() -> None:
    closed = record(
        turn("WinU", 0, 1, 90, "E"),  # ana's robber on the road east of the start
        turn("WinW", 0, 2, 0),  # a junction ends it in the east
        turn("WinW", 0, -1, 0),  # another in the west: four tiles, closed
    )
    game = game_from_record(closed)
    assert game.scorings[-1] == (Scoring(FeatureKind.ROAD, (0,), 4, 4, 0, True, (0, 1), "E"),)
    assert points(closed) == {"ana": (4, 0), "ben": (0, 0)}
    assert game.supply(0) == 7


def test_closed_city_with_a_shield_scores_8() -> None:
    closed = record(
        turn("WinM", -1, 0, 180, "S"),  # ana's knight; the shield's corner opens east
        turn("WinE", -1, 1, 270),  # ben closes it: 3 tiles and 1 shield
    )
    game = game_from_record(closed)
    assert game.scorings[-1] == (Scoring(FeatureKind.CITY, (0,), 8, 3, 1, True, (-1, 0), "E"),)
    assert points(closed) == {"ana": (8, 0), "ben": (0, 0)}


def test_closed_city_of_four_tiles_without_shield_scores_8() -> None:
    closed = record(
        turn("WinN", -1, 0, 180, "S"),
        turn("WinN", -1, 1, 270),
        turn("WinK", 0, 1, 0),  # its city closes the ring; its road meets the start's
    )
    assert points(closed) == {"ana": (8, 0), "ben": (0, 0)}


def test_two_parts_of_a_city_on_one_tile_count_the_tile_once() -> None:
    # WinI's two city segments both belong to the ring below the start: 4 tiles, not 5.
    ring = record(
        turn("WinI", 1, 0, 0, "E"),
        turn("WinN", 1, 1, 270),
        turn("WinN", 2, 1, 0),
        turn("WinN", 2, 0, 90),
    )
    game = game_from_record(ring)
    assert game.scorings[-1] == (Scoring(FeatureKind.CITY, (0,), 8, 4, 0, True, (1, 0), "E"),)
    city = game.feature_at((1, 0), "S")
    assert city.complete and len(city.tiles) == 4 and len(city.segments) == 5
    assert points(ring) == {"ana": (8, 0), "ben": (0, 0)}


def test_cloister_surrounded_by_eight_tiles_scores_9() -> None:
    surrounded = record(
        turn("WinB", 1, 0, 0, "cloister"),  # ana's monk below the start
        turn("WinV", 0, 1, 0),
        turn("WinV", 0, -1, 180),
        turn("WinA", 1, 1, 180),
        turn("WinB", 1, -1, 0),
        turn("WinB", 2, -1, 0),
        turn("WinB", 2, 0, 0),
        turn("WinV", 2, 1, 270),  # the eighth neighbour
    )
    game = game_from_record(surrounded)
    assert game.scorings[-1] == (
        Scoring(FeatureKind.CLOISTER, (0,), 9, 9, 0, True, (1, 0), "cloister"),
    )
    assert points(surrounded) == {"ana": (9, 0), "ben": (0, 0)}


def test_knights_tied_in_a_merged_city_both_score_in_full() -> None:
    merged = record(
        turn("WinM", -1, 0, 180, "S"),  # ana's knight north of the start
        turn("WinK", 0, 1, 0, "N"),  # ben's knight in a separate city to the east
        turn("WinN", -1, 1, 270),  # joins and closes them: 4 tiles, 1 shield
    )
    game = game_from_record(merged)
    (scoring,) = game.scorings[-1]
    assert (scoring.players, scoring.points, scoring.tiles, scoring.shields) == ((0, 1), 10, 4, 1)
    assert points(merged) == {"ana": (10, 0), "ben": (10, 0)}
    assert (game.supply(0), game.supply(1)) == (7, 7)


def test_follower_placed_and_returned_in_the_same_turn() -> None:
    road = record(
        turn("WinW", 0, 1, 0),
        turn("WinW", 0, -1, 0, "E"),  # ben closes the road and puts a robber on it
    )
    city = record(turn("WinE", -1, 0, 180, "S"))  # ana closes the start's city
    assert points(road) == {"ana": (0, 0), "ben": (3, 0)}
    assert points(city) == {"ana": (4, 0), "ben": (0, 0)}
    assert game_from_record(road).supply(1) == 7
    assert game_from_record(city).supply(0) == 7


def test_field_bordering_one_complete_city_gives_its_farmer_3() -> None:
    data = record(
        turn("WinM", -1, 0, 180, "S"),
        turn("WinE", -1, 1, 270, "n1"),  # ben closes ana's city with a farmer beside it
    )
    assert points(data) == {"ana": (8, 0), "ben": (0, 3)}
    (field,) = game_from_record(data).final_scorings()
    assert (field.kind, field.players, field.points, field.cities) == (
        FeatureKind.FIELD, (1,), 3, 1,
    )  # fmt: skip


def test_field_bordering_several_cities_scores_each_complete_one_for_tied_farmers() -> None:
    data = record(
        turn("WinU", 0, 1, 90, "n1"),  # ana's farmer north of the road
        turn("WinE", -1, 0, 180, "n1"),  # closes city A; ben's farmer on a field apart
        turn("WinE", -1, 1, 0),  # joins both fields: one farmer each
        turn("WinE", -2, 1, 180, "n1"),  # closes city B; ben's farmer beyond it
        turn("WinE", -1, 2, 0),  # city C borders the big field but stays open
    )
    # The big field: cities A and B complete, C not: 6 each. Ben's other field borders
    # city B too, which scores for it again: 3 more.
    assert points(data) == {"ana": (0, 6), "ben": (0, 9)}
    field = game_from_record(data).feature_at((0, 1), "n1")
    assert (field.cities, field.players, field.points) == (2, (0, 1), 6)


def test_majority_of_farmers_takes_the_field_alone() -> None:
    data = record(
        turn("WinU", 0, -1, 90, "n1"),  # ana's farmer north of the road
        turn("WinE", -1, 0, 180, "n1"),  # closes city A; ben's farmer on a field apart
        turn("WinU", 0, 1, 90, "s1"),  # ana's farmer south of the road
        turn("WinTierK", 0, 2, 90),  # the road ends at a house: north and south join
        turn("WinE", -1, 1, 0),  # ana joins ben's field: ana 2 farmers, ben 1
    )
    assert points(data) == {"ana": (0, 3), "ben": (0, 0)}


def test_unfinished_features_score_at_the_end() -> None:
    city = record(turn("WinM", -1, 0, 180, "S"))  # 2 tiles and 1 shield: 3
    road = record(turn("WinU", 0, 1, 90, "E"), turn("WinU", 0, 2, 90))  # 3 tiles: 3
    cloister = record(
        turn("WinB", 1, 0, 0, "cloister"),
        turn("WinV", 0, 1, 0),
        turn("WinV", 0, -1, 180),
        turn("WinA", 1, 1, 180),
    )  # its own tile and 4 neighbours: 5
    assert points(city) == {"ana": (0, 3), "ben": (0, 0)}
    assert points(road) == {"ana": (0, 3), "ben": (0, 0)}
    assert points(cloister) == {"ana": (0, 5), "ben": (0, 0)}


def test_without_farmers_fields_score_nothing() -> None:
    data = record(turn("WinM", -1, 0, 180, "S"), turn("WinE", -1, 1, 270), farmers=False)
    assert points(data) == {"ana": (8, 0), "ben": (0, 0)}
    game = game_from_record(data)
    assert all(not field.points for field in game.iter_features() if field.kind.value == "field")
