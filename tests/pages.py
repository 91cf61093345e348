"""Helpers for page tests: htmx requests, a round's form fields, the boards as listed, the
events of a page's stream."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from django.http import StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.test import Client
from django.urls import reverse

import rules
from accounts.models import User

#: Extra arguments of a test client request that make it an htmx request.
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def turn_fields(round_number: int, turn: rules.Turn) -> dict[str, object]:
    fields: dict[str, object] = {
        "round": round_number,
        "rot": turn.placement.rotation,
        "at": "{},{}".format(*turn.placement.card_at),
    }
    if isinstance(turn.worker, rules.PlaceWorker):
        fields["place"] = "{},{}".format(*turn.worker.zone)
    elif isinstance(turn.worker, rules.MoveWorker):
        fields["from"] = "{},{}".format(*turn.worker.source)
        fields["to"] = "{},{}".format(*turn.worker.target)
    return fields


def board_url(ruleset: str, kind: str, page: int | None = None) -> str:
    url = reverse("leaderboards:board", kwargs={"ruleset": ruleset, "kind": kind})
    return url if page is None else f"{url}?page={page}"


def board_names(client: Client, url: str) -> list[str]:
    """The player names of a board page, top to bottom."""
    response = client.get(url)
    assert response.status_code == 200
    return [row.username for row in response.context["board"].rows]


def csp_policy(response: object) -> dict[str, list[str]]:
    """A response's Content-Security-Policy as {directive: [values]}."""
    header = response["Content-Security-Policy"]  # type: ignore[index]
    return {
        name: values
        for name, *values in (part.split() for part in header.split(";") if part.strip())
    }


def client_for(user: User) -> Client:
    """A test client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


#: How long a stream may say nothing: long enough for a loaded machine; a stream that says
#: nothing fails the test, never hangs it.
STREAM_WAIT_SECONDS = 20.0


class Events:
    """The events of one open stream (an async client's response), as a browser's
    EventSource parses them."""

    def __init__(self, response: HttpResponseBase) -> None:
        assert isinstance(response, StreamingHttpResponse), response.status_code
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        self._chunks: AsyncIterator[bytes] = aiter(response.streaming_content)  # type: ignore[arg-type]
        self._buffer = ""
        self._response = response

    async def opened(self) -> None:
        """Wait for the stream's first line (its ``retry``): sent once the server listens
        to the stream's channels, so an event published from then on reaches it."""
        while "\n\n" not in self._buffer:
            chunk = await asyncio.wait_for(anext(self._chunks), STREAM_WAIT_SECONDS)
            self._buffer += chunk.decode() if isinstance(chunk, bytes) else str(chunk)

    async def next(self) -> dict[str, str]:
        """The next event with a name (keep-alive comments and ``retry`` skipped), within
        ``STREAM_WAIT_SECONDS`` however many keep-alives come meanwhile."""
        loop = asyncio.get_running_loop()
        until = loop.time() + STREAM_WAIT_SECONDS
        while True:
            while "\n\n" not in self._buffer:
                left = max(0.0, until - loop.time())
                chunk = await asyncio.wait_for(anext(self._chunks), left)
                self._buffer += chunk.decode() if isinstance(chunk, bytes) else str(chunk)
            block, self._buffer = self._buffer.split("\n\n", 1)
            fields = dict(
                line.split(": ", 1) for line in block.splitlines() if not line.startswith(":")
            )
            if "event" in fields:
                return fields

    async def ends(self) -> bool:
        """Whether the server ends the stream within ``STREAM_WAIT_SECONDS``, whatever it
        sends meanwhile."""

        async def drain() -> None:
            async for _chunk in self._chunks:
                pass

        try:
            await asyncio.wait_for(drain(), STREAM_WAIT_SECONDS)
        except TimeoutError:
            return False
        return True

    async def close(self) -> None:
        """Hang up, as a closed tab does: the response ends, as a server ends it (the test
        client's wrapper, the response's own iterator, then closes it)."""
        for chunks in (self._chunks, getattr(self._response, "_iterator", None)):
            closing = getattr(chunks, "aclose", None)
            if closing is not None:
                await closing()
