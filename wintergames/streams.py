"""Server push to a Winter game's page: its event stream on ``floor.streams``."""

from __future__ import annotations

import functools

from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _

from core import tokens
from core.polls import poll
from floor import push
from floor.streams import chat_relay, clocked_events, pushes, stream_response
from wintergames.pollstate import poll_states


@poll
async def game_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The game's events (``push.Event.GAME``), for a page drawn for this session; one more
    just past a turn's deadline, so that the page's poll plays the late turn out; and its
    chat's changes (``push.Event.CHAT``)."""
    session = tokens.session_cookie(request)
    if not tokens.is_valid(request.GET.get("t", ""), tokens.Scope.WINTER_GAME, session, pk):
        return HttpResponseNotFound(_("No such game."), content_type="text/plain")
    if not pushes(request):
        return HttpResponse(status=204)
    known = (request.headers.get("Last-Event-ID") or request.GET.get("v", ""))[:20]
    # The version and deadline from the cache, as the poll reads them (run in a thread).
    read = functools.partial(poll_states.get, pk)
    events = clocked_events(
        push.winter_game_channel(pk), push.Event.GAME, read, known, relay=chat_relay
    )
    return await stream_response(request, events)
