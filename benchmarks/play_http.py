"""A player over HTTP, as a browser with htmx plays: read the card off the page, commit a turn.

Shared by the load run (``benchmarks/locustfile.py``) and the cluster's end-to-end test
(``tests/cluster``). The turn is the reference player's (``rules.reference_turn``), chosen
from the card the page shows and the board the client keeps itself; the server checks it
as it checks anyone's.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import rules

FORM_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HEADER_TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')
CARD = re.compile(r"Card (\d+)</h2>")
ROUND = re.compile(r'data-testid="round">Round (\d+) of 16')
VERSION = re.compile(r'data-version="(\d+)"')
GAME_PATH = re.compile(r"/games/(\d+)/$")
FINAL = 'data-testid="final-result"'
FINAL_SEAT = 'data-testid="final-seat"'


class Unexpected(Exception):
    """The server answered something a browser would show the player as a failure."""


def turn_fields(turn: rules.Turn) -> dict[str, str]:
    """The query or form fields of a turn, as the board sends them."""
    row, col = turn.placement.card_at
    fields = {"rot": str(turn.placement.rotation), "at": f"{row},{col}"}
    if isinstance(turn.worker, rules.PlaceWorker):
        fields["place"] = "{},{}".format(*turn.worker.zone)
    elif isinstance(turn.worker, rules.MoveWorker):
        fields["from"] = "{},{}".format(*turn.worker.source)
        fields["to"] = "{},{}".format(*turn.worker.target)
    return fields


POLL_TOKEN = re.compile(r"/poll/\?[^\"]*?&amp;t=([0-9a-f]+)")


def page_poll_token(html: str) -> str | None:
    """The token the page's poller sends (the game's polls answer 404 without it)."""
    match = POLL_TOKEN.search(html)
    return match.group(1) if match else None


STREAM = re.compile(r'sse-connect="(/games/\d+/stream/[^"]*)"')


def page_stream_path(html: str) -> str | None:
    """The address of the page's event stream (games of several players in play)."""
    match = STREAM.search(html)
    return match.group(1).replace("&amp;", "&") if match else None


def page_round(html: str) -> tuple[int, int] | None:
    """The round and card number the page asks this player to play, or None."""
    card = CARD.search(html)
    shown = ROUND.search(html)
    if not card or not shown:
        return None
    return int(shown.group(1)), int(card.group(1))


def page_version(html: str) -> int | None:
    """The game version the page's poller sends, if it has one (games of several players)."""
    match = VERSION.search(html)
    return int(match.group(1)) if match else None


@dataclass
class Landscape:
    """The client's copy of its own landscape, to choose the next turn.

    It plays the reference turn, or with ``rng`` a random legal one: a load generator's
    simulated players think with that instead, since the reference player's ~3 ms a move
    took two thirds of locust's CPU on the cores the servers under test need (a person's
    thinking costs the servers nothing). The server's work for a move is the same.
    """

    variants: rules.Variants
    board: rules.Board = field(default_factory=rules.Board)
    deck: rules.Deck = field(default_factory=rules.load_deck)
    rng: random.Random | None = None

    def next_turn(self, html: str, round_number: int) -> dict[str, str]:
        """The turn for the card the page shows in ``round_number``; keeps it."""
        shown = page_round(html)
        if shown is None or shown[0] != round_number:
            raise Unexpected(f"round {round_number} is not on the page: {html[:200]!r}")
        card = self.deck.card(shown[1])
        if self.rng is None:
            turn = rules.reference_turn(self.board, card, self.variants)
        else:
            turn = self.random_turn(card, self.rng)
        self.board = self.board.play(card, turn, self.variants)
        return turn_fields(turn)

    def random_turn(self, card: rules.Card, rng: random.Random) -> rules.Turn:
        """A legal placement of ``card`` and a legal worker action (or none), at random."""
        placement = rng.choice(self.board.legal_placements(self.variants))
        placed = self.board.place(card, placement, self.variants)
        return rules.Turn(placement, rng.choice(placed.legal_worker_actions(self.variants)))
