"""A tournament's deals in lists of games: named as their own pages name them
("<tournament>, deal k of n"), not "Solo game #n", in a few queries however many."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from time_machine import TimeMachineFixture

from accounts.models import User
from games.models import Game
from tests.factories import UserFactory, moderators_group, tournament_open
from tests.pages import client_for
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def ana() -> User:
    return UserFactory(username="ana")


def deals_of(
    player: User, tournament: Tournament, play_rounds: Callable[[Game, int], Game]
) -> tuple[Game, Game]:
    """The player's first deal of ``tournament``, finished, and the second, in play."""
    services.tournament_join(tournament=tournament, user=player)
    first = play_rounds(services.deal_play(tournament=tournament, user=player, number=1), 16)
    second = play_rounds(services.deal_play(tournament=tournament, user=player, number=2), 1)
    return first, second


def test_my_games_name_a_tournaments_deals_as_their_pages_do(
    ana: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    finished, playing = deals_of(ana, tournament_open("Weekday cup"), play_rounds)
    page = client_for(ana).get(reverse("games:mine")).content.decode()
    in_play, done = page.split('id="finished"')
    assert f"/games/{playing.pk}/" in in_play and "Weekday cup, deal 2 of 2" in in_play
    assert f"/games/{finished.pk}/" in done and "Weekday cup, deal 1 of 2" in done
    assert "Solo game #" not in page


def test_my_games_read_the_deals_names_in_queries_that_do_not_grow(
    ana: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    client = client_for(ana)
    deals_of(ana, tournament_open("Weekday cup"), play_rounds)
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("games:mine"))
    for name in ("Autumn cup", "Winter cup"):
        deals_of(ana, tournament_open(name), play_rounds)
    with CaptureQueriesContext(connection) as three:
        page = client.get(reverse("games:mine")).content.decode()
    assert "Winter cup, deal 2 of 2" in page and "Autumn cup, deal 1 of 2" in page
    assert len(three) == len(one)


def test_the_home_page_names_a_tournaments_deals_as_their_pages_do(
    ana: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    finished, playing = deals_of(ana, tournament_open("Weekday cup"), play_rounds)
    page = client_for(ana).get(reverse("games:home")).content.decode()
    running, recent = page.split("Recently finished")
    assert f"/games/{playing.pk}/" in running and "Weekday cup, deal 2 of 2" in running
    assert f"/games/{finished.pk}/" in recent and "Weekday cup, deal 1 of 2" in recent
    assert "Solo game #" not in page


def test_a_deals_replay_and_its_embed_are_named_as_its_page_names_it(
    ana: User, play_rounds: Callable[[Game, int], Game], time_machine: TimeMachineFixture
) -> None:
    weekday = tournament_open("Weekday cup")
    finished, _playing = deals_of(ana, weekday, play_rounds)
    replay = client_for(ana).get(reverse("games:replay", args=[finished.pk])).content.decode()
    assert "<title>Replay · Weekday cup, deal 1 of 2" in replay
    assert "Solo game #" not in replay
    # Once the tournament is over its deals are everyone's, and may be shown elsewhere.
    time_machine.move_to(weekday.ends_at + HOUR, tick=False)
    embed = Client().get(reverse("api:embed", args=[finished.pk])).content.decode()
    assert "<title>Replay · Weekday cup, deal 1 of 2 · Limes Online</title>" in embed
    assert "Solo game #" not in embed


def test_a_deals_comparison_page_is_named_as_its_page_names_it(
    ana: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    finished, _playing = deals_of(ana, tournament_open("Weekday cup"), play_rounds)
    url = reverse("leaderboards:game_duplicate", args=[finished.pk])
    page = client_for(ana).get(url).content.decode()
    assert "<h1>Weekday cup, deal 1 of 2</h1>" in page
    assert "Solo game #" not in page


def test_a_deals_embed_code_is_titled_as_its_page_names_it(
    ana: User, play_rounds: Callable[[Game, int], Game], time_machine: TimeMachineFixture
) -> None:
    weekday = tournament_open("Weekday cup")
    finished, _playing = deals_of(ana, weekday, play_rounds)
    time_machine.move_to(weekday.ends_at + HOUR, tick=False)
    page = client_for(ana).get(reverse("games:detail", args=[finished.pk])).content.decode()
    share = page.split('data-testid="share"')[1].split("</details>")[0]
    assert "title=&quot;Weekday cup, deal 1 of 2&quot;" in share
    assert "Solo game #" not in share


def test_the_admins_seats_name_the_deals_in_queries_that_do_not_grow(
    ana: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    moderator = UserFactory(username="mod", is_staff=True)
    moderator.groups.add(moderators_group())
    client = client_for(moderator)
    seats = reverse("admin:games_seat_changelist")
    deals_of(ana, tournament_open("Weekday cup"), play_rounds)
    with CaptureQueriesContext(connection) as one:
        client.get(seats)
    for name in ("Autumn cup", "Winter cup"):
        deals_of(ana, tournament_open(name), play_rounds)
    with CaptureQueriesContext(connection) as three:
        page = client.get(seats).content.decode()
    assert "Weekday cup, deal 1 of 2" in page and "Winter cup, deal 2 of 2" in page
    assert "Solo game #" not in page
    assert len(three) == len(one)
