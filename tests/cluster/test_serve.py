"""``scripts/serve`` end to end: SQLite, no Redis, uvicorn and the task worker as two processes.

A computer player's move is made by the worker; the page hears of it through its event
stream (Unix sockets between the two processes) and its poll shows it (the poll state is
read from the database: the worker's cache is not the web server's).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.play_http import FORM_TOKEN
from tests.cluster.helpers import Browser, free_port, play_round_one_against_a_computer

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.cluster


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The port of a running ``scripts/serve`` on a fresh SQLite database."""
    folder = tmp_path_factory.mktemp("serve")
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "LIMES_")) and k not in ("DATABASE_URL", "REDIS_URL")
    }
    env.update(
        PORT=str(port),
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        LIMES_PUSH_DIR=str(folder / "push"),
    )
    log = (folder / "serve.log").open("w")
    server = subprocess.Popen(
        [str(ROOT / "scripts" / "serve")],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        while True:
            assert server.poll() is None, (folder / "serve.log").read_text()[-2000:]
            try:
                Browser([port]).request("GET", "/health/")
                break
            except (OSError, AssertionError):
                assert time.monotonic() < deadline, "scripts/serve did not answer in 180 s"
                time.sleep(0.5)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
        log.close()


def test_a_computer_players_move_reaches_the_page_under_scripts_serve(served: int) -> None:
    demo = Browser([served])
    form = FORM_TOKEN.search(demo.request("GET", "/accounts/login/").body)
    assert form
    fields = {"csrfmiddlewaretoken": form.group(1), "login": "demo", "password": "demo-limes"}
    demo.request("POST", "/accounts/login/", fields, expect=(302,))
    seen, shown = play_round_one_against_a_computer(demo, served)
    # The stream told of the very change that the page now shows: the worker's move.
    assert seen == shown
