"""SQLite holds when several processes write at once (scripts/serve: web server and worker)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
WRITERS = 6


def _env(database: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_SETTINGS_MODULE="limes_site.settings.dev",
        PYTHONPATH=str(ROOT),
    )
    env.pop("REDIS_URL", None)
    return env


def test_processes_writing_at_once_are_never_refused(tmp_path: Path) -> None:
    """Six processes play a solo game each at the same time: no "database is locked"."""
    database = tmp_path / "db.sqlite3"
    env = _env(database)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    writers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.games.sqlite_writer", f"writer{i}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for i in range(WRITERS)
    ]
    outputs = [writer.communicate(timeout=300)[0] for writer in writers]
    assert [writer.returncode for writer in writers] == [0] * WRITERS, "".join(outputs)
    assert "locked" not in "".join(outputs)
