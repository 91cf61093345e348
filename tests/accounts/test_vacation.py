"""Taking vacation from the settings page: the yearly allowance and bad input."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts import selectors, services
from accounts.models import User, Vacation
from tests.factories import UserFactory

if TYPE_CHECKING:
    from tests.conftest import Race

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
START = datetime.datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
TODAY = START.date()


@pytest.fixture
def clock(time_machine: Any) -> Any:
    time_machine.move_to(START, tick=False)
    return time_machine


def days(n: int) -> datetime.date:
    """The last day of a vacation of ``n`` days begun today."""
    return TODAY + datetime.timedelta(days=n - 1)


def test_the_allowance_holds_across_two_vacations(clock: Any, user: User, settings: Any) -> None:
    settings.LIMES_VACATION_DAYS_PER_YEAR = 30
    services.vacation_start(user=user, until=days(20))
    assert selectors.vacation_days_used(user, 2026) == 20
    clock.move_to(START + datetime.timedelta(days=25), tick=False)
    with pytest.raises(ValidationError, match="the 10 days of vacation you have left"):
        services.vacation_start(user=user, until=TODAY + datetime.timedelta(days=25 + 10))
    assert Vacation.objects.count() == 1
    services.vacation_start(user=user, until=TODAY + datetime.timedelta(days=25 + 9))
    assert selectors.vacation_days_used(user, 2026) == 30
    # The allowance is the calendar year's: next January it is whole again.
    clock.move_to(datetime.datetime(2027, 1, 5, 9, 0, tzinfo=UTC), tick=False)
    services.vacation_start(user=user, until=datetime.date(2027, 2, 3))
    assert selectors.vacation_days_used(user, 2027) == 30


def test_a_vacation_over_new_year_counts_its_days_in_each_year(
    clock: Any, user: User, settings: Any
) -> None:
    """Counted by the year it began, it left next year's allowance whole: 60 days in a row."""
    settings.LIMES_VACATION_DAYS_PER_YEAR = 30
    clock.move_to(datetime.datetime(2026, 12, 31, 12, 0, tzinfo=UTC), tick=False)
    services.vacation_start(user=user, until=datetime.date(2027, 1, 29))
    assert selectors.vacation_days_used(user, 2026) == 1
    assert selectors.vacation_days_used(user, 2027) == 29
    clock.move_to(datetime.datetime(2027, 1, 30, 9, 0, tzinfo=UTC), tick=False)
    with pytest.raises(ValidationError, match="the 1 day of vacation you have left"):
        services.vacation_start(user=user, until=datetime.date(2027, 2, 28))
    services.vacation_start(user=user, until=datetime.date(2027, 1, 30))
    assert selectors.vacation_days_used(user, 2027) == 30
    assert Vacation.objects.count() == 2


def test_a_vacation_into_a_year_whose_days_are_taken_is_refused(
    clock: Any, user: User, settings: Any
) -> None:
    settings.LIMES_VACATION_DAYS_PER_YEAR = 30
    # Booked days of next year (a vacation begun before New Year ran into them).
    Vacation.objects.create(
        user=user,
        starts_at=datetime.datetime(2027, 1, 1, tzinfo=UTC),
        ends_at=datetime.datetime(2027, 1, 29, tzinfo=UTC),
    )
    clock.move_to(datetime.datetime(2026, 12, 20, 12, 0, tzinfo=UTC), tick=False)
    with pytest.raises(ValidationError, match="the 2 days of vacation you have left in 2027"):
        services.vacation_start(user=user, until=datetime.date(2027, 1, 3))
    services.vacation_start(user=user, until=datetime.date(2026, 12, 31))


def test_ending_a_vacation_early_returns_the_days_not_taken(clock: Any, user: User) -> None:
    services.vacation_start(user=user, until=days(20))
    clock.move_to(START + datetime.timedelta(days=2, hours=1), tick=False)
    assert services.vacation_end(user=user)
    # Three days begun, three days taken.
    assert selectors.vacation_days_used(user, 2026) == 3
    assert selectors.vacation_current(user) is None
    assert not services.vacation_end(user=user)


def test_one_vacation_at_a_time(clock: Any, user: User) -> None:
    services.vacation_start(user=user, until=days(3))
    with pytest.raises(ValidationError, match="already on vacation"):
        services.vacation_start(user=user, until=days(5))


def test_the_settings_page_starts_and_ends_a_vacation(
    clock: Any, client_logged_in: Client, user: User
) -> None:
    page = client_logged_in.get(reverse("accounts:settings")).content.decode()
    assert "30 days left this year." in page
    response = client_logged_in.post(
        reverse("accounts:vacation"), {"until": "2026-06-14"}, follow=True
    )
    # The day the player is back, in the reader's language, without "midnight" or a time.
    assert "You are on vacation: you are back on June 15, 2026." in response.content.decode()
    client_logged_in.cookies["django_language"] = "de"
    german = client_logged_in.get(reverse("accounts:settings"), HTTP_ACCEPT_LANGUAGE="de")
    assert "Du bist im Urlaub: Du bist am 15. Juni 2026 zurück." in german.content.decode()
    del client_logged_in.cookies["django_language"]
    vacation = Vacation.objects.get(user=user)
    assert vacation.ends_at == datetime.datetime(2026, 6, 15, tzinfo=UTC)
    clock.move_to(START + datetime.timedelta(hours=3), tick=False)
    response = client_logged_in.post(reverse("accounts:vacation"), {"action": "end"}, follow=True)
    page = response.content.decode()
    assert "Welcome back" in page
    assert "29 days left this year." in page


@pytest.mark.parametrize(
    ("until", "error"),
    [
        ("2026-06-09", "cannot lie in the past"),
        ("2026-07-10", "30 days of vacation you have left"),
        ("9999-12-31", "30 days of vacation you have left"),
        ("99999-01-01", "Enter a valid date"),
        ("1" * 5000, "Enter a valid date"),
        ("2026-06-12\x00", "Enter a valid date"),
        ("٢٠٢٦-٠٦-١٢", "Enter a valid date"),
        ("２０２６-０６-１２", "Enter a valid date"),
        ("", "This field is required"),
    ],
)
def test_bad_dates_get_a_form_error_and_change_nothing(
    clock: Any, client_logged_in: Client, until: str, error: str
) -> None:
    response = client_logged_in.post(reverse("accounts:vacation"), {"until": until})
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Vacation.objects.exists()


def test_vacation_needs_a_signed_in_player_and_a_post(client: Client, user: User) -> None:
    response = client.post(reverse("accounts:vacation"), {"until": "2026-06-12"})
    assert response.status_code == 302
    assert not Vacation.objects.exists()
    client.force_login(user)
    assert client.get(reverse("accounts:vacation")).status_code == 405


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_cannot_spend_the_same_days(race: Race, settings: Any) -> None:
    settings.LIMES_VACATION_DAYS_PER_YEAR = 30
    player = UserFactory()
    today = datetime.datetime.now(UTC).date()

    def ask(last_day: int) -> Any:
        def action() -> Vacation:
            until = today + datetime.timedelta(days=last_day)
            return services.vacation_start(user=player, until=until)

        return action

    outcomes = race(ask(19), ask(14), refusals=(ValidationError,))
    # One vacation starts; the other request is told it overlaps it.
    assert sorted(type(o).__name__ for o in outcomes) == ["Vacation", "ValidationError"]
    assert Vacation.objects.filter(user=player).count() == 1
