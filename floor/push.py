"""Server push, the sending side: tell every open stream of a channel that something changed.

This module names every kind of event (:class:`Event`) and every channel (``LOBBY`` and
the ``*_channel`` functions); a service tells of a change through one typed call made
inside its transaction, which says who hears it and what it carries::

    push.game_changed(game.pk, version=game.version, deadline=game.deadline)

(each of them is :func:`publish` with its channel, event and data).

It sends once the current transaction commits (at once outside one), so no stream hears of
a change that is rolled back or that a reader could not see yet. Streams
(``floor.streams``) pass the event on to the browsers listening on that channel; a browser
then fetches what changed through the same views, and the same permission checks, as a
poll would. So an event carries no secret: only what tells a page that it is stale (a
version, a deadline), never a card.

Transport: Redis pub/sub when ``settings.PUSH_REDIS_URL`` is set (every app server of the
cluster hears every event); else Unix datagram sockets in ``settings.PUSH_SOCKET_DIR``
(every process of this machine: the web server and the task worker of ``scripts/serve``).
Either way an event is sent at most once and may be lost (a restart, a full buffer): a
stream that reconnects catches up from the current state, and pages still poll, slowly,
while their stream is down.
"""

from __future__ import annotations

import datetime
import enum
import functools
import json
import logging
import socket
import time
from collections.abc import Mapping
from pathlib import Path

import redis
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)


class Event(enum.StrEnum):
    """Every kind of event a page may hear: its name in the stream (``event:``)."""

    GAME = "game"
    """On a game's channel: the game changed. Data: its ``version`` and ``deadline``."""
    CHAT = "chat"
    """On a game's channel: its chat changed (a message written or hidden). No data."""
    TABLE = "table"
    """On a live table's channel: how many of its players are still to play (``waiting``)."""
    LOBBY = "lobby"
    """On the lobby's channel: a game opened, filled, started or was called off. No data."""
    CHALLENGES = "challenges"
    """On a player's channel: a challenge to or from them changed. Data: the ``version``."""
    STANDINGS = "standings"
    """On a tournament's channel: its standings changed. Data: the ``version``."""


LOBBY = "lobby"
"""The lobby's channel: a game opened, filled, started or called off."""

SOCKET_SUFFIX = ".sock"

Data = Mapping[str, object]


def game_channel(game_id: int) -> str:
    """The channel of one game: every change its pages must show (moves, seats, clock)."""
    return f"game:{game_id}"


def winter_game_channel(game_id: int) -> str:
    """The channel of one Carcassonne: Winter Edition game (``wintergames``): its turns,
    seats and end. Events: ``Event.GAME``, as a Limes game's."""
    return f"winter:{game_id}"


def lockstep_channel(lockstep_id: int) -> str:
    """The channel of one live table (``Lockstep``): who is still to play its round."""
    return f"lockstep:{lockstep_id}"


def user_channel(user_id: int) -> str:
    """The channel of one player, whatever page they are on (a challenge to or from them)."""
    return f"user:{user_id}"


def tournament_channel(tournament_id: int) -> str:
    """The channel of one tournament's page (``tournaments.streams``)."""
    return f"tournament:{tournament_id}"


# -- one call per kind of event: the only places that send --------------------------------


def game_changed(game_id: int, *, version: int, deadline: datetime.datetime | None) -> None:
    """A game's pages are stale: its new ``version``, and its round's clock."""
    data = {"version": version, "deadline": deadline.isoformat() if deadline else None}
    publish(game_channel(game_id), Event.GAME, data)


def winter_game_changed(game_id: int, *, version: int, deadline: datetime.datetime | None) -> None:
    """A Winter game's pages are stale: its new ``version``, and its turn's clock."""
    data = {"version": version, "deadline": deadline.isoformat() if deadline else None}
    publish(winter_game_channel(game_id), Event.GAME, data)


def lobby_changed() -> None:
    """The lobby's list of open games changed."""
    publish(LOBBY, Event.LOBBY, {})


def chat_changed(game_id: int) -> None:
    """A game's chat changed: its panels ask for what is new."""
    publish(game_channel(game_id), Event.CHAT, {})


def table_waiting(lockstep_id: int, waiting: int) -> None:
    """How many players of a live table are still to play its round."""
    publish(lockstep_channel(lockstep_id), Event.TABLE, {"waiting": waiting})


def challenges_changed(user_id: int, *, version: int) -> None:
    """A challenge to or from the player changed; their challenges' new ``version``."""
    publish(user_channel(user_id), Event.CHALLENGES, {"version": version})


def standings_changed(tournament_id: int, *, version: int) -> None:
    """A tournament's standings changed; the tournament's new ``version``."""
    publish(tournament_channel(tournament_id), Event.STANDINGS, {"version": version})


def publish(channel: str, event: Event, data: Data) -> None:
    """Send ``event`` with ``data`` (JSON-able) to every stream on ``channel``, on commit.

    The typed calls above name every channel and event; a new kind of event gets one.
    """
    message = encode(channel, event, data)
    transaction.on_commit(functools.partial(_send, message))


def encode(channel: str, event: str, data: Data) -> bytes:
    """One event as it travels between processes."""
    return json.dumps({"channel": channel, "event": event, "data": data}).encode()


def redis_channel() -> str:
    """The Redis channel every event goes through (one per site sharing a Redis server)."""
    return f"{settings.PUSH_PREFIX}limes:push"


# After a failure to reach Redis, events are dropped unsent for this long: a Redis that
# does not answer must not cost every commit its timeout (the pages poll meanwhile).
PAUSE_SECONDS = 1.0
_paused_until = 0.0


def _send(message: bytes) -> None:
    # A lost event costs a page its quickness, never a player their move: a failure to
    # send is logged, never raised into the request that committed.
    global _paused_until
    try:
        if settings.PUSH_REDIS_URL:
            if time.monotonic() < _paused_until:
                return
            _redis(settings.PUSH_REDIS_URL).publish(redis_channel(), message)
        else:
            _send_local(Path(settings.PUSH_SOCKET_DIR), message)
    except (OSError, redis.RedisError):
        if settings.PUSH_REDIS_URL:
            _paused_until = time.monotonic() + PAUSE_SECONDS
        logger.warning("push: an event could not be sent", exc_info=True)


@functools.cache
def _redis(url: str) -> redis.Redis:
    # Short: a Redis that is away must not hold up the request that committed for long.
    return redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)


@functools.cache
def _sender() -> socket.socket:
    sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sender.setblocking(False)
    return sender


def _send_local(folder: Path, message: bytes) -> None:
    """Send ``message`` to every listening process's socket in ``folder``."""
    if not folder.is_dir():
        return
    for path in folder.glob(f"*{SOCKET_SUFFIX}"):
        try:
            _sender().sendto(message, str(path))
        except ConnectionRefusedError:
            # Nobody reads it: the process that bound it is gone.
            path.unlink(missing_ok=True)
        except (BlockingIOError, FileNotFoundError):
            # A full buffer (a stalled process) or a socket just removed: that one misses it.
            continue
