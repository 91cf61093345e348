"""A signed-in player's event stream: a challenge to or from them changed (``floor.streams``
relays).

Every page of a signed-in player listens to it (``templates/base.html``), so a live
challenge shows wherever its player is, and the challenger's page hears at once that it was
accepted. An event carries the version of the player's challenges and nothing else; the
page then asks ``views.challenge_alerts`` (or the challenge's own page), which shows only
what the player may see.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _

from accounts.models import User
from core import tokens
from core.polls import poll
from floor import push, streams
from social import selectors
from social.views import alerts_unchanged


def _state(user_id: int) -> tuple[int, bool] | None:
    # The version of the player's challenges, and whether any live one is for a page to show.
    user = User.objects.filter(pk=user_id, deleted_at__isnull=True).first()
    if user is None:
        return None
    return selectors.challenges_version(user_id), bool(selectors.live_challenges(user))


def _event(version: int) -> str:
    return streams.sse(push.Event.CHALLENGES, json.dumps({"version": version}), str(version))


async def challenge_events(user_id: int, known: str) -> AsyncIterator[str]:
    """The events of a player's pages, which show their challenges as of ``known``
    (``""``: a page drawn without any live challenge)."""
    async with streams.hub().subscribe(push.user_channel(user_id)) as queue:
        state = await sync_to_async(_closing_state)(user_id)
        yield f"retry: {streams.RETRY_MILLISECONDS}\n\n"
        if state is None:
            return
        version, shown = state
        if not alerts_unchanged(known, str(version), shown):
            yield _event(version)
        while True:
            try:
                message = await asyncio.wait_for(queue.get(), streams.KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if message is streams.RESYNC:
                state = await sync_to_async(_closing_state)(user_id)
                if state is None:
                    return
                version = state[0]
            elif message.event == push.Event.CHALLENGES:
                version = int(str(message.data.get("version", version)))
            else:
                continue
            yield _event(version)


def _closing_state(user_id: int) -> tuple[int, bool] | None:
    # Read in a thread of its own long after the request: the connection goes back to the
    # pool at once (as ``floor.streams.closing``).
    try:
        return _state(user_id)
    finally:
        if not connection.in_atomic_block:  # (a test's transaction is left alone)
            connection.close()


@poll
async def challenge_stream(request: HttpRequest) -> HttpResponseBase:
    """The player's events: ``challenges`` with their version, whenever one changes."""
    user_id = tokens.inbox_user(request)
    if user_id is None:
        # A bare answer (a browser's EventSource shows no page): no session, no query.
        return HttpResponseNotFound(_("No such page."), content_type="text/plain")
    if not streams.pushes(request):
        return HttpResponse(status=204)
    known = request.headers.get("Last-Event-ID") or request.GET.get("v", "")
    return await streams.stream_response(request, challenge_events(user_id, known[:20]))
