"""A minimal server-sent events client, as a browser's EventSource reads a page's stream.

For the end-to-end tests (tests/cluster) and the push benchmark (push_delivery.py): they
hold streams open against a running server, on 127.0.0.1 only.
"""

from __future__ import annotations

import http.client
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    """One named event of a stream."""

    name: str
    data: str
    event_id: str | None
    received: float  # time.monotonic() when its last line arrived


class EventStream:
    """One open stream: ``GET path`` on ``127.0.0.1:port`` with the browser's cookies."""

    def __init__(
        self,
        port: int,
        path: str,
        cookies: dict[str, str] | None = None,
        *,
        timeout: float = 30.0,
        last_event_id: str | None = None,
    ) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Host": "127.0.0.1", "Accept": "text/event-stream"}
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.content_type = self.response.getheader("Content-Type", "")

    def next_event(self) -> Event:
        """The next event with a name; keep-alive comments and ``retry`` are skipped.

        Raises ``TimeoutError`` if nothing arrives within the timeout, ``EOFError`` if the
        server closed the stream.
        """
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the server closed the stream")
            text = line.decode().rstrip("\r\n")
            if text == "":
                if "event" in fields:
                    return Event(
                        fields["event"], fields.get("data", ""), fields.get("id"), time.monotonic()
                    )
                fields = {}
            elif not text.startswith(":") and ": " in text:
                name, value = text.split(": ", 1)
                fields[name] = value

    def next_after(self, version: int) -> Event:
        """The next ``game`` event whose version (its id) is past ``version``."""
        while True:
            event = self.next_event()
            if event.name == "game" and int(event.event_id or 0) > version:
                return event

    def close(self) -> None:
        """Hang up, as a closed tab does."""
        self.connection.close()
