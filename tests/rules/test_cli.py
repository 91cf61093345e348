"""``python -m rules``: JSON on stdout, exit status 0/1/2, located messages on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules import Variants, game_to_record
from tests.rules.helpers import random_game

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> tuple[int, Any, str]:
    """Exit status, parsed stdout (or ``None``) and stderr of ``python -m rules ARGS``."""
    done = subprocess.run(
        [sys.executable, "-m", "rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=60,
    )
    out = json.loads(done.stdout) if done.stdout.strip() else None
    return done.returncode, out, done.stderr


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- deck --------------------------------------------------------------------------------


def test_deck_lists_24_cards_with_four_zones_each() -> None:
    status, out, _ = run("deck")
    assert status == 0
    assert [card["number"] for card in out] == list(range(1, 25))
    zone = out[0]["zones"][0]
    assert set(zone) == {"terrain", "hut"}
    terrains = {z["terrain"] for card in out for z in card["zones"]}
    assert terrains == {"field", "water", "forest", "tower"}
    assert all(len(card["zones"]) == 4 for card in out)


def test_deck_follows_limes_deck(tmp_path: Path) -> None:
    status, _, err = run("deck", env={"LIMES_DECK": write(tmp_path, "d.json", "{\n  oops\n")})
    assert status == 2
    assert err.startswith(f"{tmp_path / 'd.json'}:2:3: not JSON")


# -- score -------------------------------------------------------------------------------


def test_score_prints_total_tiebreak_and_workers(tmp_path: Path) -> None:
    zonemap = write(tmp_path, "z.txt", "# two farmers, one counted\nG@ G@ W\nT@ F  F\n")
    status, out, err = run("score", zonemap)
    assert (status, err) == (0, "")
    assert out == {
        "total": 4,
        "tiebreak": [2, 2],
        "workers": [
            {"zone": [0, 0], "profession": "farmer", "points": 2, "counted": True},
            {"zone": [0, 1], "profession": "farmer", "points": 0, "counted": False},
            {"zone": [1, 0], "profession": "watchman", "points": 2, "counted": True},
        ],
    }


def test_score_reads_standard_input() -> None:
    status, out, _ = run("score", "-", stdin="G@ G\n")
    assert (status, out["total"]) == (0, 2)


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("G G W\nG W\n", "2:3", "ragged row: 2 zones where the first row has 3"),
        ("G  W*  F\n", "1:4", "a hut cannot stand on water in 'W*'"),
        ("G G\n\nT* G\n", "3:1", "a hut cannot stand on tower"),
        ("G X F\n", "1:3", "unknown terrain letter 'X'"),
        ("G .@ F\n", "1:3", "a worker cannot stand where no card lies"),
        ("G G*x\n", "1:3", "malformed zone 'G*x'"),
    ],
)
def test_malformed_zone_map_is_located(tmp_path: Path, text: str, where: str, message: str) -> None:
    path = write(tmp_path, "bad.txt", text)
    status, out, err = run("score", path)
    assert (status, out) == (2, None)
    assert err.startswith(f"{path}:{where}: {message}")


def test_zone_map_from_standard_input_is_located_as_stdin() -> None:
    status, _, err = run("score", "-", stdin="G Q\n")
    assert status == 2
    assert err.startswith("<stdin>:1:3: unknown terrain letter 'Q'")


def test_missing_file_is_exit_status_2(tmp_path: Path) -> None:
    path = str(tmp_path / "nowhere.txt")
    status, out, err = run("score", path)
    assert (status, out) == (2, None)
    assert err.startswith(f"{path}: cannot read the file")


# -- moves -------------------------------------------------------------------------------


def test_moves_lists_each_occupied_zone_once(tmp_path: Path) -> None:
    path = write(tmp_path, "z.txt", "G@@ W@ F\nG   W  T\n")
    status, out, _ = run("moves", path)
    assert status == 0
    assert out == {
        "workers": [
            {"zone": [0, 0], "to": [[0, 1], [1, 1]]},
            {"zone": [0, 1], "to": [[0, 0], [0, 2], [1, 0], [1, 2]]},
        ]
    }
    status, out, _ = run("moves", path, "--ferryman")
    assert out["workers"][0] == {"zone": [0, 0], "to": [[0, 1], [0, 2], [1, 1], [1, 2]]}


# -- replay ------------------------------------------------------------------------------


def record_file(tmp_path: Path, record: dict[str, Any]) -> str:
    return write(tmp_path, "game.json", json.dumps(record, indent=2))


def test_replay_prints_scores_and_ranking(tmp_path: Path) -> None:
    game = random_game(seed=21, players=2, variants=Variants(ferryman=True))
    status, out, _ = run("replay", record_file(tmp_path, game_to_record(game)))
    assert status == 0
    outcome = game.outcome()
    assert out == {
        "players": {
            p: {"total": s.total, "tiebreak": list(s.tiebreak)} for p, s in outcome.scores.items()
        },
        "ranking": [list(group) for group in outcome.ranking],
    }


def test_replay_scores_an_unfinished_record_as_it_stands(tmp_path: Path) -> None:
    game = random_game(seed=22, players=1, rounds=4)
    status, out, _ = run("replay", record_file(tmp_path, game_to_record(game)))
    assert status == 0
    assert out["players"]["p0"]["total"] == game.scores()["p0"].total
    assert out["ranking"] == [["p0"]]


def test_illegal_move_in_round_9_is_exit_status_1(tmp_path: Path) -> None:
    record = game_to_record(random_game(seed=23, players=2))
    record["turns"][8]["p1"]["worker"] = {"move": {"from": [40, 40], "to": [0, 0]}}
    path = record_file(tmp_path, record)
    status, out, err = run("replay", path)
    assert (status, out) == (1, None)
    assert err.strip() == f"{path}: round 9, player p1: no worker stands on zone [40, 40]"


def test_malformed_json_is_located(tmp_path: Path) -> None:
    path = write(tmp_path, "game.json", '{"format": "limes-game/1",\n "cards": [1, 2,,]}\n')
    status, _, err = run("replay", path)
    assert status == 2
    assert err.startswith(f"{path}:2:17: not JSON: Expecting value")


def test_malformed_record_is_exit_status_2(tmp_path: Path) -> None:
    path = record_file(tmp_path, {"format": "limes-game/1", "cards": [1], "players": []})
    status, _, err = run("replay", path)
    assert status == 2
    assert err.startswith(f"{path}: ")


def test_unknown_command_is_exit_status_2() -> None:
    status, _, err = run("shuffle")
    assert status == 2
    assert "invalid choice" in err
