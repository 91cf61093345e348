"""Races on PostgreSQL: reports sent at the same instant keep the limits."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from moderation import services
from moderation.models import Report
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.fail("row locks are tested on PostgreSQL: set DATABASE_URL")


def run_together(actions: list[Callable[[], object]]) -> list[str]:
    """Start the actions at the same instant in threads; "filed" or the refusal's code."""
    barrier = threading.Barrier(len(actions))
    outcomes: list[str] = []

    def run(action: Callable[[], object]) -> None:
        barrier.wait()
        try:
            action()
            outcomes.append("filed")
        except ValidationError as error:
            outcomes.append(str(error.code))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(a,)) for a in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(outcomes)


def file(reporter: object, target: object) -> Callable[[], object]:
    return lambda: services.report_create(
        reporter=reporter,  # type: ignore[arg-type]
        target=target,  # type: ignore[arg-type]
        category=Report.Category.OTHER,
        text="Sent twice by a double click.",
    )


def test_a_double_submit_files_one_report() -> None:
    reporter, target = UserFactory.create_batch(2)
    outcomes = run_together([file(reporter, target), file(reporter, target)])
    assert outcomes == ["duplicate", "filed"]
    assert Report.objects.count() == 1


def test_reports_sent_at_once_stay_within_the_hourly_limit() -> None:
    reporter = UserFactory()
    targets = UserFactory.create_batch(5)
    outcomes = run_together([file(reporter, target) for target in targets])
    assert outcomes.count("filed") == services.reports_per_hour() == 3
    assert outcomes.count("throttled") == 2
    assert Report.objects.count() == 3
