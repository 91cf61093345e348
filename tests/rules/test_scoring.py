"""Scoring, one rule or edge case per test, each position written as a zone map."""

from __future__ import annotations

from rules import Profession, WorkerScore
from tests.rules.helpers import score, zonemap

# -- farmer ------------------------------------------------------------------------------


def test_farmer_scores_each_zone_of_its_field_region() -> None:
    result = score(
        """
        G@ G  W
        G  F  G
        """
    )
    assert result.total == 3
    assert result.workers == (WorkerScore((0, 0), Profession.FARMER, 3, True),)


def test_field_region_runs_across_card_edges_but_not_corners() -> None:
    # (0,0) (0,1) (1,1) (2,1) wind across rows as one region; (3,2) touches (2,1) only
    # at a corner, so it is a region of its own.
    result = score(
        """
        G@ G  W
        W  G  W
        W  G  W
        W  W  G
        """
    )
    assert result.total == 4


def test_empty_zone_is_not_part_of_any_region() -> None:
    assert score("G@ . G").total == 1


# -- fisherman ---------------------------------------------------------------------------


def test_fisherman_scores_each_hut_beside_its_water_region() -> None:
    result = score(
        """
        G* W@ W  G*
        F  W  G  G
        """
    )
    assert result.workers[0].profession is Profession.FISHERMAN
    assert result.total == 2


def test_fisherman_counts_a_hut_touching_several_water_zones_once() -> None:
    # F* at (1,2) touches (0,2) above and (1,1) to its left: still one hut.
    result = score(
        """
        G* W@ W
        F  W  F*
        """
    )
    assert result.total == 2


def test_fisherman_ignores_a_hut_touching_only_at_a_corner() -> None:
    result = score(
        """
        W@ G
        G  G*
        """
    )
    assert result.total == 0


def test_fisherman_ignores_a_hut_beside_another_water_region() -> None:
    result = score(
        """
        W@ G  W  G*
        """
    )
    assert result.total == 0


# -- woodcutter --------------------------------------------------------------------------


def test_woodcutter_scores_each_distinct_neighbouring_region() -> None:
    # Neighbours: tower (0,0), tower (0,1), the field down the right, the water below.
    result = score(
        """
        T  T  G
        F@ F  G
        W  W  G
        """
    )
    assert result.workers[0].profession is Profession.WOODCUTTER
    assert result.total == 4


def test_woodcutter_counts_a_region_touched_in_several_places_once() -> None:
    result = score(
        """
        G  G  G
        F@ F  G
        """
    )
    assert result.total == 1


def test_woodcutter_does_not_count_empty_zones() -> None:
    assert score("F@ . G").total == 0


# -- watchman ----------------------------------------------------------------------------


def test_watchman_sees_forests_through_field_water_and_empty_zones() -> None:
    # Left: past an empty zone to F. Right: past W to F. Down: F, then the tower at
    # (2,2) ends the line, so the F at (3,2) is not seen. Up: the edge.
    result = score(
        """
        F  .  T@ W  F
        G  G  F  G  G
        .  .  T  .  .
        .  .  F  .  .
        """
    )
    assert result.workers[0].profession is Profession.WATCHMAN
    assert result.total == 3


def test_watchman_line_ends_at_the_next_tower() -> None:
    assert score("F T@ T F").total == 1


def test_watchman_sees_every_forest_zone_of_a_line_not_regions() -> None:
    assert score("T@ F F G F").total == 3


def test_watchman_does_not_see_diagonally() -> None:
    result = score(
        """
        F  G  F
        G  T@ G
        F  G  F
        """
    )
    assert result.total == 0


# -- regions and counting ----------------------------------------------------------------


def test_tower_zones_beside_each_other_are_separate_regions() -> None:
    result = score("F T@ T@ F")
    assert result.total == 2
    assert result.tiebreak == (1, 1)
    assert all(worker.counted for worker in result.workers)


def test_only_the_first_worker_of_a_region_scores() -> None:
    result = score(
        """
        G  G@
        G@ G
        """
    )
    assert result.workers == (
        WorkerScore((0, 1), Profession.FARMER, 4, True),
        WorkerScore((1, 0), Profession.FARMER, 0, False),
    )
    assert result.total == 4
    assert result.tiebreak == (4,)


def test_workers_stacked_on_one_zone_score_once() -> None:
    result = score("G@@ G")
    assert [(w.points, w.counted) for w in result.workers] == [(2, True), (0, False)]
    assert result.total == 2


def test_profession_follows_the_zone_terrain() -> None:
    result = score("G@ W@ F@ T@")
    assert [w.profession for w in result.workers] == [
        Profession.FARMER,
        Profession.FISHERMAN,
        Profession.WOODCUTTER,
        Profession.WATCHMAN,
    ]


def test_a_landscape_without_workers_scores_nothing() -> None:
    result = score("G W F T")
    assert (result.total, result.tiebreak, result.workers) == (0, (), ())


def test_total_and_tiebreak_of_a_mixed_landscape() -> None:
    result = score(
        """
        G*@ W@  W   F
        G   W   T@  F@
        G   F*  G   G
        """
    )
    by_zone = {w.zone: w.points for w in result.workers}
    assert by_zone == {
        (0, 0): 3,  # the field down the left edge
        (0, 1): 2,  # the huts at (0,0) and (2,1) border the water
        (1, 2): 1,  # only (1,3) is a forest in the tower's four lines
        (1, 3): 3,  # the forest borders the water, the tower and the field (2,2)-(2,3)
    }
    assert result.total == 9
    assert result.tiebreak == (3, 3, 2, 1)


def test_score_json_has_the_documented_shape() -> None:
    result = zonemap("G@ G@ W").score().to_json()
    assert result == {
        "total": 2,
        "tiebreak": [2],
        "workers": [
            {"zone": [0, 0], "profession": "farmer", "points": 2, "counted": True},
            {"zone": [0, 1], "profession": "farmer", "points": 0, "counted": False},
        ],
    }
