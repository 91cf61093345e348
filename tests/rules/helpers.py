"""Small builders shared by the rules tests: positions and cards from text."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from pathlib import Path

import rules
from rules import (
    Board,
    Card,
    Game,
    Landscape,
    Score,
    Turn,
    Variants,
    Zone,
)

ALL_VARIANTS = [
    Variants(),
    Variants(diagonal=True),
    Variants(ferryman=True),
    Variants(diagonal=True, ferryman=True),
]


def zonemap(text: str) -> Landscape:
    """A landscape from an indented zone map in a test."""
    return Landscape.from_zone_map(textwrap.dedent(text))


def score(text: str) -> Score:
    """The score of an indented zone map."""
    return zonemap(text).score()


def card(number: int, tokens: str) -> Card:
    """A card from four zone tokens, clockwise from top-left: ``card(1, "G W F* T")``."""
    zones = tuple(Zone.from_token(token) for token in tokens.split())
    assert len(zones) == 4
    return Card(number, (zones[0], zones[1], zones[2], zones[3]))


def play_cards(cards: list[tuple[Card, Turn]], variants: Variants = Variants()) -> Board:
    """A board after playing each card with its turn; raises if one is illegal."""
    board = Board()
    for played, turn in cards:
        board = board.play(played, turn, variants)
    return board


def random_game(
    seed: int, players: int = 1, variants: Variants = Variants(), rounds: int = 16
) -> Game:
    """A game in which every player picks a uniformly random legal turn each round."""
    rng = random.Random(seed)
    game = Game.new([f"p{k}" for k in range(players)], rng, variants=variants)
    while game.round <= rounds and not game.is_over:
        card_now = game.current_card
        assert card_now is not None
        for player in game.waiting_for():
            turns = list(game.boards[player].iter_turns(card_now, variants))
            game.play(player, rng.choice(turns))
    return game


def rotate_zonemap(landscape: Landscape) -> str:
    """The zone map of ``landscape`` turned 90° clockwise as a whole, workers included."""
    rows = [line.split() for line in landscape.to_zone_map().splitlines()]
    height, width = len(rows), len(rows[0])
    turned = [[rows[height - 1 - c][r] for c in range(height)] for r in range(width)]
    return "\n".join(" ".join(row) for row in turned) + "\n"


def shift_zonemap(landscape: Landscape, down: int, right: int) -> str:
    """The zone map of ``landscape`` with empty rows above and empty columns to the left."""
    rows = [line.split() for line in landscape.to_zone_map().splitlines()]
    width = len(rows[0]) + right
    lines = [" ".join(["."] * width)] * down
    lines += [" ".join(["."] * right + row) for row in rows]
    return "\n".join(lines) + "\n"


def position(seed: int, variants: Variants, rounds: int) -> tuple[Board, Card, list[Card]]:
    """A solo board after ``rounds`` random rounds, the next card and the unseen cards."""
    game = random_game(seed, 1, variants, rounds=rounds)
    card = game.current_card
    assert card is not None
    unseen = [c for c in game.deck if c.number not in game.revealed]
    return game.boards["p0"], card, unseen


def fresh_python(code: str) -> str:
    """What ``code`` prints in a new interpreter started beside the ``rules`` package: what
    importing it loads, with nothing this test run imported already."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(rules.__file__).parent.parent,
        check=True,
    )
    return done.stdout
