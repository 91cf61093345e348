"""A stored game as ``winter`` sees it: the deal from the seed, then its turns replayed.

It decides nothing. The rebuilt game is kept per game and version in this process, so a
page drawn again (a poll, a draft step) costs no replay.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from django.db import transaction

import winter
from wintergames.models import WinterGame, WinterSeat, WinterTurn

CACHE_SIZE = 64
_cache: OrderedDict[tuple[int, int, int], winter.Game] = OrderedDict()


def seat_name(seat: WinterSeat) -> str:
    """The player's name in the record: the username, or ``Computer N`` for a computer."""
    if seat.user is not None:
        return seat.user.username
    return f"Computer {seat.position + 1}"


def fresh_game(game: WinterGame, seats: Sequence[WinterSeat]) -> winter.Game:
    """The game at its start: the deal of its seed, nothing played."""
    return winter.Game(
        [seat_name(seat) for seat in seats],
        winter.Options(farmers=game.farmers),
        order=winter.deal(game.seed),
    )


def replay(state: winter.Game, entries: Sequence[object]) -> winter.Game:
    """Play the record's ``entries`` on ``state``; set-aside entries the engine made itself
    are checked, not played again."""
    for number, entry in enumerate(entries, 1):
        turn = winter.turn_from_json(entry, number)
        if number <= len(state.turns):
            if state.turns[number - 1] != turn:
                raise winter.IllegalMoveError(f"turn {number}: the stored turn differs")
            continue
        state.play(turn)
    return state


def winter_game(
    game: WinterGame,
    seats: Sequence[WinterSeat],
    turns: Sequence[WinterTurn] | None = None,
) -> winter.Game:
    """The game's position now (a copy the caller may change)."""
    key = (game.pk, game.version, game.seed)
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached.copy()
    if turns is None:
        turns = list(game.turns.order_by("number"))
    state = replay(fresh_game(game, seats), [turn.entry for turn in turns])
    remember(game, state)  # (keeps a copy of its own: this one is the caller's)
    return state


def remember(game: WinterGame, state: winter.Game) -> None:
    """Keep ``state`` as the game's position at its current version, once the transaction
    that wrote (or read) it has committed. A transaction rolled back after its write leaves
    nothing kept: its version would come again with another position, and a page drawn
    from the kept one would show a board that never was and refuse the real turn."""
    key = (game.pk, game.version, game.seed)
    kept = state.copy()
    transaction.on_commit(lambda: _keep(key, kept))


def _keep(key: tuple[int, int, int], state: winter.Game) -> None:
    _cache[key] = state
    _cache.move_to_end(key)
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)


def forget_all() -> None:
    """Forget every kept position: for tests, whose databases number games afresh (a game
    of the same number, version and seed may have other seats)."""
    _cache.clear()
