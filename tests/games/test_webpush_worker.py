"""With a real task worker running (``manage.py task_worker`` on the test database), the
opponent's commit reaches the subscribed device at the stand-in push service."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

from games.models import Game
from tests.conftest import PushService
from tests.factories import DATABASE_QUEUE, UserFactory, play_turn, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: How long the test waits for the push at most: a bound on a wait, not a timing assert.
PATIENCE_SECONDS = 180


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[Path]:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "limes_site.settings.test",
        "DATABASE_URL": url,
        "LIMES_TEST_TASK_QUEUE": "database",
    }
    log_path = tmp_path / "worker.log"
    command = [sys.executable, "manage.py", "task_worker", "--no-reload", "--no-startup-delay"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*command, "--interval", "0.1", "--worker-id", "push-test"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=log,
            stderr=log,
        )
    try:
        yield log_path
    finally:
        process.kill()
        process.wait()


def test_with_the_worker_running_the_opponents_commit_is_pushed(
    worker: Path, push_service: PushService
) -> None:
    ana, ben = UserFactory(), UserFactory(email="")
    with override_settings(TASKS=DATABASE_QUEUE):
        game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
        play_turn(game, ben)
        push_service.device(ben)
        play_turn(game, ana)
    arrived = push_service.arrived.wait(PATIENCE_SECONDS)
    assert arrived, worker.read_text()
    (message,) = push_service.messages()
    assert message["url"] == f"/games/{game.pk}/"
    assert message["body"] == f"Round 2 of game #{game.pk} waits for your move."
