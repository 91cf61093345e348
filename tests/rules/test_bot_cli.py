"""``python -m rules bot``: the ``limes-bot/1`` line protocol, run as a subprocess."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules import Board, Variants, load_deck, turn_from_json

ROOT = Path(__file__).resolve().parents[2]


class Bot:
    """A running ``python -m rules bot`` process, asked one line at a time."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rules", "bot", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )

    def ask_raw(self, line: bytes) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer.endswith(b"\n"), answer
        return json.loads(answer)

    def ask(self, position: dict[str, Any]) -> Any:
        return self.ask_raw(json.dumps(position).encode())

    def close(self) -> tuple[int, bytes]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        rest = self.process.stdout.read()
        return self.process.wait(timeout=30), rest


@pytest.fixture
def bot() -> Iterator[Bot]:
    process = Bot("--level", "strong", "--seed", "1")
    yield process
    if process.process.poll() is None:
        process.process.kill()
        process.process.wait()


def position(cards: list[int], turns: list[Any], variants: list[str] | None = None) -> Any:
    return {"format": "limes-bot/1", "variants": variants or [], "cards": cards, "turns": turns}


def test_interleaved_games_end_legal_and_garbage_gets_errors(bot: Bot) -> None:
    deck = load_deck()
    games = [
        (list(deck.deal(random.Random(seed))), variants)
        for seed, variants in [(1, []), (2, ["ferryman"]), (3, ["diagonal", "ferryman"])]
    ]
    played: list[list[Any]] = [[], [], []]
    garbage = [
        b"not json at all",
        b"",
        b"[1, 2, 3]",
        b'{"format": "limes-game/1", "cards": [1], "turns": []}',
        b'{"format": "limes-bot/1", "cards": [1, 2], "turns": []}',
        b'{"format": "limes-bot/1", "cards": [1, 1], "turns": [null]}',
        b'{"format": "limes-bot/1", "cards": [99], "turns": []}',
        b'{"format": "limes-bot/1", "cards": [1], "turns": [], "variants": ["mirror"]}',
        b'{"format": "limes-bot/1", "cards": [1, 2], "turns": '
        b'[{"card_at": [5, 5], "rotation": 0, "worker": null}]}',
        b'{"format": "limes-bot/1", "cards": [1, 2], "turns": '
        b'[{"card_at": [0, 0], "rotation": 45, "worker": null}]}',
        b'{"format": "limes-bot/1", "cards": [1, 2], "turns": '
        b'[{"card_at": [0, 0], "rotation": 0, "worker": {"place": [7, 7]}}]}',
        b'{"format": "limes-bot/1", "cards": [1\x00], "turns": []}',
        b"\x00\x00\x00",
        b"\xff\xfe not utf-8",
        b'{"format": "limes-bot/1", "cards": [' + b"9" * 5000 + b"], " + b'"turns": []}',
        b'{"format": "limes-bot/1", "cards": [1e999], "turns": []}',
        b'{"format": "limes-bot/1", "cards": [1, 2], "turns": '
        b'[{"card_at": [99999999999999999999, 0], "rotation": 0, "worker": null}]}',
        b"[" * 100_000,
    ]
    for round_number in range(16):
        for g, (cards, variants) in enumerate(games):
            answer = bot.ask(position(cards[: round_number + 1], played[g], variants))
            assert "error" not in answer, answer
            played[g].append(answer)
        line = garbage[round_number % len(garbage)]
        answer = bot.ask_raw(line)
        assert set(answer) == {"error"} and answer["error"], (line, answer)
    for line in garbage[16:]:
        answer = bot.ask_raw(line)
        assert set(answer) == {"error"}, (line, answer)
    for (cards, variants), turns in zip(games, played, strict=True):
        board = Board()
        names = Variants.from_names(variants)
        for number, data in zip(cards, turns, strict=True):
            board = board.play(deck.card(number), turn_from_json(data), names)
        assert board.landscape.score().total > 20
    status, rest = bot.close()
    assert (status, rest) == (0, b"")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"nope", "not JSON"),
        (b'{"format": "limes-bot/1", "cards": [1, 2], "turns": []}', "one fewer"),
        (
            b'{"format": "limes-bot/1", "cards": [1, 2], "turns": '
            b'[{"card_at": [3, 0], "rotation": 0, "worker": null}]}',
            "round 1: the first card",
        ),
        (b'{"format": "limes-bot/1", "cards": [25], "turns": []}', "no card number 25"),
    ],
)
def test_error_messages_say_what_is_wrong(bot: Bot, line: bytes, message: str) -> None:
    answer = bot.ask_raw(line)
    assert message in answer["error"]
    assert "error" not in bot.ask(position([4], []))


def test_same_seed_same_answers_and_levels() -> None:
    deck = load_deck()
    cards = list(deck.deal(random.Random(9)))[:5]
    answers = []
    for level in ("easy", "easy", "reference"):
        process = Bot("--level", level, "--seed", "4")
        turns: list[Any] = []
        for k in range(1, 6):
            turns.append(process.ask(position(cards[:k], turns)))
        answers.append(turns)
        assert process.close()[0] == 0
    assert answers[0] == answers[1]


def test_unknown_level_is_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "bot", "--level", "grandmaster"],
        capture_output=True,
        cwd=ROOT,
        timeout=30,
    )
    assert done.returncode == 2
    assert b"invalid choice" in done.stderr


def test_the_master_answers_legal_turns_within_its_budget() -> None:
    deck = load_deck()
    cards = list(deck.deal(random.Random(12)))[:6]
    process = Bot("--level", "master", "--budget", "0.05")
    board = Board()
    turns: list[Any] = []
    for k in range(1, 7):
        answer = process.ask(position(cards[:k], turns))
        board = board.play(deck.card(cards[k - 1]), turn_from_json(answer))  # raises if illegal
        turns.append(answer)
    assert process.close()[0] == 0


@pytest.mark.parametrize("budget", ["-1", "soon", "inf"])
def test_a_budget_that_is_not_seconds_is_a_usage_error(budget: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "bot", "--level", "master", "--budget", budget],
        capture_output=True,
        cwd=ROOT,
        timeout=30,
    )
    assert done.returncode == 2
    assert b"--budget" in done.stderr
