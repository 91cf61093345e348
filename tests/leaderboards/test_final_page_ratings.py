"""After a rated game the final page shows what it did to each player's rating."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from leaderboards.rating import display_rating
from tests.factories import PASSWORD, UserFactory, play_turn, started_game

pytestmark = pytest.mark.django_db


def test_the_final_page_of_a_rated_game_shows_each_rating_change() -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
    while not game.is_finished:
        for player in (ana, ben):
            game = play_turn(game, player)
        game.refresh_from_db()
    client = Client()
    assert client.login(username="ben", password=PASSWORD)
    page = client.get(reverse("games:detail", kwargs={"pk": game.pk})).content.decode()
    shown = re.findall(r'data-testid="rating-change">rating ([+-]\d+|±0), now (\d+)<', page)
    expected = []
    for seat in game.seats.order_by("place", "position"):
        assert seat.rating_before is not None and seat.rating_after is not None
        change = display_rating(seat.rating_after) - display_rating(seat.rating_before)
        expected.append(
            (f"{change:+d}" if change else "±0", str(display_rating(seat.rating_after)))
        )
    assert sorted(shown) == sorted(expected) and len(shown) == 2


def test_a_game_in_play_shows_no_rating_change() -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
    client = Client()
    assert client.login(username="ana", password=PASSWORD)
    page = client.get(reverse("games:detail", kwargs={"pk": game.pk})).content.decode()
    assert "rating-change" not in page
