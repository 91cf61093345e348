"""Post-game analysis: each round of a player against the computer's quick judgement.

Computation only (no writes): ``computer.game_analyse`` stores what ``assess_seat`` returns,
and the pages read it back through ``costliest`` and ``loss_chart``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

import rules
import rules.bot
from games.models import Game, GameAnalysis, Move, Seat
from games.rebuild import deck, move_to_turn, variants_of

# A round's accuracy falls by this much per point of expected score given away, so a
# round that costs 5 points or more counts 0.
ACCURACY_PER_POINT = 20.0
# Rounds that cost less than this are not called mistakes.
NOTABLE_LOSS = 0.5


def assess_seat(game: Game, moves: Sequence[Move]) -> tuple[list[dict[str, Any]], float]:
    """Every round the seat played, judged by ``rules.bot.assess_turn`` (the one-ply search on
    the learned evaluation, a fraction of a second a seat), and the seat's accuracy.

    At each round the bot knows what the player knew: the board, the card, and which cards
    were still unseen; never the order of the cards to come.
    """
    the_deck = deck()
    variants = variants_of(game)
    board = rules.Board()
    rounds: list[dict[str, Any]] = []
    for move in sorted(moves, key=lambda m: m.round):
        card = the_deck.card(move.card)
        revealed = set(game.cards[: move.round])
        unseen = [c for c in the_deck if c.number not in revealed]
        turn = move_to_turn(move)
        assessment = rules.bot.assess_turn(
            board, card, turn, unseen=unseen, variants=variants, seed=game.seed + move.round
        )
        rounds.append(
            {
                "round": move.round,
                "played": round(assessment.played_value, 2),
                "best": round(assessment.best_value, 2),
                "played_turn": rules.turn_to_json(turn),
                "best_turn": rules.turn_to_json(assessment.best),
            }
        )
        board = board.play(card, turn, variants)
    return rounds, accuracy(rounds)


def accuracy(rounds: Sequence[dict[str, Any]]) -> float:
    """0 to 100: the mean over rounds of 100 less 20 per point of expected score lost."""
    if not rounds:
        return 100.0
    per_round = [
        max(0.0, 100.0 - ACCURACY_PER_POINT * max(0.0, r["best"] - r["played"])) for r in rounds
    ]
    return round(float(sum(per_round)) / len(per_round), 1)


@dataclass(frozen=True)
class Mistake:
    """A costly round: how much the bot's turn was worth over the player's, and why."""

    round: int
    loss: float
    advice: str
    best_turn: dict[str, Any]

    @property
    def text(self) -> str:
        return _("Round %(round)d: %(advice)s would have been worth +%(loss)s") % {
            "round": self.round,
            "advice": self.advice,
            # 4.0 in English, 4,0 in Czech, German and French.
            "loss": number_format(self.loss, 1),
        }


def costliest(rounds: Sequence[dict[str, Any]], count: int = 3) -> list[Mistake]:
    """The ``count`` rounds that cost the most expected points, worst first."""
    ranked = sorted(rounds, key=lambda r: (-(r["best"] - r["played"]), r["round"]))
    return [
        Mistake(
            r["round"],
            r["best"] - r["played"],
            advice(r["played_turn"], r["best_turn"]),
            r["best_turn"],
        )
        for r in ranked[:count]
        if r["best"] - r["played"] >= NOTABLE_LOSS
    ]


def advice(played: dict[str, Any], best: dict[str, Any]) -> str:
    """What the better turn did differently, in a few words (the replay draws it)."""
    parts = []
    if played["card_at"] != best["card_at"]:
        parts.append(_("placing the card elsewhere"))
    elif played["rotation"] != best["rotation"]:
        parts.append(_("turning the card differently"))
    worker_played, worker_best = played["worker"], best["worker"]
    if worker_best != worker_played:
        if worker_best is None:
            parts.append(_("keeping the worker"))
        elif "place" in worker_best:
            if worker_played is not None and "place" in worker_played:
                parts.append(_("placing the worker on another zone"))
            else:
                parts.append(_("placing a worker"))
        elif worker_played is not None and "move" in worker_played:
            parts.append(_("moving another worker, or to another zone"))
        else:
            parts.append(_("moving a worker"))
    if not parts:
        return _("another turn")
    return _(" and ").join(parts)


# -- the chart -------------------------------------------------------------------------------

WIDTH = 600
HEIGHT = 200
LEFT = 36
RIGHT = 8
TOP = 16
BOTTOM = 24


@dataclass(frozen=True)
class Bar:
    x: str
    y: str
    width: str
    height: str
    label_x: str
    round: int
    loss: float
    costly: bool


@dataclass(frozen=True)
class LossChart:
    """Points given away per round, one bar a round (server-drawn SVG)."""

    bars: list[Bar]
    ticks: list[tuple[str, str]]  # (y, label)
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def loss_chart(rounds: Sequence[dict[str, Any]], costly: Sequence[int] = ()) -> LossChart | None:
    """Bars of the expected points each round gave away; ``costly`` rounds highlighted."""
    if not rounds:
        return None
    losses = [(r["round"], max(0.0, r["best"] - r["played"])) for r in rounds]
    top = max(1.0, max(loss for _r, loss in losses))
    inner_height = HEIGHT - TOP - BOTTOM
    slot = (WIDTH - LEFT - RIGHT) / rules.ROUNDS
    bars = []
    for number, loss in losses:
        height = inner_height * loss / top
        x = LEFT + slot * (number - 1) + slot * 0.15
        bars.append(
            Bar(
                f"{x:.1f}",
                f"{HEIGHT - BOTTOM - height:.1f}",
                f"{slot * 0.7:.1f}",
                f"{height:.1f}",
                f"{x + slot * 0.35:.1f}",
                number,
                loss,
                number in costly,
            )
        )
    ticks = [
        (f"{HEIGHT - BOTTOM - inner_height * value / top + 4:.1f}", f"{value:g}")
        for value in (0, round(top / 2, 1), round(top, 1))
    ]
    return LossChart(bars, ticks)


# -- what the pages show ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatReport:
    seat: Seat
    accuracy: float
    mistakes: list[Mistake]
    chart: LossChart | None

    def mistake_in(self, round_number: int) -> Mistake | None:
        return next((m for m in self.mistakes if m.round == round_number), None)


@dataclass(frozen=True)
class Report:
    """A game's analysis as the final page and the replay show it."""

    status: str  # a GameAnalysis.Status, or "" when the game has none
    seats: list[SeatReport]

    @property
    def is_pending(self) -> bool:
        return self.status == GameAnalysis.Status.PENDING


def report(game: Game) -> Report:
    """The stored analysis of ``game`` (never computed here); two queries at most.

    None for the analysis a commit has just queued on ``game`` (the game's own copy), nor
    for its players' rounds until it is done.
    """
    if Game.analysis.is_cached(game):
        stored = getattr(game, "analysis", None)
    else:
        stored = GameAnalysis.objects.filter(game=game).first()
    if stored is None:
        return Report("", [])
    if stored.status != GameAnalysis.Status.DONE:
        return Report(stored.status, [])  # its rounds are written when it is done
    seats = []
    for seat_analysis in stored.seats.select_related("seat__user"):
        if not seat_analysis.rounds:
            continue  # left before playing a round: nothing to judge
        mistakes = costliest(seat_analysis.rounds)
        seats.append(
            SeatReport(
                seat_analysis.seat,
                seat_analysis.accuracy,
                mistakes,
                loss_chart(seat_analysis.rounds, [m.round for m in mistakes]),
            )
        )
    return Report(stored.status, seats)
