"""Where a worker may move, on zone maps: neighbouring regions, and the ferryman."""

from __future__ import annotations

import pytest

from rules import InvalidInputError
from tests.rules.helpers import zonemap


def test_worker_moves_to_any_zone_of_a_neighbouring_region() -> None:
    landscape = zonemap(
        """
        G@ G  W
        F  F  W
        """
    )
    # Forest below and water to the right; never the worker's own field (0,1).
    assert landscape.worker_targets((0, 0)) == [(0, 2), (1, 0), (1, 1), (1, 2)]


def test_every_zone_of_the_own_region_gives_the_same_targets() -> None:
    landscape = zonemap(
        """
        G@ G@ W
        F  F  W
        """
    )
    assert landscape.worker_targets((0, 0)) == landscape.worker_targets((0, 1))


def test_worker_cannot_reach_a_region_touching_only_at_a_corner() -> None:
    landscape = zonemap(
        """
        G@ W
        W  F
        """
    )
    assert (1, 1) not in landscape.worker_targets((0, 0))


def test_worker_cannot_cross_an_empty_zone() -> None:
    assert zonemap("G@ . F").worker_targets((0, 0)) == []


def test_tower_beside_a_tower_is_a_neighbouring_region() -> None:
    landscape = zonemap("F T@ T G")
    assert landscape.worker_targets((0, 1)) == [(0, 0), (0, 2)]


def test_worker_on_a_region_bordering_several_towers_may_reach_each() -> None:
    landscape = zonemap(
        """
        T  T
        F@ F
        """
    )
    assert landscape.worker_targets((1, 0)) == [(0, 0), (0, 1)]


FERRY = """
    G@ W@ F
    G  W  T
    """


def test_without_the_ferryman_only_neighbouring_regions() -> None:
    assert zonemap(FERRY).worker_targets((0, 0)) == [(0, 1), (1, 1)]


def test_ferryman_carries_a_worker_across_water_with_a_fisherman() -> None:
    # The field borders the water, where a fisherman stands; the water borders the
    # forest and the tower, which the field does not.
    assert zonemap(FERRY).worker_targets((0, 0), ferryman=True) == [
        (0, 1),
        (0, 2),
        (1, 1),
        (1, 2),
    ]


def test_ferryman_needs_a_fisherman_in_the_water() -> None:
    landscape = zonemap(
        """
        G@ W F
        G  W T
        """
    )
    assert landscape.worker_targets((0, 0), ferryman=True) == [(0, 1), (1, 1)]


def test_ferryman_never_lands_the_worker_in_its_own_region() -> None:
    # The water borders the worker's own field and another field, (0,2): the ferry
    # offers (0,2) but not (1,0).
    landscape = zonemap(
        """
        G@ W@ G
        G  W  W
        """
    )
    assert landscape.worker_targets((0, 0), ferryman=True) == [(0, 1), (0, 2), (1, 1), (1, 2)]


def test_ferryman_reaches_a_second_field_across_the_water() -> None:
    landscape = zonemap("G@ W@ G")
    assert landscape.worker_targets((0, 0)) == [(0, 1)]
    assert landscape.worker_targets((0, 0), ferryman=True) == [(0, 1), (0, 2)]


def test_the_fisherman_itself_gets_no_ferry() -> None:
    # It stands in the water: no manned water region borders its own region.
    landscape = zonemap("G W@ F")
    assert landscape.worker_targets((0, 1), ferryman=True) == [(0, 0), (0, 2)]


def test_ferry_goes_one_water_region_far() -> None:
    # From the field: water A (manned) leads to the forest; water B beyond the forest
    # (also manned) does not border the field, so the last field is out of reach.
    landscape = zonemap("G@ W@ F W@ G")
    assert landscape.worker_targets((0, 0), ferryman=True) == [(0, 1), (0, 2)]


def test_targets_of_a_zone_without_a_card_are_an_error() -> None:
    with pytest.raises(InvalidInputError, match="no card lies on zone"):
        zonemap("G@ . F").worker_targets((0, 1))
