"""Computer players of Carcassonne: Winter Edition, by level (``BOT_LEVELS``, weakest first).

Each level is a pure function of a :class:`View`: the drawn tile, the board, the scores,
the supplies and the counts of the tiles left in the bag, never their order. ``import
winter`` does not load this module.

- ``easy``: takes the most points this turn; among equal turns it puts a follower on a
  city, a road or a cloister whenever it can, however little that may bring, and never
  on a field. Which of equal turns it takes is drawn from the position, not from the clock.
- ``normal``: one ply: every legal turn is played on a copy and the position valued for
  the player against the best opponent: points, each held feature's likely worth (a rough
  chance of completion by its open sides), fields by their complete cities, followers
  left in supply.
- ``strong``: the same one ply on a finer value that looks ahead over the bag: a feature's
  chance of completion comes from the tiles left that fit each of its open places (a place
  no tile left can fill never completes), and a follower in supply counts for more. The
  two best turns are then ranked again by the next player's best reply, expected over
  the kinds of tile left in the bag weighted by their counts (the most numerous kinds,
  as many as about 900 valued replies allow: about 200 ms of CPU at most).

The value functions read the game's feature tables directly, for speed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from winter.errors import InvalidInputError
from winter.game import (
    AROUND,
    CLOISTER_POINTS,
    DELTAS,
    FARMER_POINTS,
    Game,
    Placement,
    _fitting_rotations,
)
from winter.tiles import FeatureKind, Terrain

BOT_LEVELS = ("easy", "normal", "strong")


@dataclass(frozen=True, eq=False)
class View:
    """What a computer player may see: the position (without the deal) and the drawn tile."""

    game: Game
    tile: str

    @classmethod
    def from_game(cls, game: Game) -> View:
        """The public view of ``game`` for the player to move; raises InvalidInputError
        when the game is over (no tile drawn)."""
        if game.drawn is None:
            raise InvalidInputError("no tile is drawn: the game is over or has no deal")
        return cls(game.copy(hide_order=True), game.drawn)


def choose(level: str, view: View) -> Placement:
    """The turn the ``level`` player plays in ``view``; raises InvalidInputError for an
    unknown level. The tile must fit somewhere (the game sets aside the others)."""
    try:
        player = _PLAYERS[level]
    except KeyError:
        raise InvalidInputError(f"unknown level {level!r}; levels: {BOT_LEVELS}") from None
    return player(view.game, view.tile)


def bot_turn(level: str, game: Game) -> Placement:
    """The turn the ``level`` player would play now in ``game`` (seen through its view)."""
    return choose(level, View.from_game(game))


# -- easy --------------------------------------------------------------------------------


def _easy(game: Game, tile: str) -> Placement:
    seat = game.to_move
    rng = random.Random(f"{len(game.turns)}:{tile}:{game.scores}")
    best: tuple[float, Placement] | None = None
    for move in game.legal_moves(tile):
        shuffle = rng.random()
        for placement in move.iter_placements(tile):
            after = game.copy()
            after._play_known_legal(placement)
            gained = after.score(seat) - game.score(seat)
            name = placement.follower
            eager = (name is not None and name[0].isupper()) or name == "cloister"
            key = gained * 10 + eager * 5 + shuffle
            if best is None or key > best[0]:
                best = (key, placement)
    assert best is not None, "the tile fits nowhere"
    return best[1]


# -- values ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """How a level values a position."""

    bag_aware: bool
    supply_point: float  # a follower in supply, early in the game
    open_city_share: float  # how much of 3 points an open city counts for a farmer
    reply_shortlist: int  # turns ranked again by the next player's best reply (0: none)
    reply_budget: int = 0  # replies valued a turn, at most (over the whole shortlist)


NORMAL = Weights(bag_aware=False, supply_point=1.0, open_city_share=0.0, reply_shortlist=0)
STRONG = Weights(
    bag_aware=True, supply_point=1.5, open_city_share=0.0, reply_shortlist=2, reply_budget=900
)


class _Valuer:
    """Values positions of one game for one level, caching what one turn shares."""

    def __init__(self, game: Game, weights: Weights) -> None:
        self.weights = weights
        self.left = game.tiles_left
        self.players = len(game.players)
        bag = game.bag()
        self.bag = bag
        self._spot_chance: dict[tuple[Terrain | None, ...], float] = {}
        self._spots_of: dict[tuple[object, ...], list[tuple[int, int]]] = {}

    def spot_chance(self, required: tuple[Terrain | None, ...]) -> float:
        """The chance that a place needing ``required`` sides gets filled before the end."""
        found = self._spot_chance.get(required)
        if found is None:
            left = max(self.left - 1, 1)
            fitting = 0
            for name, count in self.bag.items():
                if _fitting_rotations(name, required):
                    fitting += count
            draws = min(left, 2 * max(1, left // self.players))
            found = 1.0 - (1.0 - fitting / left) ** draws if fitting else 0.0
            self._spot_chance[required] = found
        return found

    def completion(self, game: Game, root: int) -> float:
        """The chance that the unfinished city, road or cloister ``root`` completes."""
        kind = game._kind[root]
        if self.left <= 1:
            return 0.0
        if not self.weights.bag_aware:
            if kind is FeatureKind.CLOISTER:
                empty = 8 - game._around(game._where[root][0])
            else:
                empty = game._open[root]
            return 0.7**empty * min(1.0, self.left / 25)
        if kind is FeatureKind.CLOISTER:
            row, col = game._where[root][0]
            chance = 1.0
            for dr, dc in AROUND:
                spot = (row + dr, col + dc)
                if spot not in game._board:
                    required = game._required.get(spot)
                    chance *= self.spot_chance(required) if required else 0.6
            return chance
        # Exact: only a feature holding the latest tile can differ between the positions
        # one valuer sees (one turn apart from a common position).
        tiles = game._tiles[root]
        last = game.turns[-1] if game.turns else None
        newest = (
            (last.rotation, last.tile) if isinstance(last, Placement) and last.at in tiles else None
        )
        key = (root, tiles, game._open[root], newest)
        spots = self._spots_of.get(key)
        if spots is None:
            spots = self._spots_of[key] = sorted(self._spots(game, root))
        chance = 1.0
        needs = game._required
        for spot in spots:
            chance *= 0.8 * self.spot_chance(needs[spot])
        return chance

    @staticmethod
    def _spots(game: Game, root: int) -> set[tuple[int, int]]:
        spots = set()
        board, base = game._board, game._base
        for at in game._tiles[root]:
            placed, first = board[at], base[at]
            row, col = at
            for side, (dr, dc) in enumerate(DELTAS):
                index = placed.side_segment[side]
                spot = (row + dr, col + dc)
                if index >= 0 and spot not in board and game._find(first + index) == root:
                    spots.add(spot)
        return spots

    def values(self, game: Game) -> list[float]:
        """Each seat's expected final points, as this level sees them."""
        values = [float(points) for points in game._score]
        share = self.weights.open_city_share
        city_chance: dict[int, float] = {}
        for root, gids in game._followers.items():
            if not gids:
                continue
            players = game._majority(gids)
            kind = game._kind[root]
            if kind is FeatureKind.FIELD:
                if not game.options.farmers:
                    continue
                worth = 0.0
                for city in {game._find(c) for c in game._borders[root]}:
                    if game._open[city] == 0:
                        worth += FARMER_POINTS
                    elif share:
                        chance = city_chance.get(city)
                        if chance is None:
                            chance = city_chance[city] = self.completion(game, city)
                        worth += FARMER_POINTS * share * chance
            elif kind is FeatureKind.CLOISTER:
                now = 1 + game._around(game._where[root][0])
                chance = self.completion(game, root)
                worth = chance * CLOISTER_POINTS + (1 - chance) * now
            else:
                size = len(game._tiles[root]) + game._shields[root]
                chance = self.completion(game, root)
                done = 2 * size if kind is FeatureKind.CITY else size
                worth = chance * done + (1 - chance) * size
            for seat in players:
                values[seat] += worth
        phase = min(1.0, self.left / 40)
        for seat in range(self.players):
            values[seat] += self.weights.supply_point * phase * min(game._supply[seat], 4)
        return values

    def relative(self, game: Game, seat: int) -> float:
        """The seat's value less the best other player's."""
        values = self.values(game)
        return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def _one_ply(game: Game, tile: str, valuer: _Valuer) -> list[tuple[float, Placement, Game]]:
    seat = game.to_move
    ranked = []
    for placement in game.iter_placements(tile):
        after = game.copy()
        after._play_known_legal(placement)
        ranked.append((valuer.relative(after, seat), placement, after))
    ranked.sort(key=lambda item: -item[0])
    return ranked


def _normal(game: Game, tile: str) -> Placement:
    return _one_ply(game, tile, _Valuer(game, NORMAL))[0][1]


def _best_reply_value(game: Game, tile: str, valuer: _Valuer, seat: int) -> float:
    """``seat``'s value after the next player's best reply with ``tile``, as valued."""
    replier = game.to_move
    best: float | None = None
    best_game = game
    for placement in game.iter_placements(tile):
        after = game.copy()
        after._play_known_legal(placement)
        value = valuer.relative(after, replier)
        if best is None or value > best:
            best, best_game = value, after
    if len(game.players) == 2:
        return -best if best is not None else valuer.relative(game, seat)
    return valuer.relative(best_game, seat)


def _reply_kinds(game: Game, tile: str, budget: int) -> dict[str, int]:
    """The kinds of tile the replies are tried with, most numerous first, as many as
    ``budget`` valued replies allow (at least one), with their counts."""
    bag = dict(game.bag())
    bag[tile] -= 1
    chosen: dict[str, int] = {}
    spent = 0
    for name, count in sorted(bag.items(), key=lambda item: (-item[1], item[0])):
        if not count:
            continue
        cost = sum(1 + len(move.followers) for move in game.legal_moves(name))
        if chosen and spent + cost > budget:
            continue
        chosen[name] = count
        spent += cost
    return chosen


def _strong(game: Game, tile: str) -> Placement:
    valuer = _Valuer(game, STRONG)
    ranked = _one_ply(game, tile, valuer)
    shortlist = ranked[: STRONG.reply_shortlist]
    if len(shortlist) < 2 or game.tiles_left <= 1:
        return ranked[0][1]
    seat = game.to_move
    kinds = _reply_kinds(game, tile, STRONG.reply_budget // len(shortlist))
    total = sum(kinds.values())
    best: tuple[float, Placement] | None = None
    for _, placement, after in shortlist:
        reply_valuer = _Valuer(after, STRONG)
        expected = 0.0
        for name, count in kinds.items():
            if after.can_place(name):
                value = _best_reply_value(after, name, reply_valuer, seat)
            else:
                value = reply_valuer.relative(after, seat)
            expected += count / total * value
        if best is None or expected > best[0]:
            best = (expected, placement)
    assert best is not None
    return best[1]


_PLAYERS: dict[str, Callable[[Game, str], Placement]] = {
    "easy": _easy,
    "normal": _normal,
    "strong": _strong,
}
