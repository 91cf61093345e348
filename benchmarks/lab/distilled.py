"""The distilled value of issue #39, now the lab's: the learned linear evaluation plus a
small network's correction, distilled from one more card of look-ahead.

The strong level values an afterstate linearly (``rules.evaluation.LearnedWeights``). This
value is that plus the output of a small multilayer perceptron (two hidden layers of
``tanh``) over the same features and a few of the outlook's (``inputs``), trained on the
*one-step* value of afterstates: the mean, over every unseen next card, of the linear
value of the best reply (``benchmarks/lab/distill.py``). The strong level's search plays
on it (``rules.bot.search_turn`` with ``Search(load_master(), ...)``), every reply of a
move valued in one batch (``MasterValue.best_values``, which ``rules.bot``'s two-ply calls
when an evaluation has it). It played +0.07 ± 0.08 points better than strong on 600 deals,
then +0.00 ± 0.15 with eleven times the labels (benchmarks/lab/NOTEBOOK.md): the master
level looks one card deeper instead (``rules.lookahead``, issue #53), and this left
``rules/``.

Needs numpy, which the site does not install: ``pip install numpy`` to run the lab's
distillation. The weights are read once per process (``load_master``), from
``benchmarks/lab/distilled.json`` (format ``limes-master/1``).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

# A move's batches are small: BLAS threads would only fight the other processes (the task
# worker's, a test run's) for the cores (measured: 290 ms of CPU a move median, against 62
# on one thread), unless numpy is loaded already.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from rules.board import Board
from rules.errors import InvalidInputError
from rules.evaluation import (
    BLOCK,
    FEATURES,
    LearnedWeights,
    Outlook,
    afterstate_features,
    best_values,
    load_weights,
    region_growth,
)
from rules.model import ROUNDS, Card, Variants

MASTER_PATH = Path(__file__).resolve().parent / "distilled.json"
MASTER_FORMAT = "limes-master/1"
#: The network's inputs: the linear features but the constant, then the rounds left (a
#: share of 15), the fill share, the unseen terrain shares and the workers in the supply.
INPUTS = FEATURES - 1 + 7


def inputs(board: Board, outlook: Outlook) -> list[float]:
    """The network's inputs for an afterstate (``outlook.rounds_left`` > 0)."""
    features = afterstate_features(board, outlook)
    fill = region_growth(board, outlook.rounds_left).fill
    return [*features[:-1], *_extras(outlook, fill), float(board.supply)]


def _extras(outlook: Outlook, fill: float) -> list[float]:
    return [
        outlook.rounds_left / (ROUNDS - 1),
        fill,
        outlook.field,
        outlook.forest,
        outlook.water,
        outlook.hut,
    ]


@dataclass(frozen=True, eq=False, repr=False)
class MasterValue:
    """The linear evaluation plus a network's correction (see the module docstring).

    As an ``Evaluation`` (``worth``, ``workers``) it is the linear one: the one-ply ranking
    that shortlists a move's turns. ``best_values`` is where the network plays."""

    linear: LearnedWeights
    mean: np.ndarray
    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    def __repr__(self) -> str:
        shape = "-".join(str(w.shape[0]) for w, _ in self.layers) + "-1"
        return f"MasterValue(<{shape} network on {self.linear!r}>)"

    def worth(self, board: Board, outlook: Outlook) -> list[float]:
        return self.linear.worth(board, outlook)

    def workers(self, rounds_left: int) -> tuple[float, float, float]:
        return self.linear.workers(rounds_left)

    def correction(self, x: np.ndarray) -> np.ndarray:
        """The network's output for rows of ``inputs``."""
        h = (x - self.mean) / self.scale
        for k, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if k < len(self.layers) - 1:
                h = np.tanh(h)
        output: np.ndarray = h[:, 0]
        return output

    def value(self, board: Board, outlook: Outlook) -> float:
        """The master's value of one afterstate (the exact score with no round left)."""
        if not outlook.rounds_left:
            return float(board.landscape.score().total)
        x = np.array([inputs(board, outlook)])
        linear = float(np.dot(afterstate_features(board, outlook), self._stage(outlook)))
        return linear + float(self.correction(x)[0])

    def _stage(self, outlook: Outlook) -> np.ndarray:
        return np.asarray(self.linear.stages[outlook.rounds_left])

    def best_values(
        self, boards: Sequence[Board], card: Card, variants: Variants, outlook: Outlook
    ) -> list[float]:
        """For boards with the same cards, the value of the best turn with ``card`` on
        each: ``rules.evaluation.best_values`` on this value, every reply in one batch."""
        rounds_left = outlook.rounds_left
        if not rounds_left:
            return best_values(boards, card, variants, outlook, self.linear)
        shares = [outlook.share(kind) for kind in range(4)]
        ferryman = variants.ferryman
        tables: list[np.ndarray] = []  # per placement: its regions' feature rows
        offset = 0
        scored: list[list[int]] = []  # per option: its scored regions (global rows)
        rows: list[list[float]] = []  # per option: supply, spare; per placement extras
        owner: list[int] = []
        for placement in boards[0].legal_placements(variants):
            after = boards[0].with_card(card, placement)
            regions = after.landscape.regions()
            growth = region_growth(after, rounds_left)
            fill = growth.fill
            count = len(growth.kinds)
            table = np.zeros((count, 4 * BLOCK))
            for r, (points, kind, zones) in enumerate(
                zip(growth.points, growth.kinds, growth.open, strict=True)
            ):
                filled = zones * fill
                base = BLOCK * kind
                table[r, base : base + BLOCK] = (
                    points,
                    filled,
                    filled * shares[kind],
                    zones,
                    filled * filled,
                    points * fill,
                )
            tables.append(table)
            region_at = regions.region_at
            new_regions = {
                region_at(point)
                for point, _ in card.placed_zones(placement.card_at, placement.rotation)
            }
            for k, board in enumerate(boards):
                workers = board.workers
                occupied = Counter(map(region_at, workers))
                supply = board.supply
                spare = len(workers) - len(occupied)
                own_set = list(occupied)
                options: list[tuple[list[int], int, int]] = [(own_set, supply, spare)]
                if supply > 0:
                    for region in new_regions:
                        if region in occupied:
                            options.append((own_set, supply - 1, spare + 1))
                        else:
                            options.append(([*own_set, region], supply - 1, spare))
                for own in occupied:
                    if occupied[own] == 1:
                        rest, extra = [r for r in own_set if r != own], spare
                    else:
                        rest, extra = own_set, spare - 1
                    targets = regions.targets(own, occupied, ferryman)
                    joins = False
                    for target in targets:
                        if target in occupied:
                            joins = True
                        else:
                            options.append(([*rest, target], supply, extra))
                    if joins:
                        options.append((rest, supply, extra + 1))
                for regions_scored, left, extra in options:
                    scored.append([offset + r for r in regions_scored])
                    rows.append([min(left, rounds_left), extra, fill, left])
                    owner.append(k)
            offset += count
        # Every option's features: the sum of its scored regions' rows (padded with a
        # zero row), the workers' terms, the outlook's.
        table = np.vstack([*tables, np.zeros((1, 4 * BLOCK))])
        width = max(len(s) for s in scored) or 1
        index = np.full((len(scored), width), offset)
        for i, s in enumerate(scored):
            index[i, : len(s)] = s
        regions_part = table[index].sum(axis=1)
        extra_part = np.array(rows)
        n = len(rows)
        linear_x = np.hstack([regions_part, extra_part[:, :2], np.ones((n, 1))])
        linear = linear_x @ self._stage(outlook)
        common = np.array(_extras(outlook, 0.0))
        x = np.hstack(
            [
                regions_part,
                extra_part[:, :2],
                np.tile(common[:1], (n, 1)),
                extra_part[:, 2:3],
                np.tile(common[2:], (n, 1)),
                extra_part[:, 3:4],
            ]
        )
        values = linear + self.correction(x)
        best = np.full(len(boards), -np.inf)
        np.maximum.at(best, np.array(owner), values)
        return [float(v) for v in best]

    def to_json(self) -> dict[str, object]:
        """The shape of ``benchmarks/lab/distilled.json`` (the linear weights apart)."""
        return {
            "format": MASTER_FORMAT,
            "inputs": INPUTS,
            "mean": [round(float(v), 7) for v in self.mean],
            "scale": [round(float(v), 7) for v in self.scale],
            "layers": [
                {
                    "weights": [[round(float(v), 7) for v in row] for row in w],
                    "bias": [round(float(v), 7) for v in b],
                }
                for w, b in self.layers
            ],
        }

    @classmethod
    def from_json(cls, data: object, linear: LearnedWeights) -> MasterValue:
        """Parse ``to_json``'s shape; raises ``InvalidInputError``."""
        if not isinstance(data, dict) or data.get("format") != MASTER_FORMAT:
            raise InvalidInputError(f"not {MASTER_FORMAT} weights")
        if data.get("inputs") != INPUTS:
            raise InvalidInputError(f"the network takes {INPUTS} inputs")
        try:
            layers = tuple(
                (np.array(layer["weights"], dtype=float), np.array(layer["bias"], dtype=float))
                for layer in data["layers"]
            )
            mean = np.array(data["mean"], dtype=float)
            scale = np.array(data["scale"], dtype=float)
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidInputError(f"malformed {MASTER_FORMAT} weights") from error
        size = INPUTS
        for w, b in layers:
            if w.ndim != 2 or w.shape[0] != size or b.shape != (w.shape[1],):
                raise InvalidInputError("the layers' shapes do not chain")
            size = w.shape[1]
        if size != 1 or mean.shape != (INPUTS,) or scale.shape != (INPUTS,):
            raise InvalidInputError("the network must end in one output")
        return cls(linear, mean, scale, layers)


@lru_cache(maxsize=4)
def load_master(path: Path = MASTER_PATH) -> MasterValue:
    """The master's value shipped with the rules, read once per process."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return MasterValue.from_json(data, load_weights())
