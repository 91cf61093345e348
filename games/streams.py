"""Server push to a Limes game's pages and the lobby: their event streams, built on the
floor's (``floor.streams``: the hub, the limits, the response)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.utils.translation import gettext as _

from core import tokens
from core.polls import poll
from floor import push
from floor.streams import (
    CLOSE,
    KEEPALIVE_SECONDS,
    RESYNC,
    RETRY_MILLISECONDS,
    deadline_of,
    deadline_wait,
    hub,
    next_message,
    pushes,
    sse,
    stream_response,
)
from games.pollstate import PollState, poll_state


def _game_event(version: int) -> str:
    # The version is the event's id: a reconnecting browser sends it back (Last-Event-ID).
    return sse(push.Event.GAME, json.dumps({"version": version}), str(version))


def _state(game_id: int) -> PollState | None:
    # Read in a thread of its own, long after its request's end: give the connection back
    # (to the pool) at once, or each open stream would keep one.
    try:
        return poll_state(game_id)
    finally:
        if not connection.in_atomic_block:  # (a test's transaction is left alone)
            connection.close()


async def game_events(
    game_id: int, known: str, *, lockstep_id: int | None = None
) -> AsyncIterator[str]:
    """The events of one game's page, whose browser has seen version ``known``.

    With ``lockstep_id`` (a live table's game), also how many at its table are still to
    play (``push.Event.TABLE``: a count, nothing more).
    """
    channels = [push.game_channel(game_id)]
    if lockstep_id is not None:
        channels.append(push.lockstep_channel(lockstep_id))
    async with hub().subscribe(*channels) as queue:
        state: PollState | None = await sync_to_async(_state)(game_id)
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        if state is None:
            return
        version, deadline = state
        if str(version) != known:
            yield _game_event(version)
        while True:
            message = await next_message(queue, deadline_wait(deadline))
            if message is CLOSE:
                return
            if message is None:
                if deadline is not None and deadline <= timezone.now():
                    # The round's time is up: the page's poll closes it for everyone.
                    deadline = None
                    yield _game_event(version)
                else:
                    yield ": keep-alive\n\n"
                continue
            if message is RESYNC:
                state = await sync_to_async(_state)(game_id)
                if state is None:
                    return
                version, deadline = state
                yield _game_event(version)
                continue
            match message.event:
                case push.Event.CHAT:
                    # The chat changed: the panel asks for what is new (social.views), as
                    # its poll would; the round's clock and the board are untouched.
                    yield sse(push.Event.CHAT, "{}")
                case push.Event.TABLE:
                    # Swapped into the page as it is (htmx's sse-swap): a number, nothing else.
                    yield sse(push.Event.TABLE, str(int(str(message.data.get("waiting", 0)))))
                case push.Event.GAME:
                    version = int(message.data.get("version", version))
                    deadline = deadline_of(message.data.get("deadline"))
                    yield _game_event(version)


async def lobby_events() -> AsyncIterator[str]:
    """The events of the lobby's page: its list of open games may have changed."""
    async with hub().subscribe(push.LOBBY) as queue:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        # A page opened or reconnected may have missed a change: it asks once.
        yield sse(push.Event.LOBBY, "{}")
        while True:
            message = await next_message(queue, KEEPALIVE_SECONDS)
            if message is CLOSE:
                return
            yield ": keep-alive\n\n" if message is None else sse(push.Event.LOBBY, "{}")


@poll
async def game_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The game's events, for a page drawn for this session (its poll token ``t``)."""
    session = tokens.session_cookie(request)
    if not tokens.is_valid(request.GET.get("t", ""), tokens.Scope.GAME, session, pk):
        # As the poll: without a page drawn for this session, the game is missing. A bare
        # answer (a browser's EventSource shows no page): no session, menu or query.
        return HttpResponseNotFound(_("No such game."), content_type="text/plain")
    if not pushes(request):
        return HttpResponse(status=204)
    known = request.headers.get("Last-Event-ID") or request.GET.get("v", "")
    # A live table's count of players still to play is no secret: any table may be asked.
    table = request.GET.get("table", "")
    lockstep_id = int(table) if table.isascii() and table.isdigit() and len(table) < 12 else None
    return await stream_response(request, game_events(pk, known[:20], lockstep_id=lockstep_id))


@poll
async def lobby_stream(request: HttpRequest) -> HttpResponseBase:
    """The lobby's events: a game opened, filled, started or was called off."""
    if not pushes(request):
        return HttpResponse(status=204)
    return await stream_response(request, lobby_events())
