"""The task worker patches django-tasks-db's worker: it refuses to start on a version of it
the patch was not read against, and says which one it was."""

from __future__ import annotations

import django_tasks_db
import pytest
from django.core import checks
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from floor import taskqueue
from tests.factories import DATABASE_QUEUE


def test_the_site_refuses_a_django_tasks_db_it_was_not_written_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert taskqueue.check_tasks_db_version() == []
    monkeypatch.setattr(django_tasks_db, "__version__", "0.14.0")
    errors = checks.run_checks(tags=[checks.Tags.compatibility])
    assert [e.id for e in errors] == ["limes.E002"]
    assert errors[0].level == checks.ERROR
    assert "written for django-tasks-db 0.13, not 0.14.0" in errors[0].msg
    # Even told to skip the checks, the worker does not start (nor patch anything).
    refused = pytest.raises(CommandError, match=r"written for django-tasks-db 0\.13, not 0\.14")
    with override_settings(TASKS=DATABASE_QUEUE), refused:
        call_command("task_worker", "--no-startup-delay", skip_checks=True)
