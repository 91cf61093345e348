"""Races on PostgreSQL: reports sent at the same instant keep the limits."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError

from moderation import services
from moderation.models import Report
from moderation.selectors import reports_per_hour
from tests.factories import UserFactory

if TYPE_CHECKING:
    from tests.conftest import Race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(race: Race, actions: list[Callable[[], object]]) -> list[str]:
    """Start the actions at the same instant; "filed" or the refusal's code, sorted."""
    outcomes = race(*actions, refusals=(ValidationError,))
    return sorted(str(o.code) if isinstance(o, ValidationError) else "filed" for o in outcomes)


def file(reporter: object, target: object) -> Callable[[], object]:
    return lambda: services.report_create(
        reporter=reporter,  # type: ignore[arg-type]
        target=target,  # type: ignore[arg-type]
        category=Report.Category.OTHER,
        text="Sent twice by a double click.",
    )


def test_a_double_submit_files_one_report(race: Race) -> None:
    reporter, target = UserFactory.create_batch(2)
    outcomes = run_together(race, [file(reporter, target), file(reporter, target)])
    assert outcomes == ["duplicate", "filed"]
    assert Report.objects.count() == 1


def test_reports_sent_at_once_stay_within_the_hourly_limit(race: Race) -> None:
    reporter = UserFactory()
    targets = UserFactory.create_batch(5)
    outcomes = run_together(race, [file(reporter, target) for target in targets])
    assert outcomes.count("filed") == reports_per_hour() == 3
    assert outcomes.count("throttled") == 2
    assert Report.objects.count() == 3
