"""What the cluster's end-to-end tests share: free ports, a browser that speaks HTTP to the
app servers, and a round played against a computer while the page's stream is held."""

from __future__ import annotations

import http.client
import itertools
import os
import socket
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import rules
from benchmarks.play_http import (
    FORM_TOKEN,
    GAME_PATH,
    Landscape,
    page_stream_path,
    page_version,
)
from benchmarks.sse_client import EventStream

PASSWORD = "cluster-e2e-Pw-8317"


def free_port() -> int:
    """A free port: the system's pick, or one of LIMES_TEST_PORTS ("8300-8399") if set."""
    first, _, last = os.environ.get("LIMES_TEST_PORTS", "0-0").partition("-")
    for port in range(int(first), int(last or first) + 1):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            if port == 0 or port not in _given:
                _given.add(port)
                return int(probe.getsockname()[1])
    raise RuntimeError("no free port in LIMES_TEST_PORTS")


_given: set[int] = set()


@dataclass
class Answer:
    status: int
    location: str
    request_id: str
    body: str


@dataclass
class Browser:
    """One person's browser; each request goes to the next of ``ports`` in turn."""

    ports: list[int]
    cookies: dict[str, str] = field(default_factory=dict)
    request_ids: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._next_port = itertools.cycle(self.ports)

    def request(
        self,
        method: str,
        path: str,
        fields: dict[str, str] | None = None,
        *,
        htmx: bool = False,
        expect: tuple[int, ...] = (200,),
    ) -> Answer:
        port = next(self._next_port)
        headers = {
            "Host": "127.0.0.1",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
            headers["Referer"] = f"http://127.0.0.1:{port}/"
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request(method, path, body, headers)
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        request_id = response.getheader("X-Request-ID", "")
        self.request_ids.append(request_id)
        assert response.status in expect, (
            f"{method} {path} on :{port}: {response.status} {text[:300]}"
        )
        return Answer(response.status, response.getheader("Location", ""), request_id, text)

    def sign_up(self, username: str) -> None:
        page = self.request("GET", "/accounts/signup/")
        token = FORM_TOKEN.search(page.body)
        assert token, "no CSRF token on the sign-up page"
        fields = {
            "csrfmiddlewaretoken": token.group(1),
            "username": username,
            "email": f"{username}@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        self.request("POST", "/accounts/signup/", fields, expect=(302,))


def game_path(answer: Answer) -> str:
    path = urlsplit(answer.location).path
    assert GAME_PATH.search(path), f"went to {answer.location!r}"
    return path


MULTI_GAME = {
    "seats_max": "2",
    "pace": "live",
    "live_seconds": "600",
    "correspondence_seconds": "86400",
    "listed": "on",
}


def play_round_one_against_a_computer(player: Browser, port: int) -> tuple[int, int]:
    """Open a game against a computer, commit round 1 holding the page's stream (on
    ``port``) until the page shows round 2: the last version the stream told of, and the
    page's."""
    with_bot = {**MULTI_GAME, "bots": "1", "bot_level": "reference"}
    path = game_path(player.request("POST", "/games/new/multi/", with_bot, expect=(302,)))
    page = player.request("GET", path).body
    stream_path, version = page_stream_path(page), page_version(page)
    assert stream_path is not None and version is not None
    stream = EventStream(port, stream_path, player.cookies)
    try:
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        fields = Landscape(rules.Variants()).next_turn(page, 1)
        player.request("POST", f"{path}play/", {"round": "1", **fields}, htmx=True)
        seen, page = version, ""
        # Each change is an event: the commit, then the worker's move closing the round.
        while 'data-testid="round">Round 2 of 16' not in page:
            seen = int(stream.next_after(seen).event_id or 0)
            page = player.request("GET", path).body
        final = page_version(page)
        assert final is not None
        while seen < final:
            seen = int(stream.next_after(seen).event_id or 0)
    finally:
        stream.close()
    return seen, final
