"""The production stack end to end: ``scripts/cluster up``, play, kill an app server, go on.

Runs the real HAProxy, two gunicorn app servers and the task worker on a fresh PostgreSQL
database of their own and a key prefix of their own in Redis, on free ports of 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import psycopg
import pytest

import rules
from benchmarks.play_http import (
    FINAL,
    FINAL_SEAT,
    FORM_TOKEN,
    Landscape,
    page_poll_token,
    page_stream_path,
    page_version,
)
from benchmarks.sse_client import EventStream
from tests.cluster.helpers import (
    MULTI_GAME,
    Browser,
    free_port,
    game_path,
    play_round_one_against_a_computer,
)

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.cluster, pytest.mark.postgres]


@dataclass
class Cluster:
    port: int
    app_ports: dict[str, int]
    folder: Path
    env: dict[str, str]
    database_url: str

    def run(self, command: str) -> str:
        result = subprocess.run(
            [str(ROOT / "scripts" / "cluster"), command],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def pid(self, name: str) -> int:
        return int((self.folder / f"{name}.pid").read_text())

    def log_lines(self, name: str) -> list[dict[str, object]]:
        lines = (self.folder / f"{name}.log").read_text().splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    server_url = os.environ["DATABASE_URL"]
    name = f"limes_cluster_e2e_{os.getpid()}"
    database_url = urlsplit(server_url)._replace(path=f"/{name}").geturl()
    port = free_port()
    apps = {name: free_port() for name in ("app1", "app2", "stream1", "stream2")}
    folder = tmp_path_factory.mktemp("cluster")
    # Nothing of the test run's own settings: the cluster runs its production settings.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "LIMES_"))}
    env.update(
        PORT=str(port),
        APP1_PORT=str(apps["app1"]),
        APP2_PORT=str(apps["app2"]),
        STREAM1_PORT=str(apps["stream1"]),
        STREAM2_PORT=str(apps["stream2"]),
        CLUSTER_DIR=str(folder),
        DATABASE_URL=database_url,
        REDIS_URL=os.environ.get("LIMES_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
        LIMES_CACHE_PREFIX=f"e2e-{os.getpid()}",
        APP_WORKERS="1",
    )
    cluster = Cluster(port, apps, folder, env, database_url)
    try:
        cluster.run("up")
        yield cluster
    finally:
        subprocess.run(
            [str(ROOT / "scripts" / "cluster"), "down"], env=env, timeout=120, check=False
        )
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def refused_at(port: int) -> None:
    """Wait until nothing listens on ``port`` (a killed process takes a moment to go)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except ConnectionRefusedError:
            return
        time.sleep(0.01)
    raise AssertionError(f"something still listens on {port} 10 s after the kill")


def moves_in(cluster: Cluster, path: str) -> list[tuple[int, int]]:
    """(seat, round) of every stored move of the game, straight from the database."""
    pk = int(path.strip("/").split("/")[-1])
    with psycopg.connect(cluster.database_url) as db:
        rows = db.execute(
            "SELECT m.seat_id, m.round FROM games_move m JOIN games_seat s ON s.id = m.seat_id"
            " WHERE s.game_id = %s ORDER BY m.seat_id, m.round",
            (pk,),
        ).fetchall()
    return [(int(seat), int(round_number)) for seat, round_number in rows]


def test_players_switching_app_servers_at_every_request_play_a_multiplayer_game(
    cluster: Cluster,
) -> None:
    app1, app2 = cluster.app_ports["app1"], cluster.app_ports["app2"]
    # Each player's requests alternate between the two servers, out of step with each other.
    ana, ben = Browser([app1, app2]), Browser([app2, app1])
    ana.sign_up("e2e_ana")
    ben.sign_up("e2e_ben")
    created = ana.request(
        "POST",
        "/games/new/multi/",
        {
            "seats_max": "2",
            "pace": "live",
            "live_seconds": "600",
            "correspondence_seconds": "86400",
            "listed": "on",
        },
        expect=(302,),
    )
    path = game_path(created)
    ben.request("POST", f"{path}join/", {}, expect=(302,))
    landscapes = {"ana": Landscape(rules.Variants()), "ben": Landscape(rules.Variants())}
    for round_number in range(1, rules.ROUNDS + 1):
        for name, browser in (("ana", ana), ("ben", ben)):
            page = browser.request("GET", path)
            fields = landscapes[name].next_turn(page.body, round_number)
            browser.request(
                "POST", f"{path}play/", {"round": str(round_number), **fields}, htmx=True
            )
            version = page_version(page.body)
            token = page_poll_token(page.body)
            assert version is not None and token is not None
            # The page's poll, as htmx sends it while the player waits for the others.
            browser.request(
                "GET",
                f"{path}poll/?v={version}&s=active&draft=0&t={token}",
                htmx=True,
                expect=(200, 204, 286),
            )

    final = ana.request("GET", path).body
    assert final.count(FINAL_SEAT) == 2
    assert len(moves_in(cluster, path)) == 2 * rules.ROUNDS
    served = {
        name: {line["request_id"] for line in cluster.log_lines(name)} for name in ("app1", "app2")
    }
    for browser in (ana, ben):
        ids = set(browser.request_ids)
        # Both servers served each player about half of their requests.
        assert len(ids & served["app1"]) >= len(ids) // 2 - 1
        assert len(ids & served["app2"]) >= len(ids) // 2 - 1


def test_the_proxy_keeps_a_game_going_when_an_app_server_is_killed_and_back(
    cluster: Cluster,
) -> None:
    proxy = Browser([cluster.port])
    proxy.sign_up("e2e_solo")
    home = proxy.request("GET", "/")
    token = FORM_TOKEN.search(home.body)
    assert token
    created = proxy.request(
        "POST", "/games/new/", {"csrfmiddlewaretoken": token.group(1)}, expect=(302,)
    )
    path = game_path(created)
    landscape = Landscape(rules.Variants())
    page = proxy.request("GET", path)

    def play(rounds: range) -> None:
        nonlocal page
        for round_number in rounds:
            fields = landscape.next_turn(page.body, round_number)
            proxy.request("GET", f"{path}?{urlencode(fields)}", htmx=True)
            page = proxy.request(
                "POST", f"{path}play/", {"round": str(round_number), **fields}, htmx=True
            )

    play(range(1, 6))
    app1 = cluster.pid("app1")
    os.killpg(app1, signal.SIGKILL)
    refused_at(cluster.app_ports["app1"])
    # No request was in flight: every one after the kill must succeed, served by app2.
    before = len(proxy.request_ids)
    play(range(6, rules.ROUNDS + 1))

    assert FINAL in page.body
    assert moves_in(cluster, path) == [(moves_in(cluster, path)[0][0], n) for n in range(1, 17)]
    after_kill = set(proxy.request_ids[before:])
    assert after_kill <= {line["request_id"] for line in cluster.log_lines("app2")}
    # Every request id came through the proxy, and the app servers logged the same ids.
    assert all(len(request_id) == 36 for request_id in proxy.request_ids)

    # `up` again starts only what is missing: app1 comes back and gets traffic again.
    output = cluster.run("up")
    assert "started app1" in output and "started app2" not in output
    deadline = time.monotonic() + 60
    back = False
    while not back and time.monotonic() < deadline:
        answer = proxy.request("GET", path)
        back = answer.request_id in {line["request_id"] for line in cluster.log_lines("app1")}
        time.sleep(0.2)
    assert back, "app1 got no request within 60 s of coming back"


def test_failed_sign_ins_are_counted_once_across_app_servers(cluster: Cluster) -> None:
    app1, app2 = cluster.app_ports["app1"], cluster.app_ports["app2"]
    Browser([app1]).sign_up("e2e_limit")
    # Form and answer on one server, then the next attempt on the other: three failures on
    # each. Counted in each process, neither would reach allauth's five per account.
    stranger = Browser([app1, app1, app2, app2])
    answers = []
    for _ in range(6):
        page = stranger.request("GET", "/accounts/login/")
        token = FORM_TOKEN.search(page.body)
        assert token
        fields = {"csrfmiddlewaretoken": token.group(1), "login": "e2e_limit", "password": "no"}
        answers.append(stranger.request("POST", "/accounts/login/", fields).body)

    assert all("Too many failed login attempts" not in body for body in answers[:5])
    assert "Too many failed login attempts" in answers[5]


def test_a_move_on_an_app_server_reaches_a_stream_held_by_a_stream_server(
    cluster: Cluster,
) -> None:
    app1, app2 = cluster.app_ports["app1"], cluster.app_ports["app2"]
    ana, ben = Browser([app1]), Browser([app2])
    ana.sign_up("e2e_push_ana")
    ben.sign_up("e2e_push_ben")
    path = game_path(ana.request("POST", "/games/new/multi/", MULTI_GAME, expect=(302,)))
    ben.request("POST", f"{path}join/", {}, expect=(302,))
    page = ana.request("GET", path).body
    stream_path, version = page_stream_path(page), page_version(page)
    assert stream_path is not None and version is not None
    # ana's tab listens on stream1; ben plays on app2: only Redis carries the news across.
    stream = EventStream(cluster.app_ports["stream1"], stream_path, ana.cookies)
    try:
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        ben_page = ben.request("GET", path).body
        fields = Landscape(rules.Variants()).next_turn(ben_page, 1)
        ben.request("POST", f"{path}play/", {"round": "1", **fields}, htmx=True)
        event = stream.next_after(version)
    finally:
        stream.close()

    assert event.name == "game"
    assert json.loads(event.data) == {"version": int(event.event_id or 0)}
    # What the event sets off, the page's poll, shows that ben has played.
    token = page_poll_token(page)
    answer = ana.request("GET", f"{path}poll/?v={version}&s=active&draft=1&t={token}", htmx=True)
    assert answer.status == 200 and "✓" in answer.body


def test_the_app_servers_leave_streams_to_the_stream_servers(cluster: Cluster) -> None:
    ana = Browser([cluster.port])
    ana.sign_up("e2e_stream_route")
    path = game_path(ana.request("POST", "/games/new/multi/", MULTI_GAME, expect=(302,)))
    page = ana.request("GET", path).body
    stream_path = page_stream_path(page)
    assert stream_path is not None
    # An app server (WSGI) would hold a whole worker for a stream: it says 204, and a page
    # sent there polls instead of waiting on a stream that never speaks.
    direct = EventStream(cluster.app_ports["app1"], stream_path, ana.cookies)
    direct.close()
    # Through the proxy the stream reaches a stream server, which holds it open.
    proxied = EventStream(cluster.port, stream_path, ana.cookies)
    proxied.close()

    assert direct.status == 204
    assert proxied.status == 200 and proxied.content_type == "text/event-stream"
    game_stream = stream_path.split("?")[0]
    held_by = [
        name
        for name in ("app1", "app2", "stream1", "stream2")
        if any(line.get("path") == game_stream for line in cluster.log_lines(name))
    ]
    assert held_by in (["app1", "stream1"], ["app1", "stream2"])


def test_a_computer_players_move_reaches_the_page_through_the_proxy(cluster: Cluster) -> None:
    ana = Browser([cluster.port])
    ana.sign_up("e2e_push_bot")
    seen, shown = play_round_one_against_a_computer(ana, cluster.port)
    # The stream told of the very change that the page now shows.
    assert seen == shown
