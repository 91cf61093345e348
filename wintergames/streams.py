"""Server push to a Winter game's page: its event stream on ``floor.streams``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _

from core import tokens
from core.polls import poll
from floor import push
from floor.streams import pushes, stream_response, version_events
from wintergames.models import WinterGame
from wintergames.views import TOKEN_KIND


def _version(game_id: int) -> int | None:
    # Run in a thread by ``version_events``, which gives its connection back.
    return WinterGame.objects.filter(pk=game_id).values_list("version", flat=True).first()


@poll
async def game_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The game's events (``push.Event.GAME``), for a page drawn for this session."""
    session = tokens.session_cookie(request)
    if not tokens.is_valid(request.GET.get("t", ""), tokens.Scope.GAME, session, pk, TOKEN_KIND):
        return HttpResponseNotFound(_("No such game."), content_type="text/plain")
    if not pushes(request):
        return HttpResponse(status=204)
    known = (request.headers.get("Last-Event-ID") or request.GET.get("v", ""))[:20]
    events = version_events(
        push.winter_game_channel(pk), push.Event.GAME, lambda: _version(pk), known
    )
    return await stream_response(request, events)
