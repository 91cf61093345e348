"""``python -m winter``: JSON on stdout, exit status 0, 1 (a rule broken) or 2 (malformed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
START = {"format": "winter-game/1", "players": ["ana", "ben"], "farmers": True, "turns": []}


def run(*args: str, stdin: str = "") -> tuple[int, Any, str]:
    done = subprocess.run(
        [sys.executable, "-m", "winter", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    out = json.loads(done.stdout) if done.stdout.strip() else None
    return done.returncode, out, done.stderr


def with_turns(*turns: dict[str, Any]) -> str:
    return json.dumps({**START, "turns": list(turns)})


def test_tiles_lists_the_catalogue() -> None:
    status, out, _ = run("tiles")
    assert status == 0
    assert len(out) == 36 and sum(kind["count"] for kind in out) == 84
    assert out[0]["tile"] == "WinA" and out[0]["sides"] == ["field", "field", "road", "field"]


def test_replay_scores_a_closed_city() -> None:
    record = with_turns(
        {"tile": "WinM", "at": [-1, 0], "rotation": 180, "follower": "S"},
        {"tile": "WinE", "at": [-1, 1], "rotation": 270, "follower": "n1"},
    )
    status, out, _ = run("replay", "-", stdin=record)
    assert status == 0
    assert out == {
        "players": {
            "ana": {"during": 8, "end": 0, "total": 8, "supply": 7},
            "ben": {"during": 0, "end": 3, "total": 3, "supply": 6},
        },
        "ranking": [["ana"], ["ben"]],
    }


def test_replay_ranks_equal_totals_together() -> None:
    status, out, _ = run("replay", "-", stdin=with_turns())
    assert status == 0 and out["ranking"] == [["ana", "ben"]]


def test_moves_from_the_start_sorted_with_followers() -> None:
    status, out, _ = run("moves", "-", "WinB", stdin=with_turns())
    assert status == 0
    # WinB (all field, a cloister) fits only south of the start, in one picture.
    assert out == {"moves": [{"at": [1, 0], "rotation": 0, "followers": ["cloister", "n1"]}]}
    status, out, _ = run("moves", "-", "WinE", stdin=with_turns())
    places = [(tuple(move["at"]), move["rotation"]) for move in out["moves"]]
    assert places == sorted(places)
    assert {"at": [-1, 0], "rotation": 180, "followers": ["S", "n1"]} in out["moves"]


def test_moves_of_a_tile_the_bag_no_longer_holds_breaks_a_rule(tmp_path: Path) -> None:
    record = with_turns({"tile": "WinC", "at": [-1, 0], "rotation": 0, "follower": None})
    status, _, err = run("moves", "-", "WinC", stdin=record)
    assert (status, "no WinC is left in the bag") == (1, err.strip().split(": ", 2)[-1])


@pytest.mark.parametrize(
    ("entry", "rule"),
    [
        ({"tile": "WinE", "at": [1, 0], "rotation": 0}, "turn 1 (ana): WinE does not fit"),
        ({"tile": "WinE", "at": [5, 5], "rotation": 0}, "would share no side"),
        ({"tile": "WinE", "at": [0, 0], "rotation": 0}, "a tile is there already"),
        ({"tile": "WinE", "at": [-1, 0], "rotation": 180, "follower": "E"}, "no segment there"),
        ({"tile": "WinX", "set_aside": True}, "WinX may not be set aside: it fits"),
    ],
)
def test_replay_of_a_rule_broken_exits_1_naming_the_turn(entry: dict[str, Any], rule: str) -> None:
    status, out, err = run("replay", "-", stdin=with_turns(entry))
    assert (status, out) == (1, None)
    assert rule in err and "turn 1" in err


def test_follower_on_an_occupied_feature_exits_1() -> None:
    record = with_turns(
        {"tile": "WinU", "at": [0, 1], "rotation": 90, "follower": "E"},
        {"tile": "WinU", "at": [0, 2], "rotation": 90, "follower": "W"},
    )
    status, _, err = run("replay", "-", stdin=record)
    assert status == 1
    assert "turn 2 (ben): a follower cannot go on W: the road it joins already holds one" in err


@pytest.mark.parametrize(
    ("stdin", "fault"),
    [
        ("{not json", "not JSON"),
        ("[" * 100_000, "not JSON"),
        (with_turns({"tile": "WinZ", "at": [1, 0], "rotation": 0}), "unknown tile 'WinZ'"),
        (with_turns({"tile": "WinB", "rotation": 0}), "the field 'at' is missing"),
        (with_turns({"tile": "WinB", "at": [1, 0], "rotation": 45}), "not a multiple of 90"),
        (with_turns({"tile": "WinB", "at": [1, 0], "rotation": 0, "follower": "X"}), "'X'"),
        (json.dumps({"format": "winter-game/1", "players": ["ana", "ben"]}), "'turns'"),
        (json.dumps({**START, "format": "winter-game/9"}), "the format is"),
    ],
)
def test_malformed_input_exits_2(stdin: str, fault: str) -> None:
    status, out, err = run("replay", "-", stdin=stdin)
    assert (status, out) == (2, None)
    assert fault in err


def test_moves_of_an_unknown_tile_and_an_unreadable_file_exit_2(tmp_path: Path) -> None:
    assert run("moves", "-", "WinZ", stdin=with_turns())[0] == 2
    assert run("replay", str(tmp_path / "missing.json"))[0] == 2
    assert run("frobnicate")[0] == 2
