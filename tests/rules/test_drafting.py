"""A round's draft outcomes, all at once: the same as scoring every turn afresh."""

from __future__ import annotations

import pytest

from rules import MoveWorker, PlaceWorker, Turn, Variants, iter_draft_outcomes
from tests.rules.helpers import ALL_VARIANTS, random_game


@pytest.mark.parametrize("variants", ALL_VARIANTS)
@pytest.mark.parametrize(("seed", "rounds"), [(11, 0), (14, 3), (0, 8), (23, 12), (26, 15)])
def test_every_outcome_is_the_score_of_playing_that_turn(
    variants: Variants, seed: int, rounds: int
) -> None:
    game = random_game(seed=seed, variants=variants, rounds=rounds)
    board, card = game.boards["p0"], game.current_card
    assert card is not None
    seen = []
    for outcomes in iter_draft_outcomes(board, card, variants):
        placement, landscape = outcomes.placement, outcomes.landscape
        assert landscape == board.place(card, placement, variants).landscape
        turns = [(Turn(placement, None), outcomes.keep)]
        turns += [(Turn(placement, PlaceWorker(zone)), end) for zone, end in outcomes.place]
        for source, found in outcomes.move.items():
            for region, zones, counts, (total, others) in found:
                if zones is None:
                    zones = tuple(
                        p
                        for p, _z in landscape.iter_zones()
                        if landscape.regions().region_at(p) == region
                    )
                for zone in zones:
                    assert landscape.regions().region_at(zone) == region
                    uncounted = others if counts else tuple(sorted((*others, zone)))
                    turns.append((Turn(placement, MoveWorker(source, zone)), (total, uncounted)))
        for turn, (total, uncounted) in turns:
            score = board.play(card, turn, variants).landscape.score()
            assert total == score.total
            assert uncounted == tuple(sorted(w.zone for w in score.workers if not w.counted))
        seen += [turn for turn, _end in turns]
    expected = list(board.iter_turns(card, variants))
    assert sorted(map(str, seen)) == sorted(map(str, expected))


def test_a_second_worker_in_a_scored_region_is_not_counted() -> None:
    game = random_game(seed=0, rounds=8)
    board, card = game.boards["p0"], game.current_card
    assert card is not None
    endings = [
        end
        for placed in iter_draft_outcomes(board, card)
        for end in [
            placed.keep,
            *(end for _zone, end in placed.place),
            *(end for found in placed.move.values() for _r, _z, counts, end in found if counts),
        ]
    ]
    assert any(uncounted for _total, uncounted in endings)
