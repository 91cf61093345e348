"""Server push, the receiving side: the server-sent event streams that pages listen to.

The generic half: the hub, the limits, the response, ``version_events`` and
``clocked_events``; a game's own streams (``games.streams``, ``wintergames.streams``) build
on them. One stream per tab (htmx's sse extension): a game's page listens to its game's
channel, the lobby to the lobby's. An event only says that the page is stale; the page then
asks the same poll view it asks every few seconds without push, which checks the permission
and draws what changed. So a stream never carries a card, and a stream that is not there (a
WSGI server, a dropped connection) costs only speed: the polls go on until it is back.

Each process has one :class:`Hub` per event loop, the only listener to ``floor.push``'s
transport (one Redis subscription, or one Unix socket), which hands each event to the queues
of the streams on its channel. An idle stream is one queue and one suspended generator: no
thread, no database connection. The database is read only when a stream opens or must catch
up, through ``sync_to_async``.

A stream that (re)connects sends the current state at once unless the browser already has it
(``Last-Event-ID``, else the page's ``v``): no change is lost across a reconnect.

One client cannot hold them all: each process keeps at most ``LIMES_STREAMS_PER_ADDRESS``
streams of one address and ``LIMES_STREAMS_PER_SESSION`` of one browser session (the proxy
counts across the stream servers); one more is refused with 429 and its page polls. A stream
lives only as long as its session: signed out, banned or deleted (each ends the session), it
ends at its next keep-alive, and does not open again.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import datetime
import json
import logging
import os
import secrets
import socket
import threading
import time
import weakref
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any, TypeVar

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import (
    HttpRequest,
    HttpResponse,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from core.clients import client_network
from core.polls import PollState
from floor import push

logger = logging.getLogger(__name__)

T = TypeVar("T")

KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps proxies (HAProxy's 30 s timeouts) from closing a stream."""

RETRY_MILLISECONDS = 1000
"""How soon a browser reconnects a dropped stream."""

QUEUE_SIZE = 16
"""Events a stream may fall behind by; past that it is told to catch up from the state."""

READY_SECONDS = 2.0
"""How long a new stream waits for its process to start listening (the first one only)."""

REDIS_RETRY_SECONDS = 1.0

SESSION_CHECK_SECONDS = 10.0
"""An open stream looks this often (at its next keep-alive) whether its session still lives."""

REFUSED_RETRY_SECONDS = 60
"""The Retry-After of a stream refused past the limits (the page polls meanwhile)."""

DEADLINE_GRACE_SECONDS = 0.5
"""A stream tells its page this long after the turn's deadline, so its poll closes the turn."""


@dataclass(frozen=True)
class Message:
    """One event as a stream receives it."""

    event: str
    data: dict[str, Any] = field(default_factory=dict)


RESYNC = Message("resync")
"""Events may have been missed (a lost Redis connection, a full queue): read the state."""

CLOSE = Message("close")
"""This process lost Redis, so its streams hear nothing: end them, and the pages poll."""


class Hub:
    """This process's listener to ``floor.push``, shared by the streams of one event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._queues: defaultdict[str, set[asyncio.Queue[Message]]] = defaultdict(set)
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._socket: socket.socket | None = None
        self._lost = False

    def start(self) -> None:
        """Listen to Redis, or to a socket of this process's own."""
        if settings.PUSH_REDIS_URL:
            self._task = self.loop.create_task(self._listen_redis(settings.PUSH_REDIS_URL))
        else:
            self._listen_local(Path(settings.PUSH_SOCKET_DIR))

    @property
    def available(self) -> bool:
        """Whether events reach this process (false from losing Redis until it is back)."""
        return not self._lost

    @property
    def streams(self) -> int:
        """How many streams listen through this hub."""
        return sum(len(queues) for queues in self._queues.values())

    @contextlib.asynccontextmanager
    async def subscribe(self, *channels: str) -> AsyncIterator[asyncio.Queue[Message]]:
        """One queue of the events on ``channels`` until the block ends."""
        queue: asyncio.Queue[Message] = asyncio.Queue(maxsize=QUEUE_SIZE)
        for channel in channels:
            self._queues[channel].add(queue)
        try:
            # Listening before the stream reads the state: nothing falls between the two.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), READY_SECONDS)
            yield queue
        finally:
            for channel in channels:
                queues = self._queues.get(channel)
                if queues is not None:
                    queues.discard(queue)
                    if not queues:
                        del self._queues[channel]

    def dispatch(self, raw: bytes) -> None:
        """Hand one event from the transport to the streams of its channel."""
        try:
            decoded = json.loads(raw)
            channel = str(decoded["channel"])
            message = Message(str(decoded["event"]), dict(decoded["data"]))
        except (ValueError, KeyError, TypeError):
            logger.warning("push: an event could not be read: %r", raw[:200])
            return
        for queue in self._queues.get(channel, ()):
            _offer(queue, message)

    def resync(self) -> None:
        """Tell every stream that it may have missed events."""
        for queues in self._queues.values():
            for queue in queues:
                _offer(queue, RESYNC)

    def close_all(self) -> None:
        """End every stream: no event would reach them, and their pages poll instead."""
        for queues in self._queues.values():
            for queue in queues:
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(CLOSE)

    def _listen_local(self, folder: Path) -> None:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = folder / f"{os.getpid()}-{secrets.token_hex(4)}{push.SOCKET_SUFFIX}"
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(str(path))
        listener.setblocking(False)
        atexit.register(path.unlink, missing_ok=True)
        self._socket = listener
        self.loop.add_reader(listener.fileno(), self._read_local)
        self._ready.set()

    def _read_local(self) -> None:
        assert self._socket is not None
        while True:
            try:
                raw = self._socket.recv(65536)
            except BlockingIOError:
                return
            self.dispatch(raw)

    async def _listen_redis(self, url: str) -> None:
        client = redis.asyncio.Redis.from_url(url, health_check_interval=30)
        reconnecting = False
        while True:
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(push.redis_channel())
                    self._ready.set()
                    self._lost = False
                    if reconnecting:
                        self.resync()
                    async for message in pubsub.listen():
                        if message["type"] == "message":
                            self.dispatch(message["data"])
            except (redis.RedisError, OSError):
                if not self._lost:
                    logger.warning("push: lost Redis, listening again", exc_info=True)
                # Until it is back, pages poll: open streams end, new ones are refused.
                self._lost = True
                self._ready.clear()
                self.close_all()
            reconnecting = True
            await asyncio.sleep(REDIS_RETRY_SECONDS)


def _offer(queue: asyncio.Queue[Message], message: Message) -> None:
    if queue.full():
        # A stream this far behind catches up from the state instead.
        while not queue.empty():
            queue.get_nowait()
        message = RESYNC
    queue.put_nowait(message)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The hub of the running event loop, started on first use."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub(loop)
        found.start()
    return found


def sse(event: str, data: str, event_id: str | None = None) -> str:
    """One server-sent event, as the stream sends it."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n"


async def next_message(queue: asyncio.Queue[Message], timeout: float) -> Message | None:
    """The next event on ``queue``, or ``None`` after ``timeout`` seconds of silence."""
    try:
        return await asyncio.wait_for(queue.get(), timeout)
    except TimeoutError:
        return None


def closing(read: Callable[[], T]) -> Callable[[], T]:
    """``read``, then the thread's connection back to the pool: read in a thread of its
    own, long after its request's end, each open stream would otherwise keep one."""

    def reading() -> T:
        try:
            return read()
        finally:
            if not connection.in_atomic_block:  # (a test's transaction is left alone)
                connection.close()

    return reading


def deadline_of(value: object) -> datetime.datetime | None:
    """The deadline an event carries (``floor.push``: ISO 8601, or none)."""
    return parse_datetime(value) if isinstance(value, str) else None


def deadline_wait(deadline: datetime.datetime | None) -> float:
    """How long a stream may wait for its next event: until its next keep-alive, or until
    just past the turn's ``deadline`` if that is sooner."""
    if deadline is None:
        return KEEPALIVE_SECONDS
    left = (deadline - timezone.now()).total_seconds() + DEADLINE_GRACE_SECONDS
    return min(KEEPALIVE_SECONDS, max(0.0, left))


def version_events(
    channel: str, event: str, read: Callable[[], int | None], known: str
) -> AsyncIterator[str]:
    """The events of a page showing one versioned thing, whose browser has seen ``known``.

    For another app's stream: ``read`` (a plain function, run in a thread) gives the
    current version, ``None`` when the thing is gone; each ``event`` published on
    ``channel`` carries ``{"version": n}``, passed on with the version as its id.
    """

    def state() -> PollState | None:
        version = read()
        return None if version is None else (version, None)

    return clocked_events(channel, event, state, known)


def chat_relay(message: Message) -> str | None:
    """A ``clocked_events`` relay for a game page with a chat: a change of the chat
    (``push.Event.CHAT``: a message written or hidden) tells the chat's panel to ask for
    what is new, as its poll would; the game's clock and board are untouched."""
    return sse(push.Event.CHAT, "{}") if message.event == push.Event.CHAT else None


async def clocked_events(
    channel: str | Sequence[str],
    event: str,
    read: Callable[[], PollState | None],
    known: str,
    relay: Callable[[Message], str | None] | None = None,
) -> AsyncIterator[str]:
    """``version_events`` for a game whose turn has a clock: ``read`` gives its version and
    deadline (``core.polls.PollStates``), each ``event`` carries both (``floor.push``), and
    just past the deadline the page is told again, so that its poll ends the late turn.

    A page may hear more than its game's versions: the messages of ``channel`` (one, or
    several) that are not ``event`` go to ``relay``, whose answer (an event written with
    ``sse``) the page receives; without one, or when it answers None, they are dropped.
    """
    channels = (channel,) if isinstance(channel, str) else tuple(channel)
    async with hub().subscribe(*channels) as queue:
        state = await sync_to_async(closing(read))()
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        if state is None:
            return
        version, deadline = state
        if str(version) != known:
            yield sse(event, json.dumps({"version": version}), str(version))
        while True:
            message = await next_message(queue, deadline_wait(deadline))
            if message is CLOSE:
                return
            if message is None:
                if deadline is not None and deadline <= timezone.now():
                    # The turn's time is up: the page's poll plays it out for everyone.
                    deadline = None
                else:
                    yield ": keep-alive\n\n"
                    continue
            elif message is RESYNC:
                state = await sync_to_async(closing(read))()
                if state is None:
                    return
                version, deadline = state
            elif message.event == event:
                version = int(message.data.get("version", version))
                deadline = deadline_of(message.data.get("deadline"))
            else:
                relayed = relay(message) if relay is not None else None
                if relayed is not None:
                    yield relayed
                continue
            yield sse(event, json.dumps({"version": version}), str(version))


class _Slot:
    """One open stream's place in the counts, given back once, whatever ends it."""

    def __init__(self, counts: StreamCounts, keys: tuple[str, ...]) -> None:
        self._counts = counts
        self._keys = keys

    def release(self) -> None:
        keys, self._keys = self._keys, ()
        if keys:
            self._counts.give_back(keys)

    def __del__(self) -> None:
        # A response dropped before its first event (the client gone during the
        # middleware) never runs its generator's ``finally``.
        self.release()


class StreamCounts:
    """The streams this process holds, per address and per session."""

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, limits: dict[str, int]) -> _Slot | None:
        """A slot counted under each key of ``limits``; ``None`` if one is at its limit."""
        with self._lock:
            if any(self._open[key] >= limit for key, limit in limits.items()):
                return None
            self._open.update(limits.keys())
        return _Slot(self, tuple(limits))

    def give_back(self, keys: tuple[str, ...]) -> None:
        with self._lock:
            self._open.subtract(keys)
            for key in keys:
                if self._open[key] <= 0:
                    del self._open[key]

    def held(self, key: str) -> int:
        """How many streams are counted under ``key``."""
        with self._lock:
            return self._open[key]


counts = StreamCounts()


def _session_lives(session_key: str) -> bool:
    # Whatever the engine (the database, or the cache in front of it): a session that was
    # flushed (signed out) or deleted (a ban, a deleted account) is gone from both.
    store = import_module(settings.SESSION_ENGINE).SessionStore
    try:
        return bool(store().exists(session_key))
    except Exception:
        # The session's store is out of reach for a moment (a database or Redis restart):
        # the stream goes on, and the next look decides.
        logger.warning("streams: the session could not be checked", exc_info=True)
        return True
    finally:
        if not connection.in_atomic_block:  # (a test's transaction is left alone)
            connection.close()


async def _guarded(events: AsyncIterator[str], slot: _Slot, session_key: str) -> AsyncIterator[str]:
    checked = time.monotonic()
    try:
        async for chunk in events:
            yield chunk
            if session_key and time.monotonic() - checked >= SESSION_CHECK_SECONDS:
                checked = time.monotonic()
                if not await sync_to_async(_session_lives)(session_key):
                    return
    finally:
        slot.release()
        closing_events = getattr(events, "aclose", None)
        if closing_events is not None:
            await closing_events()


def _too_many() -> HttpResponse:
    refused = HttpResponse(
        _("Too many open streams: this page checks for changes by itself instead."),
        status=429,
        content_type="text/plain",
    )
    refused["Retry-After"] = str(REFUSED_RETRY_SECONDS)
    return refused


async def stream_response(request: HttpRequest, events: AsyncIterator[str]) -> HttpResponseBase:
    """The response that sends ``events`` to the browser as they come, for as long as its
    session lives; 429 past this client's limits, 204 for a session that has ended."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")[:64]
    # By /64 for IPv6: one client may hold a whole /64 of addresses.
    limits = {f"address:{client_network(request)}": settings.LIMES_STREAMS_PER_ADDRESS}
    if session_key:
        limits[f"session:{session_key}"] = settings.LIMES_STREAMS_PER_SESSION
    slot = counts.take(limits)
    if slot is None:
        return _too_many()
    if session_key and not await sync_to_async(_session_lives)(session_key):
        # Signed out, banned or deleted: 204, and the browser stops asking.
        slot.release()
        return HttpResponse(status=204)
    response = StreamingHttpResponse(
        _guarded(events, slot, session_key), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache, no-store"
    # No proxy may hold events back to fill a buffer.
    response["X-Accel-Buffering"] = "no"
    # Given back however the response ends: its generator's end (above), its close by the
    # server (a finished response), or, dropped unstarted, the slot's own collection.
    response._resource_closers.append(slot.release)  # type: ignore[attr-defined]
    return response


def pushes(request: HttpRequest) -> bool:
    """Whether ``request`` may hold a stream; else the view answers 204 (the page polls)."""
    # Under WSGI a stream would hold a whole worker for as long as the tab is open: there
    # the page is told (204: the browser stops trying) to go on polling. So it is while
    # this process has lost Redis: no event would come (htmx's sse tries again later).
    return isinstance(request, ASGIRequest) and hub().available
