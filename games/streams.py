"""Server push to a Limes game's pages and the lobby: their event streams, built on the
floor's (``floor.streams``: the hub, the limits, the response)."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator

from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _

from core import tokens
from core.polls import poll
from floor import push
from floor.streams import (
    CLOSE,
    KEEPALIVE_SECONDS,
    RETRY_MILLISECONDS,
    Message,
    chat_relay,
    clocked_events,
    hub,
    next_message,
    pushes,
    sse,
    stream_response,
)
from games.pollstate import poll_state


def _relay(message: Message) -> str | None:
    if message.event == push.Event.TABLE:
        # Swapped into the page as it is (htmx's sse-swap): a number, nothing else.
        return sse(push.Event.TABLE, str(int(str(message.data.get("waiting", 0)))))
    return chat_relay(message)


def game_events(game_id: int, known: str, *, lockstep_id: int | None = None) -> AsyncIterator[str]:
    """The events of one game's page, whose browser has seen version ``known``: its
    versions (``push.Event.GAME``, and once more just past the round's deadline, so that
    the page's poll closes the round for everyone), its chat's changes, and with
    ``lockstep_id`` (a live table's game) how many at its table are still to play
    (``push.Event.TABLE``: a count, nothing more).
    """
    channels = [push.game_channel(game_id)]
    if lockstep_id is not None:
        channels.append(push.lockstep_channel(lockstep_id))
    read = functools.partial(poll_state, game_id)
    return clocked_events(channels, push.Event.GAME, read, known, relay=_relay)


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
