"""Vacation: a correspondence player's clock stands still while they are away."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from accounts.models import User
from games import services
from games.models import Game, Seat
from tests.factories import UserFactory, play_turn, started_game

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
START = datetime.datetime(2026, 6, 10, 12, 0, tzinfo=UTC)


@pytest.fixture
def ana() -> User:
    return UserFactory(username="ana")


@pytest.fixture
def ben() -> User:
    return UserFactory(username="ben")


@pytest.fixture
def clock(time_machine: Any) -> Any:
    time_machine.move_to(START, tick=False)
    return time_machine


def status_of(game: Game, user: User) -> str:
    return Seat.objects.get(game=game, user=user).status


def correspondence(ana: User, ben: User, **options: object) -> Game:
    game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE, **options)
    # A day a round: the first round ends at noon tomorrow.
    assert game.deadline == START + datetime.timedelta(days=1)
    return game


def test_deadlines_wait_during_vacation_and_expire_after_it_extended(
    clock: Any, ana: User, ben: User
) -> None:
    game = correspondence(ana, ben)
    # Ben is away from now to the end of 14 June: 4½ days paused, so his round ends at
    # the game's deadline (11 June noon) plus 4½ days, i.e. 16 June midnight.
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 14))
    play_turn(game, ana)
    for moment in (
        datetime.datetime(2026, 6, 11, 12, 0, 1, tzinfo=UTC),
        datetime.datetime(2026, 6, 14, 23, 59, tzinfo=UTC),
        datetime.datetime(2026, 6, 15, 23, 59, 59, tzinfo=UTC),
    ):
        clock.move_to(moment, tick=False)
        assert services.expire_deadlines() == 0
        # Opening the game enforces deadlines too: it still waits for Ben.
        assert not services.deadlines_enforce(game=Game.objects.get(pk=game.pk))
        assert status_of(game, ben) == Seat.Status.PLAYING
    clock.move_to(datetime.datetime(2026, 6, 16, 0, 0, 1, tzinfo=UTC), tick=False)
    assert services.expire_deadlines() == 1
    assert status_of(game, ben) == Seat.Status.TIMED_OUT


def test_a_player_back_from_vacation_may_play_in_the_extended_time(
    clock: Any, ana: User, ben: User
) -> None:
    game = correspondence(ana, ben)
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 14))
    play_turn(game, ana)
    clock.move_to(datetime.datetime(2026, 6, 15, 12, 0, tzinfo=UTC), tick=False)
    game = play_turn(game, ben)
    assert game.round == 2
    assert status_of(game, ben) == Seat.Status.PLAYING


def test_a_vacation_ended_early_gives_back_only_the_time_taken(
    clock: Any, ana: User, ben: User
) -> None:
    game = correspondence(ana, ben)
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 20))
    play_turn(game, ana)
    clock.move_to(START + datetime.timedelta(days=2), tick=False)
    assert account_services.vacation_end(user=ben)
    # Two days paused: his round now ends at noon on 13 June.
    clock.move_to(datetime.datetime(2026, 6, 13, 11, 59, tzinfo=UTC), tick=False)
    assert services.expire_deadlines() == 0
    clock.move_to(datetime.datetime(2026, 6, 13, 12, 0, 1, tzinfo=UTC), tick=False)
    assert services.expire_deadlines() == 1
    assert status_of(game, ben) == Seat.Status.TIMED_OUT


def test_a_vacation_taken_after_the_time_ran_out_saves_nothing(
    clock: Any, ana: User, ben: User
) -> None:
    game = correspondence(ana, ben)
    play_turn(game, ana)
    clock.move_to(datetime.datetime(2026, 6, 11, 13, 0, tzinfo=UTC), tick=False)
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 20))
    with pytest.raises(services.MoveRejected, match="ran out of time"):
        play_turn(game, ben)
    assert status_of(game, ben) == Seat.Status.TIMED_OUT


def test_only_the_player_on_vacation_waits_others_time_out(
    clock: Any, ana: User, ben: User
) -> None:
    cy = UserFactory(username="cy")
    game = started_game([ana, ben, cy], pace=Game.Pace.CORRESPONDENCE)
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 14))
    play_turn(game, ana)
    clock.move_to(datetime.datetime(2026, 6, 11, 12, 0, 1, tzinfo=UTC), tick=False)
    assert services.expire_deadlines() == 1
    assert status_of(game, cy) == Seat.Status.TIMED_OUT
    assert status_of(game, ben) == Seat.Status.PLAYING


def test_live_games_do_not_wait_for_a_player_on_vacation(clock: Any, ana: User, ben: User) -> None:
    game = started_game([ana, ben], pace=Game.Pace.LIVE)
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 14))
    play_turn(game, ana)
    assert game.deadline is not None
    clock.move_to(game.deadline + datetime.timedelta(seconds=1), tick=False)
    assert services.expire_deadlines() == 1
    assert status_of(game, ben) == Seat.Status.TIMED_OUT


def test_opponents_see_the_vacation_on_the_game_page_and_in_the_lobby(
    clock: Any, client: Client, ana: User, ben: User
) -> None:
    game = correspondence(ana, ben, listed=True)
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 14))
    client.force_login(ana)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-testid="vacation-notice"' in page
    # The day he is back (his last day was the 14th), not "midnight" of it.
    assert "ben is on vacation (back on June 15, 2026)" in page
    assert "midnight" not in page
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "ben (on vacation)" in lobby
    # Ben himself reads of "you", not of "ben" and "their clock".
    client.force_login(ben)
    own = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "You are on vacation (back on June 15, 2026)" in own
    assert "your clock for this game" in own
    assert "ben is on vacation" not in own
    client.force_login(ana)
    # Back from vacation: the notices go.
    account_services.vacation_end(user=ben)
    clock.move_to(START + datetime.timedelta(hours=1), tick=False)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-testid="vacation-notice"' not in page
    assert "(on vacation)" not in client.get(reverse("games:lobby")).content.decode()


def test_an_open_page_hears_of_a_vacation_begun_and_ended_without_a_reload(
    clock: Any, client: Client, ana: User, ben: User
) -> None:
    game = correspondence(ana, ben)
    client.force_login(ana)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="away-notices"' in page and "ben is on vacation" not in page
    token = re.search(r"&amp;t=([^&\"]+)\"", page)
    assert token is not None
    seen = Game.objects.get(pk=game.pk).version

    def poll(version: int) -> tuple[int, str]:
        url = reverse("games:poll", args=[game.pk])
        address = f"{url}?v={version}&s=active&draft=1&t={token.group(1)}"
        response = client.get(address, HTTP_HX_REQUEST="true")
        return response.status_code, response.content.decode()

    assert poll(seen)[0] == 204
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 14))
    # The game moved on: the page's next poll brings the notice, out of band.
    status, answer = poll(seen)
    assert status == 200
    assert 'id="away-notices" hx-swap-oob="true"' in answer
    assert "ben is on vacation (back on June 15, 2026)" in answer
    seen = Game.objects.get(pk=game.pk).version
    clock.move_to(START + datetime.timedelta(hours=1), tick=False)
    account_services.vacation_end(user=ben)
    status, answer = poll(seen)
    assert status == 200
    assert 'id="away-notices" hx-swap-oob="true"' in answer
    assert "is on vacation" not in answer
    # A game of his that is not a correspondence game in play did not move.
    live = started_game([ana, ben], pace=Game.Pace.LIVE)
    before = live.version
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 14))
    assert Game.objects.get(pk=live.pk).version == before


def test_a_live_game_page_shows_no_vacation_notice(
    clock: Any, client: Client, ana: User, ben: User
) -> None:
    game = started_game([ana, ben], pace=Game.Pace.LIVE)
    account_services.vacation_start(user=ben, until=datetime.date(2026, 6, 14))
    client.force_login(ana)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-testid="vacation-notice"' not in page
