"""The daily challenge: the day's cards, one attempt per player, its board and spoilers."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from time_machine import TimeMachineFixture

from accounts.models import User
from games import services
from games.daily import daily_seed, today
from games.models import Game, SoloResult
from tests.factories import FinishedSoloFactory, UserFactory, seat_user

if TYPE_CHECKING:
    from tests.conftest import Race

DAY = datetime.date(2026, 3, 14)

pytestmark = pytest.mark.sql_dialect


def test_the_days_seed_is_fixed_by_date_and_secret_and_differs_between_days() -> None:
    assert daily_seed(DAY) == daily_seed(DAY)
    assert daily_seed(DAY) != daily_seed(DAY + datetime.timedelta(days=1))
    assert 0 <= daily_seed(DAY) < 2**62
    with override_settings(LIMES_DAILY_SECRET="another secret"):
        other = daily_seed(DAY)
    assert other != daily_seed(DAY)


def test_without_a_daily_secret_the_seed_still_depends_on_the_secret_key() -> None:
    with override_settings(LIMES_DAILY_SECRET="", SECRET_KEY="one"):
        first = daily_seed(DAY)
    with override_settings(LIMES_DAILY_SECRET="", SECRET_KEY="two"):
        second = daily_seed(DAY)
    assert first != second


@pytest.mark.django_db
def test_everyone_gets_the_same_cards_with_standard_rules(user: User) -> None:
    mine = services.game_create_daily(user=user)
    theirs = services.game_create_daily(user=UserFactory())
    assert mine.pk != theirs.pk
    assert mine.cards == theirs.cards
    assert mine.seed == daily_seed(today())
    assert mine.daily == today()
    assert (mine.diagonal, mine.ferryman, mine.ruleset) == (False, False, "standard")


@pytest.mark.django_db
def test_starting_twice_gives_back_the_same_attempt(client_logged_in: Client, user: User) -> None:
    first = client_logged_in.post(reverse("leaderboards:daily_start"))
    second = client_logged_in.post(reverse("leaderboards:daily_start"))
    assert first["Location"] == second["Location"]
    assert Game.objects.filter(daily=today(), created_by=user).count() == 1


@pytest.mark.django_db
def test_a_finished_attempt_is_not_replaced_by_a_new_one(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(services.game_create_daily(user=user), 16)
    assert game.is_finished
    assert services.game_create_daily(user=user).pk == game.pk


@pytest.mark.django_db
def test_a_double_submit_that_loses_the_race_returns_the_winners_game(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    winner = services.game_create_daily(user=user)
    # The losing request looked for a game just before the winner's was committed.
    lookups = iter([None])
    real = services._daily_game
    monkeypatch.setattr(
        services, "_daily_game", lambda **kwargs: next(lookups, None) or real(**kwargs)
    )
    assert services.game_create_daily(user=user).pk == winner.pk
    assert Game.objects.filter(daily=today(), created_by=user).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_starts_make_one_attempt(race: Race) -> None:
    user = UserFactory()
    # Either attempt raising anything fails the test inside race().
    games = [
        game.pk
        for game in race(
            lambda: services.game_create_daily(user=user),
            lambda: services.game_create_daily(user=user),
        )
    ]
    assert len(games) == 2 and games[0] == games[1]
    assert Game.objects.filter(daily=today(), created_by=user).count() == 1


@pytest.mark.django_db
def test_giving_up_finishes_the_attempt_with_the_score_so_far(
    client_logged_in: Client, user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(services.game_create_daily(user=user), 5)
    response = client_logged_in.post(reverse("leaderboards:daily_abandon"))
    assert response.status_code == 302
    result = SoloResult.objects.get(game=game)
    assert result.abandoned and result.daily == today()
    assert result.score == game.seats.get().score
    page = client_logged_in.get(reverse("leaderboards:daily"))
    assert [row.username for row in page.context["board"].rows] == [user.username]
    assert 'data-testid="daily-start"' not in page.content.decode()


@pytest.mark.django_db
def test_the_days_board_shows_scores_but_landscapes_only_after_ones_own_attempt(
    client_logged_in: Client, user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    other = FinishedSoloFactory(game__daily=today(), score=44, game__created_by__username="ana")
    replay = reverse("games:replay", args=[other.game_id])
    page = client_logged_in.get(reverse("leaderboards:daily")).content.decode()
    assert "ana" in page and ">44<" in page
    assert replay not in page
    assert 'data-testid="daily-start"' in page

    play_rounds(services.game_create_daily(user=user), 16)
    page = client_logged_in.get(reverse("leaderboards:daily")).content.decode()
    assert replay in page


@pytest.mark.django_db
def test_past_days_stay_browsable_with_their_games(client: Client) -> None:
    yesterday = today() - datetime.timedelta(days=1)
    seat = FinishedSoloFactory(game__daily=yesterday, score=41)
    response = client.get(reverse("leaderboards:daily_day", args=[yesterday.isoformat()]))
    assert response.status_code == 200
    assert reverse("games:replay", args=[seat.game_id]) in response.content.decode()
    assert 'data-testid="daily-start"' not in response.content.decode()


@pytest.mark.django_db
def test_an_attempt_still_in_play_after_midnight_sees_no_other_game_of_its_day(
    client_logged_in: Client,
    user: User,
    play_rounds: Callable[[Game, int], Game],
    time_machine: TimeMachineFixture,
) -> None:
    day = today()
    time_machine.move_to(datetime.datetime.combine(day, datetime.time(23, 50), datetime.UTC))
    mine = play_rounds(services.game_create_daily(user=user), 3)
    other = FinishedSoloFactory(game__daily=day, score=44, game__created_by__username="ana")
    time_machine.move_to(
        datetime.datetime.combine(day, datetime.time(0, 10), datetime.UTC)
        + datetime.timedelta(days=1)
    )
    # The day is over and its games public, to everyone else.
    assert Client().get(reverse("games:record", args=[other.game_id])).status_code == 200
    for name in ("games:record", "games:replay", "games:detail"):
        response = client_logged_in.get(reverse(name, args=[other.game_id]))
        assert response.status_code == 404, name
    page = client_logged_in.get(reverse("leaderboards:daily_day", args=[day.isoformat()]))
    assert reverse("games:replay", args=[other.game_id]) not in page.content.decode()
    # Once the attempt is over, the day's games open to its player too.
    play_rounds(mine, 13)
    assert client_logged_in.get(reverse("games:record", args=[other.game_id])).status_code == 200


@pytest.mark.django_db
def test_days_before_the_challenge_began_and_huge_pages_are_not_found(client: Client) -> None:
    for day in ("0001-01-01", "2019-12-31"):
        url = reverse("leaderboards:daily_day", args=[day])
        assert client.get(url).status_code == 404
    first = client.get(reverse("leaderboards:daily_day", args=["2020-01-01"]))
    assert first.status_code == 200
    assert 'rel="prev"' not in first.content.decode()
    for url in (
        reverse("leaderboards:daily"),
        reverse("leaderboards:board", args=["standard", "best"]),
    ):
        assert client.get(url + "?page=99999999999999999999999").status_code == 404
        assert client.get(url + "?page=100000").status_code == 200


@pytest.mark.django_db
def test_future_days_and_bad_dates_are_not_found(client: Client) -> None:
    tomorrow = today() + datetime.timedelta(days=1)
    assert (
        client.get(reverse("leaderboards:daily_day", args=[tomorrow.isoformat()])).status_code
        == 404
    )
    assert client.get(reverse("leaderboards:daily_day", args=["not-a-day"])).status_code == 404


@pytest.mark.django_db
def test_hidden_results_and_banned_players_are_off_the_days_board(client: Client) -> None:
    FinishedSoloFactory(game__daily=today(), score=50, solo_result__hidden=True)
    banned = seat_user(FinishedSoloFactory(game__daily=today(), score=49))
    banned.banned_until = banned.date_joined + datetime.timedelta(days=3650)
    banned.save()
    shown = FinishedSoloFactory(game__daily=today(), score=30)
    rows = client.get(reverse("leaderboards:daily")).context["board"].rows
    assert [row.username for row in rows] == [seat_user(shown).username]


@pytest.mark.django_db
def test_a_banned_player_cannot_start_the_challenge(client: Client) -> None:
    player = UserFactory()
    player.banned_until = player.date_joined + datetime.timedelta(days=3650)
    player.save()
    client.force_login(player)
    client.post(reverse("leaderboards:daily_start"))
    assert not Game.objects.filter(created_by=player).exists()
