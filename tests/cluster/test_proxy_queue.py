"""The proxy's queue (deploy/haproxy.cfg): when every app server is busy, a player's commit
and the poll that shows it to the others leave the queue before board redraws and pages.

Runs the real HAProxy on the configuration ``scripts/cluster`` writes, in front of two
stand-in app servers that take one request at a time and hold the first ones until told.
"""

from __future__ import annotations

import http.client
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.cluster.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.skipif(shutil.which("haproxy") is None, reason="scripts/test installs HAProxy"),
]


class StandIn(ThreadingHTTPServer):
    """An app server of one sync worker (the proxy sends it one request at a time), with
    its health checks answered beside it, as gunicorn's master does not."""

    def __init__(self, port: int, log: list[str], release: threading.Event) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.log = log
        self.release = release


class _Handler(BaseHTTPRequestHandler):
    server: StandIn

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def _answer(self) -> None:
        # Logged as taken, before a body arrives: the order the proxy handed them out.
        if self.path != "/health/":
            self.server.log.append(f"{self.command} {self.path}")
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.startswith("/hold/"):
            self.server.release.wait(30)
        elif self.path != "/health/":
            time.sleep(0.05)  # a request's work: the next one is taken well after
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[tuple[int, list[str], threading.Event]]:
    port, app1, app2, stream1, stream2 = (free_port() for _ in range(5))
    log: list[str] = []
    release = threading.Event()
    servers = [StandIn(app_port, log, release) for app_port in (app1, app2)]
    threads = [threading.Thread(target=s.serve_forever, daemon=True) for s in servers]
    for thread in threads:
        thread.start()
    # The configuration as scripts/cluster writes it, for app servers of one worker each.
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    for name, value in {
        "PORT": port,
        "APP1_PORT": app1,
        "APP2_PORT": app2,
        "STREAM1_PORT": stream1,
        "STREAM2_PORT": stream2,
        "APP_MAXCONN": 1,
        "STREAMS_MAX": 7000,
        "STREAMS_PER_ADDRESS": 100,
        "STREAMS_PER_SESSION": 20,
    }.items():
        config = config.replace(f"@{name}@", str(value))
    (tmp_path / "haproxy.cfg").write_text(config)
    haproxy = subprocess.Popen(
        ["haproxy", "-db", "-f", str(tmp_path / "haproxy.cfg")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_until_up(port)
        log.clear()
        yield port, log, release
    finally:
        release.set()
        haproxy.terminate()
        haproxy.wait(10)
        for server in servers:
            server.shutdown()
            server.server_close()


def _wait_until_up(port: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if _send(port, "GET", "/up/").status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("HAProxy did not start")


def _send(port: int, method: str, path: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = "round=1" if method == "POST" else None
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}
    connection.request(method, path, body=body, headers=headers)
    answer = connection.getresponse()
    answer.read()
    return answer


def _send_in_background(port: int, method: str, path: str) -> threading.Thread:
    thread = threading.Thread(target=_send, args=(port, method, path), daemon=True)
    thread.start()
    return thread


def _wait_for(condition: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


def test_a_commit_and_a_poll_overtake_the_queued_board_redraws(
    proxy: tuple[int, list[str], threading.Event],
) -> None:
    port, log, release = proxy
    # Both servers busy, each with a request it holds. (One after the other: two sent at
    # the same instant may both land on one server, HAProxy's threads racing past maxconn.)
    sent = [_send_in_background(port, "GET", "/hold/1/")]
    _wait_for(lambda: len(log) == 1)
    sent.append(_send_in_background(port, "GET", "/hold/2/"))
    _wait_for(lambda: len(log) == 2)
    # Then, while they are busy, redraws and pages queue up first, the commit and a poll last.
    waiting = [
        ("GET", "/games/7/?rot=90"),
        ("GET", "/leaderboards/standard/best/"),
        ("GET", "/games/7/?at=1,2"),
        ("GET", "/games/8/?rot=180"),
        ("POST", "/games/7/play/"),
        ("GET", "/games/9/poll/?v=3"),
    ]
    for method, path in waiting:
        sent.append(_send_in_background(port, method, path))
        time.sleep(0.05)  # in this order
    time.sleep(0.5)  # all of them in the proxy's queue
    assert len(log) == 2
    release.set()
    for thread in sent:
        thread.join(30)
    served = log[2:]
    assert sorted(served) == sorted(f"{m} {p}" for m, p in waiting)
    # The commit and the poll came last but were served first (then the others, two
    # servers taking them as they free).
    assert set(served[:2]) == {"POST /games/7/play/", "GET /games/9/poll/?v=3"}
