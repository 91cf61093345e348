"""The limes-game/1 record: round trips, malformed records, and illegal moves in them."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

from rules import (
    RECORD_FORMAT,
    IllegalMoveError,
    InvalidInputError,
    MoveWorker,
    Placement,
    PlaceWorker,
    Turn,
    Variants,
    game_from_record,
    game_to_record,
    turn_from_json,
    turn_to_json,
)
from tests.rules.helpers import random_game


def test_turn_json_matches_the_format() -> None:
    turns = [
        (Turn(Placement((0, 0))), {"card_at": [0, 0], "rotation": 0, "worker": None}),
        (
            Turn(Placement((-1, 2), 270), PlaceWorker((-2, 5))),
            {"card_at": [-1, 2], "rotation": 270, "worker": {"place": [-2, 5]}},
        ),
        (
            Turn(Placement((0, 1), 90), MoveWorker((1, 0), (0, 3))),
            {
                "card_at": [0, 1],
                "rotation": 90,
                "worker": {"move": {"from": [1, 0], "to": [0, 3]}},
            },
        ),
    ]
    for turn, data in turns:
        assert turn_to_json(turn) == data
        assert turn_from_json(data) == turn


def test_record_of_a_finished_game_round_trips() -> None:
    game = random_game(seed=11, players=2, variants=Variants(diagonal=True, ferryman=True))
    record = game_to_record(game)
    assert record["format"] == RECORD_FORMAT
    assert record["variants"] == ["diagonal", "ferryman"]
    assert record["players"] == ["p0", "p1"]
    assert len(record["cards"]) == 16 and len(record["turns"]) == 16
    again = game_from_record(json.loads(json.dumps(record)))
    assert game_to_record(again) == record
    assert again.boards == game.boards
    assert again.scores() == game.scores()


def test_record_of_an_unfinished_game_reveals_only_the_cards_in_play() -> None:
    game = random_game(seed=12, players=2, rounds=5)
    game.play("p1", next(iter(game.boards["p1"].iter_turns(game.current_card))))  # type: ignore[arg-type]
    record = game_to_record(game)
    assert len(record["cards"]) == 6
    assert len(record["turns"]) == 6 and set(record["turns"][-1]) == {"p1"}
    again = game_from_record(record)
    assert again.round == 6 and again.waiting_for() == ["p0"]
    assert game_to_record(again) == record


@functools.cache
def _base_record() -> str:
    return json.dumps(game_to_record(random_game(seed=13, players=2, rounds=10)))


def base_record() -> dict[str, Any]:
    """The record of a two-player game after ten rounds: a fresh copy each time."""
    result: dict[str, Any] = json.loads(_base_record())
    return result


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(format="limes-game/2"), '"format" must be "limes-game/1"'),
        (lambda r: r.update(variants=["mirror"]), "unknown variant 'mirror'"),
        (lambda r: r.update(cards="1,2,3"), '"cards" must be a list of card numbers'),
        (lambda r: r.update(players=[1, 2]), '"players" must be a list of names'),
        (lambda r: r.update(turns={}), '"turns" must be a list of rounds'),
        (lambda r: r["cards"].__setitem__(0, 99), "no card number 99"),
        (lambda r: r.update(cards=r["cards"][:5]), "10 rounds of turns but only 5 cards"),
        (lambda r: r["turns"][2].update(eve=r["turns"][2]["p0"]), "round 3: 'eve' is not"),
        (lambda r: r["turns"][2].pop("p0"), "round 3: no turn of p0"),
        (lambda r: r["turns"][4]["p1"].update(rotation="90"), 'round 5, player p1: "rotation"'),
        (
            lambda r: r["turns"][4]["p1"].update(card_at=[0]),
            "round 5, player p1: card_at must be [row, col]",
        ),
        (
            lambda r: r["turns"][4]["p1"].update(worker={"jump": [0, 0]}),
            'round 5, player p1: "worker" must be null',
        ),
    ],
)
def test_malformed_record_is_refused(change: Any, message: str) -> None:
    record = base_record()
    change(record)
    with pytest.raises(InvalidInputError) as caught:
        game_from_record(record)
    assert message in str(caught.value)


def test_illegal_move_names_the_round_the_player_and_the_rule() -> None:
    record = base_record()
    record["turns"][8]["p1"]["card_at"] = [40, 40]
    with pytest.raises(IllegalMoveError) as caught:
        game_from_record(record)
    assert str(caught.value).startswith("round 9, player p1: a card at [40, 40]")
    assert "share no full edge" in str(caught.value)
