"""Staff see no daily challenge's cards in the admin before their own attempt or the day is over."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from time_machine import TimeMachineFixture

from accounts.models import User
from games import services
from games.models import Game, Move
from games.policy import revealed_cards

pytestmark = pytest.mark.django_db

Play = Callable[[Game, int], Game]


def _card_line(game: Game) -> str:
    return ", ".join(str(number) for number in revealed_cards(game))


def _game_page(client: Client, game: Game) -> str:
    return client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()


def _listed_moves(client: Client, game: Game) -> int:
    response = client.get(reverse("admin:games_move_changelist"), {"q": str(game.pk)})
    assert response.status_code == 200
    return int(response.context["cl"].result_count)


def test_a_moderator_sees_todays_cards_only_after_their_own_attempt(
    moderator_client: Client, moderator: User, player: User, play_rounds: Play
) -> None:
    theirs = play_rounds(services.game_create_daily(user=player), 16)
    assert theirs.is_finished
    page = _game_page(moderator_client, theirs)
    assert "Hidden until your own attempt of this day is over" in page
    assert _card_line(theirs) not in page

    mine = services.game_create_daily(user=moderator)
    play_rounds(mine, 3)
    assert _card_line(theirs) not in _game_page(moderator_client, theirs)
    play_rounds(mine, 13)
    assert _card_line(theirs) in _game_page(moderator_client, theirs)


def test_a_superuser_lists_no_move_of_a_day_still_secret_to_them(
    client: Client,
    superuser: User,
    player: User,
    play_rounds: Play,
    time_machine: TimeMachineFixture,
) -> None:
    daily = play_rounds(services.game_create_daily(user=player), 16)
    other = play_rounds(services.game_create_solo(user=player), 2)
    client.force_login(superuser)
    assert _listed_moves(client, daily) == 0
    assert _listed_moves(client, other) == 2
    move = Move.objects.filter(seat__game=daily).first()
    assert move is not None
    change = reverse("admin:games_move_change", args=[move.pk])
    assert client.get(change).status_code == 302  # "no such move", back to the list
    assert _card_line(daily) not in _game_page(client, daily)

    # The day over, the day's cards are everyone's.
    tomorrow = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=1)
    time_machine.move_to(tomorrow, tick=True)
    client.force_login(superuser)
    assert _listed_moves(client, daily) == 16
    assert _card_line(daily) in _game_page(client, daily)
