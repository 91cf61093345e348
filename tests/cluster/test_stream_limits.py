"""One client cannot take the site down with event streams (deploy/haproxy.cfg).

Runs ``scripts/cluster up`` with the streams' limits lowered (a few hundred connections
instead of thousands), holds as many streams as it may from one session and two addresses,
and checks that the pages still answer and that only the exact stream paths reach the
stream servers.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from tests.cluster.helpers import Browser, free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.cluster, pytest.mark.postgres]

STREAMS_MAX = 80
STREAMS_PER_ADDRESS = 50
STREAMS_PER_SESSION = 10


@dataclass
class Cluster:
    port: int
    folder: Path

    def request_ids(self, name: str) -> set[str]:
        lines = (self.folder / f"{name}.log").read_text().splitlines()
        return {str(json.loads(line).get("request_id")) for line in lines if line.startswith("{")}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    server_url = os.environ["DATABASE_URL"]
    name = f"limes_streams_e2e_{os.getpid()}"
    database_url = urlsplit(server_url)._replace(path=f"/{name}").geturl()
    port = free_port()
    folder = tmp_path_factory.mktemp("cluster")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "LIMES_"))}
    env.update(
        PORT=str(port),
        APP1_PORT=str(free_port()),
        APP2_PORT=str(free_port()),
        STREAM1_PORT=str(free_port()),
        STREAM2_PORT=str(free_port()),
        CLUSTER_DIR=str(folder),
        DATABASE_URL=database_url,
        REDIS_URL=os.environ.get("LIMES_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
        LIMES_CACHE_PREFIX=f"e2e-streams-{os.getpid()}",
        APP_WORKERS="1",
        STREAMS_MAX=str(STREAMS_MAX),
        STREAMS_PER_ADDRESS=str(STREAMS_PER_ADDRESS),
        STREAMS_PER_SESSION=str(STREAMS_PER_SESSION),
    )
    script = str(ROOT / "scripts" / "cluster")
    try:
        started = subprocess.run(
            [script, "up"], env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert started.returncode == 0, started.stdout + started.stderr
        yield Cluster(port, folder)
    finally:
        subprocess.run([script, "down"], env=env, timeout=120, check=False)
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def open_stream(
    port: int, path: str, address: str, cookie: str = ""
) -> tuple[int, http.client.HTTPConnection]:
    """A stream opened from ``address`` (any of 127/8): its status, and the connection,
    held open until closed."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(address, 0)
    )
    headers = {"Host": "127.0.0.1", "Accept": "text/event-stream"}
    if cookie:
        headers["Cookie"] = cookie
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    if response.status != 200:
        response.read()
        connection.close()
    return response.status, connection


def test_up_returns_with_every_server_in_the_proxys_service(cluster: Cluster) -> None:
    # Started before its servers answered, the proxy marked the slow ones down at its first
    # checks; "up" returned on the app servers' answers while the streams went to them
    # (204: the pages poll), a few seconds more on a busy machine.
    log = (cluster.folder / "proxy.log").read_text()

    assert "Loading success" in log
    assert [line for line in log.splitlines() if " is DOWN" in line] == []


def test_one_client_cannot_hold_the_streams_that_pages_need(cluster: Cluster) -> None:
    ana = Browser([cluster.port])
    ana.sign_up("e2e_many_tabs")
    cookie = "; ".join(f"{k}={v}" for k, v in ana.cookies.items())
    held: list[http.client.HTTPConnection] = []
    statuses: dict[str, Counter[int]] = {}
    try:
        for who, address, count, with_cookie in (
            ("session", "127.0.0.1", 15, cookie),
            ("address", "127.0.0.1", 100, ""),
            ("everyone", "127.0.0.2", 100, ""),
        ):
            statuses[who] = Counter()
            for _ in range(count):
                status, connection = open_stream(
                    cluster.port, "/lobby/stream/", address, with_cookie
                )
                statuses[who][status] += 1
                if status == 200:
                    held.append(connection)
        # With every stream the proxy lets through held, a page and the health check answer.
        visitor = Browser([cluster.port])
        home = visitor.request("GET", "/")
        health = visitor.request("GET", "/health/")
    finally:
        for connection in held:
            connection.close()

    # Ten streams for the session, the address's fifty in all, then the streams' budget.
    assert statuses["session"] == {200: STREAMS_PER_SESSION, 429: 5}
    assert statuses["address"] == {200: STREAMS_PER_ADDRESS - STREAMS_PER_SESSION, 429: 60}
    assert statuses["everyone"] == {200: STREAMS_MAX - STREAMS_PER_ADDRESS, 503: 70}
    assert home.status == 200 and health.status == 200


def test_a_player_named_stream_has_their_profile_drawn_by_the_app_servers(
    cluster: Cluster,
) -> None:
    player = Browser([cluster.port])
    player.sign_up("stream")
    profile = player.request("GET", "/players/stream/")

    assert "stream" in profile.body
    assert profile.request_id in cluster.request_ids("app1") | cluster.request_ids("app2")
    assert profile.request_id not in cluster.request_ids("stream1") | cluster.request_ids("stream2")
