"""The systemd units of deploy/: what they expose and what they run."""

from __future__ import annotations

import re

from django.conf import settings

UNITS = settings.BASE_DIR / "deploy" / "systemd"


def _unit(name: str) -> str:
    return (UNITS / name).read_text()


def test_gunicorn_listens_on_loopback_unless_told_another_private_address() -> None:
    unit = _unit("limes-app@.service")
    (bind,) = re.findall(r"--bind (\S+)", unit)
    assert bind == "${LIMES_BIND_ADDRESS}:%i"
    assert "Environment=LIMES_BIND_ADDRESS=127.0.0.1" in unit
    assert "0.0.0.0" not in unit


def test_the_worker_unit_runs_the_worker_that_takes_back_dead_workers_tasks() -> None:
    assert "manage.py task_worker" in _unit("limes-worker.service")
