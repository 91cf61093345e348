"""A tournament page's event stream: its standings changed (``floor.streams`` relays).

The page is anyone's to see, so the stream is too: it refuses only a tournament that does
not exist. An event carries the standings' version and nothing else; the page then asks
the standings view, which shows each viewer what it may (no sealed deal's result).
"""

from __future__ import annotations

import functools

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _

from core.polls import poll
from floor import push, streams
from tournaments.models import Tournament


def _version(pk: int) -> int | None:
    return Tournament.objects.filter(pk=pk).values_list("version", flat=True).first()


@poll
async def tournament_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The tournament's events: ``standings`` with the version, whenever they change."""
    read = functools.partial(_version, pk)
    if await sync_to_async(streams.closing(read))() is None:
        # A bare answer (a browser's EventSource shows no page).
        return HttpResponseNotFound(_("No such tournament."), content_type="text/plain")
    if not streams.pushes(request):
        return HttpResponse(status=204)
    known = request.headers.get("Last-Event-ID") or request.GET.get("v", "")
    return await streams.stream_response(
        request,
        streams.version_events(push.tournament_channel(pk), push.Event.STANDINGS, read, known[:20]),
    )
