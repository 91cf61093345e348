"""A game of Carcassonne: Winter Edition: the board, features, followers and scores.

Features are joined by union-find over the segments of the placed tiles: each segment gets
a number, and the root of its set holds the feature's data (open sides, tiles, shields,
bordered cities, followers). :meth:`Game.play` checks a turn completely before it changes
anything, so a refused turn leaves the game as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from winter.errors import IllegalMoveError, InvalidInputError
from winter.tiles import (
    FOLLOWER_PLACES,
    ROTATIONS,
    START_TILE,
    FeatureKind,
    Orientation,
    Terrain,
    bag_counts,
    distinct_rotations,
    orientation,
    tile_kind,
)

Point = tuple[int, int]
"""A place on the board, ``(row, col)``: rows grow to the south, columns to the east."""

FOLLOWERS_PER_PLAYER = 7
MIN_PLAYERS, MAX_PLAYERS = 2, 5
DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W
AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
CLOISTER_POINTS = 9
FARMER_POINTS = 3
_SIDE_NAMES = ("north", "east", "south", "west")


@dataclass(frozen=True)
class Options:
    """The rule options of a game: ``farmers=False`` plays without farmers."""

    farmers: bool = True


@dataclass(frozen=True)
class Placement:
    """A turn: ``tile`` placed at ``at`` turned ``rotation`` degrees clockwise, with the
    follower on the segment ``follower`` names (``"N"``, ``"e1"``, ``"cloister"``) or none."""

    tile: str
    at: Point
    rotation: int
    follower: str | None = None


@dataclass(frozen=True)
class SetAside:
    """A tile that fits nowhere, set aside; the same player draws again."""

    tile: str


Turn = Placement | SetAside


@dataclass(frozen=True)
class LegalMove:
    """Where a tile may go (``at``, ``rotation``) and the followers then allowed, by name."""

    at: Point
    rotation: int
    followers: tuple[str, ...]

    def iter_placements(self, tile: str) -> Iterator[Placement]:
        """Every turn this move allows: without a follower, then with each follower."""
        yield Placement(tile, self.at, self.rotation, None)
        for name in self.followers:
            yield Placement(tile, self.at, self.rotation, name)


@dataclass(frozen=True)
class Scoring:
    """What one feature scored and why: ``points`` for each seat of ``players``.

    ``tiles`` counts a tile once however many of its segments the feature holds; ``cities``
    is, for a field, the complete cities it borders. ``at`` and ``segment`` name one segment
    of the feature (for a field, one holding a farmer).
    """

    kind: FeatureKind
    players: tuple[int, ...]
    points: int
    tiles: int
    shields: int
    complete: bool
    at: Point
    segment: str
    cities: int = 0


@dataclass(frozen=True)
class Follower:
    """A follower on the board: its owner's seat and the segment it stands on."""

    player: int
    at: Point
    segment: str


@dataclass(frozen=True)
class Feature:
    """A feature on the board as the site shows it.

    ``points`` is what its majority would score were it scored now (the during-play value
    if complete, the end-of-game value otherwise); ``points_if_completed`` what completing
    it now would give (cities and roads; a cloister's 9).
    """

    kind: FeatureKind
    complete: bool
    tiles: tuple[Point, ...]
    segments: tuple[tuple[Point, str], ...]
    shields: int
    followers: tuple[Follower, ...]
    open_sides: int
    points: int
    points_if_completed: int
    cities: int = 0
    players: tuple[int, ...] = field(default=())


def deal(seed: int | str) -> tuple[str, ...]:
    """The order of the 83 tiles to draw for ``seed``; the same seed gives the same order.

    >>> len(deal(1)), deal(1) == deal(1), deal(1) == deal(2)
    (83, True, False)
    """
    tiles = [name for name, count in bag_counts().items() for _ in range(count)]
    random.Random(seed).shuffle(tiles)
    return tuple(tiles)


def rank(totals: Sequence[int]) -> list[list[int]]:
    """Places from first to last, each a list of the seats sharing it.

    >>> rank([10, 12, 10])
    [[1], [0, 2]]
    """
    ranking: list[list[int]] = []
    for total in sorted(set(totals), reverse=True):
        ranking.append([seat for seat, t in enumerate(totals) if t == total])
    return ranking


def _fitting_rotations(name: str, required: tuple[Terrain | None, ...]) -> tuple[int, ...]:
    key = (name, required)
    found = _FITTING.get(key)
    if found is None:
        found = tuple(
            rotation
            for rotation in distinct_rotations(name)
            if all(
                need is None or need is side
                for need, side in zip(required, orientation(name, rotation).sides, strict=True)
            )
        )
        _FITTING[key] = found
    return found


_FITTING: dict[tuple[str, tuple[Terrain | None, ...]], tuple[int, ...]] = {}


class Game:
    """A game in progress: the board, the features, the followers, the scores.

    ``order`` is the deal (see :func:`deal`): with it, :attr:`drawn` is the tile to place and
    tiles that fit nowhere are set aside automatically. Without it (a record being
    replayed), each turn names its tile, which must still be in the bag.
    """

    def __init__(
        self,
        players: Sequence[str],
        options: Options = Options(),
        order: Sequence[str] | None = None,
    ) -> None:
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise InvalidInputError(
                f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
            )
        if len(set(players)) != len(players):
            raise InvalidInputError("two players have the same name")
        self.players: tuple[str, ...] = tuple(players)
        self.options = options
        self.turns: list[Turn] = []
        self.scorings: list[tuple[Scoring, ...]] = []
        self._board: dict[Point, Orientation] = {}
        self._base: dict[Point, int] = {}
        self._parent: list[int] = []
        # Each feature's segments by its root (tuples: a copy of the game shares them).
        self._members: dict[int, tuple[int, ...]] = {}
        self._kind: list[FeatureKind] = []
        self._where: list[tuple[Point, int]] = []
        self._open: dict[int, int] = {}
        self._tiles: dict[int, frozenset[Point]] = {}
        self._shields: dict[int, int] = {}
        self._borders: dict[int, frozenset[int]] = {}
        self._followers: dict[int, tuple[int, ...]] = {}
        self._owner: dict[int, int] = {}
        self._cloisters: dict[Point, int] = {}
        self._required: dict[Point, tuple[Terrain | None, ...]] = {}
        self._bag = bag_counts()
        self._left = sum(self._bag.values())
        self._supply = [FOLLOWERS_PER_PLAYER] * len(players)
        self._score = [0] * len(players)
        self._to_move = 0
        self._order: tuple[str, ...] | None = None
        self._place(orientation(START_TILE, 0), (0, 0))
        if order is not None:
            counts: dict[str, int] = {}
            for name in order:
                tile_kind(name)
                counts[name] = counts.get(name, 0) + 1
            if counts != {k: v for k, v in self._bag.items() if v}:
                raise InvalidInputError("the order is not the 83 tiles of the bag")
            self._order = tuple(order)
            self._set_aside_unplayable()

    # -- reading the position ------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The seat of the player whose turn it is."""
        return self._to_move

    @property
    def drawn(self) -> str | None:
        """The tile the player to move has drawn (games with a deal), or ``None``."""
        if self._order is None or self._left == 0:
            return None
        return self._order[len(self.turns)]

    def is_over(self) -> bool:
        """Whether every tile has been placed or set aside."""
        return self._left == 0

    @property
    def board(self) -> dict[Point, tuple[str, int]]:
        """Each placed tile's name and rotation, by place."""
        return {at: (o.kind.name, o.rotation) for at, o in self._board.items()}

    def tile_at(self, at: Point) -> tuple[str, int] | None:
        """The name and rotation of the tile at ``at``, or ``None``."""
        placed = self._board.get(at)
        return None if placed is None else (placed.kind.name, placed.rotation)

    def bag(self) -> dict[str, int]:
        """The tiles left in the bag by kind (public: everyone can count them)."""
        return {name: count for name, count in self._bag.items() if count}

    @property
    def tiles_left(self) -> int:
        """How many tiles the bag still holds."""
        return self._left

    def supply(self, seat: int) -> int:
        """How many followers the player at ``seat`` has in supply."""
        return self._supply[seat]

    def score(self, seat: int) -> int:
        """The points the player at ``seat`` has scored during play."""
        return self._score[seat]

    @property
    def scores(self) -> tuple[int, ...]:
        """Every player's points scored during play, by seat."""
        return tuple(self._score)

    def copy(self, *, hide_order: bool = False) -> Game:
        """An independent copy; ``hide_order`` drops the deal (a public view of the game)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.turns = list(self.turns)
        other.scorings = list(self.scorings)
        for name in ("_board", "_base", "_open", "_tiles", "_shields", "_borders", "_members"):
            setattr(other, name, dict(getattr(self, name)))
        for name in ("_followers", "_owner", "_cloisters", "_required", "_bag"):
            setattr(other, name, dict(getattr(self, name)))
        other._parent = list(self._parent)
        other._kind = list(self._kind)
        other._where = list(self._where)
        other._supply = list(self._supply)
        other._score = list(self._score)
        if hide_order:
            other._order = None
        return other

    # -- legal moves ---------------------------------------------------------------------

    def iter_fits(self, tile: str) -> Iterator[tuple[Point, int]]:
        """Every place and rotation where ``tile`` fits, unsorted (one per distinct picture)."""
        tile_kind(tile)
        for at, required in self._required.items():
            for rotation in _fitting_rotations(tile, required):
                yield at, rotation

    def can_place(self, tile: str) -> bool:
        """Whether ``tile`` fits anywhere on the board."""
        return next(self.iter_fits(tile), None) is not None

    def legal_moves(self, tile: str) -> list[LegalMove]:
        """Where ``tile`` may go, sorted by place then rotation, with the followers allowed
        (none when the player to move has no follower in supply); ``[]`` if it fits nowhere.
        Raises InvalidInputError for an unknown tile."""
        moves = []
        for at, rotation in sorted(self.iter_fits(tile)):
            placed = orientation(tile, rotation)
            followers = self._allowed_followers(at, placed) if self._supply[self._to_move] else ()
            moves.append(LegalMove(at, rotation, followers))
        return moves

    def iter_placements(self, tile: str) -> Iterator[Placement]:
        """Every legal turn with ``tile``: each move without, then with each follower."""
        for move in self.legal_moves(tile):
            yield from move.iter_placements(tile)

    def is_legal(self, turn: Turn) -> bool:
        """Whether ``turn`` may be played now."""
        try:
            self._check(turn)
        except (IllegalMoveError, InvalidInputError):
            return False
        return True

    def open_places(self) -> list[Point]:
        """The empty places that share a side with a placed tile, sorted."""
        return sorted(self._required)

    def iter_dead_places(self) -> Iterator[Point]:
        """Empty places beside the board that no tile left in the bag can ever fill."""
        names = [name for name, count in self._bag.items() if count]
        for at, required in sorted(self._required.items()):
            if not any(_fitting_rotations(name, required) for name in names):
                yield at

    # -- features ------------------------------------------------------------------------

    def feature_at(self, at: Point, segment: str) -> Feature:
        """The feature that the segment ``segment`` of the tile at ``at`` belongs to.

        Raises InvalidInputError when no tile is there or the name names no segment."""
        placed = self._board.get(at)
        index = None if placed is None else placed.segment_named(segment)
        if placed is None or index is None:
            raise InvalidInputError(f"no segment {segment!r} at {list(at)}")
        return self._feature(self._find(self._base[at] + index))

    def iter_features(self) -> Iterator[Feature]:
        """Every feature on the board (cities, roads, cloisters and fields)."""
        for root in sorted(self._members):
            yield self._feature(root)

    def _feature(self, root: int) -> Feature:
        kind = self._kind[root]
        members = sorted(self._members[root])
        segments = tuple(
            (self._where[g][0], self._board[self._where[g][0]].segment_name[self._where[g][1]])
            for g in members
        )
        followers = tuple(
            Follower(self._owner[g], self._where[g][0], self._name_of(g))
            for g in self._followers.get(root, ())
        )
        complete = self._is_complete(root)
        tiles = tuple(sorted({self._where[g][0] for g in members}))
        shields = self._shields.get(root, 0)
        cities = self._cities_bordered(root) if kind is FeatureKind.FIELD else 0
        if kind is FeatureKind.CLOISTER:
            filled = self._around(self._where[root][0])
            points_end = 1 + filled
            points_done = CLOISTER_POINTS
            tiles = tuple(
                sorted(
                    (self._where[root][0][0] + dr, self._where[root][0][1] + dc)
                    for dr, dc in ((0, 0), *AROUND)
                    if (self._where[root][0][0] + dr, self._where[root][0][1] + dc) in self._board
                )
            )
        elif kind is FeatureKind.FIELD:
            points_end = points_done = FARMER_POINTS * cities if self.options.farmers else 0
        else:
            points_end, points_done = self._points(kind, len(tiles), shields)
        return Feature(
            kind,
            complete,
            tiles,
            segments,
            shields,
            followers,
            self._open.get(root, 0),
            points_done if complete else points_end,
            points_done,
            cities,
            self._majority(self._followers.get(root, ())) if root in self._followers else (),
        )

    def _name_of(self, gid: int) -> str:
        at, index = self._where[gid]
        return self._board[at].segment_name[index]

    @staticmethod
    def _points(kind: FeatureKind, tiles: int, shields: int) -> tuple[int, int]:
        """(end-of-game points, completion points) of a city or road."""
        if kind is FeatureKind.CITY:
            return tiles + shields, 2 * (tiles + shields)
        return tiles, tiles

    def _is_complete(self, root: int) -> bool:
        kind = self._kind[root]
        if kind is FeatureKind.CLOISTER:
            return self._around(self._where[root][0]) == 8
        if kind is FeatureKind.FIELD:
            return False
        return self._open[root] == 0

    def _around(self, at: Point) -> int:
        row, col = at
        board = self._board
        return sum((row + dr, col + dc) in board for dr, dc in AROUND)

    def _cities_bordered(self, root: int) -> int:
        cities = {self._find(city) for city in self._borders.get(root, ())}
        return sum(1 for city in cities if self._open[city] == 0)

    def _majority(self, gids: Sequence[int]) -> tuple[int, ...]:
        if len(gids) == 1:
            return (self._owner[gids[0]],)
        counts = [0] * len(self.players)
        for gid in gids:
            counts[self._owner[gid]] += 1
        most = max(counts)
        if most == 0:
            return ()
        return tuple(seat for seat, count in enumerate(counts) if count == most)

    # -- scoring at the end --------------------------------------------------------------

    def final_scorings(self) -> tuple[Scoring, ...]:
        """What would score were the game to end now: unfinished features with followers
        and, with farmers, the fields. Changes nothing."""
        found = []
        for root, gids in sorted(self._followers.items()):
            if not gids:
                continue
            players = self._majority(gids)
            kind = self._kind[root]
            at, segment = self._where[gids[0]][0], self._name_of(gids[0])
            if kind is FeatureKind.FIELD:
                if not self.options.farmers:
                    continue
                cities = self._cities_bordered(root)
                found.append(
                    Scoring(kind, players, FARMER_POINTS * cities, 0, 0, False, at, segment, cities)
                )
            elif kind is FeatureKind.CLOISTER:
                points = 1 + self._around(self._where[root][0])
                found.append(Scoring(kind, players, points, points, 0, False, at, segment))
            else:
                tiles = len(self._tiles[root])
                shields = self._shields[root]
                points = self._points(kind, tiles, shields)[0]
                found.append(Scoring(kind, players, points, tiles, shields, False, at, segment))
        return tuple(found)

    def end_points(self) -> tuple[int, ...]:
        """Each seat's end-of-game points were the game to end now."""
        points = [0] * len(self.players)
        for scoring in self.final_scorings():
            for seat in scoring.players:
                points[seat] += scoring.points
        return tuple(points)

    def totals(self) -> tuple[int, ...]:
        """Each seat's points during play plus the end-of-game points were it to end now."""
        return tuple(a + b for a, b in zip(self._score, self.end_points(), strict=True))

    # -- playing -------------------------------------------------------------------------

    def play(self, turn: Turn) -> tuple[Scoring, ...]:
        """Play ``turn`` for the player to move and return what it scored.

        Raises IllegalMoveError (a rule broken: the message names the turn and the rule) or
        InvalidInputError (a malformed turn); either way the game is unchanged.
        """
        checked = self._check(turn)
        events: tuple[Scoring, ...] = ()
        if isinstance(turn, SetAside):
            self._take(turn.tile)
            self.turns.append(turn)
            self.scorings.append(())
        else:
            assert checked is not None
            placed, follower = checked
            self._take(turn.tile)
            events = self._place(placed, turn.at, follower, self._to_move)
            self.turns.append(turn)
            self.scorings.append(events)
            self._to_move = (self._to_move + 1) % len(self.players)
        if self._order is not None:
            # The next tiles drawn that fit nowhere are set aside here: what ``turn`` scored
            # is its own, whatever follows (else it would tell of a tile not yet drawn).
            self._set_aside_unplayable()
        return events

    def _play_known_legal(self, turn: Placement) -> None:
        """Play a turn taken from :meth:`iter_placements` without checking it again."""
        placed = orientation(turn.tile, turn.rotation)
        follower = None if turn.follower is None else placed.segment_named(turn.follower)
        self._take(turn.tile)
        self.scorings.append(self._place(placed, turn.at, follower, self._to_move))
        self.turns.append(turn)
        self._to_move = (self._to_move + 1) % len(self.players)
        if self._order is not None:
            self._set_aside_unplayable()

    def _take(self, tile: str) -> None:
        self._bag[tile] -= 1
        self._left -= 1

    def _set_aside_unplayable(self) -> None:
        while (tile := self.drawn) is not None and not self.can_place(tile):
            self._take(tile)
            self.turns.append(SetAside(tile))
            self.scorings.append(())

    def _refuse(self, rule: str) -> IllegalMoveError:
        number = len(self.turns) + 1
        return IllegalMoveError(f"turn {number} ({self.players[self._to_move]}): {rule}")

    def _check(self, turn: Turn) -> tuple[Orientation, int | None] | None:
        """The turn's orientation and follower segment, or the error it breaks."""
        if not isinstance(turn, Placement | SetAside):
            raise InvalidInputError(f"not a turn: {turn!r}")
        tile = turn.tile
        tile_kind(tile)
        if self._left == 0:
            raise self._refuse("the game is over: the bag is empty")
        if self._order is not None and tile != self.drawn:
            raise self._refuse(f"the tile drawn is {self.drawn}, not {tile}")
        if self._bag[tile] == 0:
            raise self._refuse(f"no {tile} is left in the bag")
        if isinstance(turn, SetAside):
            fit = next(self.iter_fits(tile), None)
            if fit is not None:
                raise self._refuse(
                    f"{tile} may not be set aside: it fits at {list(fit[0])} in rotation {fit[1]}"
                )
            return None
        if turn.rotation not in ROTATIONS:
            raise InvalidInputError(f"rotation {turn.rotation!r} is not 0, 90, 180 or 270")
        at = turn.at
        if at in self._board:
            raise self._refuse(f"{tile} cannot go at {list(at)}: a tile is there already")
        required = self._required.get(at)
        if required is None:
            raise self._refuse(
                f"{tile} cannot go at {list(at)}: it would share no side with a placed tile"
            )
        placed = orientation(tile, turn.rotation)
        for side, (need, have) in enumerate(zip(required, placed.sides, strict=True)):
            if need is not None and need is not have:
                raise self._refuse(
                    f"{tile} does not fit at {list(at)} in rotation {turn.rotation}: its "
                    f"{_SIDE_NAMES[side]} side ({have.value}) meets {need.value}"
                )
        if turn.follower is None:
            return placed, None
        name = turn.follower
        if name not in FOLLOWER_PLACES:
            raise InvalidInputError(f"{name!r} names no place for a follower")
        index = placed.segment_named(name)
        where = f"{tile} at {list(at)} in rotation {turn.rotation}"
        if index is None:
            raise self._refuse(f"a follower cannot go on {name}: {where} has no segment there")
        if self._supply[self._to_move] == 0:
            raise self._refuse("a follower cannot be placed: none is left in supply")
        kind = placed.segments[index].kind
        if kind is FeatureKind.FIELD and not self.options.farmers:
            raise self._refuse("a follower cannot go on a field: the game is without farmers")
        if placed.segment_name[index] not in self._allowed_followers(at, placed):
            raise self._refuse(
                f"a follower cannot go on {name}: the {kind.value} it joins already holds one"
            )
        return placed, index

    def _links(self, at: Point, placed: Orientation) -> tuple[list[tuple[int, int]], ...]:
        """(segment, neighbour's segment) pairs across each shared side: city and road
        sides first, then field half-sides."""
        sides: list[tuple[int, int]] = []
        halves: list[tuple[int, int]] = []
        row, col = at
        board = self._board
        for side, (dr, dc) in enumerate(DELTAS):
            other = (row + dr, col + dc)
            neighbour = board.get(other)
            if neighbour is None:
                continue
            base = self._base[other]
            facing = (side + 2) % 4
            segment = placed.side_segment[side]
            if segment >= 0 and placed.segments[segment].kind is not FeatureKind.FIELD:
                sides.append((segment, base + neighbour.side_segment[facing]))
            for half, opposite in ((2 * side, 2 * facing + 1), (2 * side + 1, 2 * facing)):
                segment = placed.half_segment[half]
                if segment >= 0:
                    halves.append((segment, base + neighbour.half_segment[opposite]))
        return sides, halves

    def _allowed_followers(self, at: Point, placed: Orientation) -> tuple[str, ...]:
        segments = placed.segments
        sides, halves = self._links(at, placed)
        roots: list[set[int]] = [set() for _ in segments]
        for segment, gid in sides + halves:
            roots[segment].add(self._find(gid))
        followers = self._followers
        taken = {root for group in roots for root in group if followers.get(root)}
        blocked: set[int] = set()
        if taken:
            # Two segments of the new tile joined through a feature share its followers.
            changed = True
            while changed:
                changed = False
                for index, group in enumerate(roots):
                    if index not in blocked and group & taken:
                        blocked.add(index)
                        taken |= group
                        changed = True
        farmers = self.options.farmers
        names = [
            placed.segment_name[index]
            for index, segment in enumerate(segments)
            if index not in blocked and (farmers or segment.kind is not FeatureKind.FIELD)
        ]
        return tuple(sorted(names, key=FOLLOWER_PLACES.index))

    def _find(self, gid: int) -> int:
        parent = self._parent
        while parent[gid] != gid:
            parent[gid] = parent[parent[gid]]
            gid = parent[gid]
        return gid

    def _union(self, a: int, b: int) -> int:
        ra, rb = self._find(a), self._find(b)
        if ra == rb:
            return ra
        if ra > rb:
            ra, rb = rb, ra
        self._parent[rb] = ra
        self._members[ra] += self._members.pop(rb)
        if rb in self._open:
            self._open[ra] += self._open.pop(rb)
            self._tiles[ra] = self._tiles[ra] | self._tiles.pop(rb)
            self._shields[ra] += self._shields.pop(rb)
        if rb in self._borders:
            self._borders[ra] = self._borders[ra] | self._borders.pop(rb)
        moved = self._followers.pop(rb, None)
        if moved:
            self._followers[ra] = self._followers.get(ra, ()) + moved
        return ra

    def _place(
        self,
        placed: Orientation,
        at: Point,
        follower: int | None = None,
        seat: int = 0,
    ) -> tuple[Scoring, ...]:
        sides, halves = self._links(at, placed) if self._board else ([], [])
        base = len(self._parent)
        self._board[at] = placed
        self._base[at] = base
        here = frozenset((at,))
        for index, segment in enumerate(placed.segments):
            gid = base + index
            self._parent.append(gid)
            self._members[gid] = (gid,)
            self._kind.append(segment.kind)
            self._where.append((at, index))
            if segment.kind is FeatureKind.CITY or segment.kind is FeatureKind.ROAD:
                self._open[gid] = len(segment.sides)
                self._tiles[gid] = here
                self._shields[gid] = int(segment.shield)
            elif segment.kind is FeatureKind.FIELD:
                self._borders[gid] = frozenset(base + city for city in segment.borders)
            else:
                self._cloisters[at] = gid
        for index, gid in sides:
            root = self._union(base + index, gid)
            self._open[root] -= 2
        for index, gid in halves:
            self._union(base + index, gid)
        if follower is not None:
            gid = base + follower
            root = self._find(gid)
            self._followers[root] = (*self._followers.get(root, ()), gid)
            self._owner[gid] = seat
            self._supply[seat] -= 1
        self._update_required(at, placed)
        return self._score_completed(at, placed, base)

    def _update_required(self, at: Point, placed: Orientation) -> None:
        self._required.pop(at, None)
        row, col = at
        for side, (dr, dc) in enumerate(DELTAS):
            other = (row + dr, col + dc)
            if other in self._board:
                continue
            required = list(self._required.get(other, (None, None, None, None)))
            required[(side + 2) % 4] = placed.sides[side]
            self._required[other] = tuple(required)

    def _score_completed(self, at: Point, placed: Orientation, base: int) -> tuple[Scoring, ...]:
        events = []
        done: set[int] = set()
        for index, segment in enumerate(placed.segments):
            if segment.kind is not FeatureKind.CITY and segment.kind is not FeatureKind.ROAD:
                continue
            root = self._find(base + index)
            if root in done or self._open[root]:
                continue
            done.add(root)
            tiles, shields = len(self._tiles[root]), self._shields[root]
            points = self._points(segment.kind, tiles, shields)[1]
            events.append(
                self._award(
                    segment.kind, root, points, tiles, shields, at, placed.segment_name[index]
                )
            )
        row, col = at
        for dr, dc in ((0, 0), *AROUND):
            spot = (row + dr, col + dc)
            gid = self._cloisters.get(spot)
            if gid is not None and self._around(spot) == 8:
                events.append(
                    self._award(FeatureKind.CLOISTER, gid, CLOISTER_POINTS, 9, 0, spot, "cloister")
                )
        return tuple(event for event in events if event.players)

    def _award(
        self,
        kind: FeatureKind,
        root: int,
        points: int,
        tiles: int,
        shields: int,
        at: Point,
        name: str,
    ) -> Scoring:
        gids = self._followers.pop(root, ())
        players = self._majority(gids)
        for seat in players:
            self._score[seat] += points
        for gid in gids:
            self._supply[self._owner.pop(gid)] += 1
        if gids:
            at, name = self._where[gids[0]][0], self._name_of(gids[0])
        return Scoring(kind, players, points, tiles, shields, True, at, name)
