"""Staff see no tournament deal's cards before the tournament is over: they may play it too."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.policy import revealed_cards
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

Play = Callable[[Game, int], Game]


def _card_line(game: Game) -> str:
    return ", ".join(str(number) for number in revealed_cards(game))


def _tournament_game(player: User, play_rounds: Play) -> Game:
    now = timezone.now()
    tournament = tournaments.tournament_create(
        name="Autumn cup",
        ruleset="standard",
        deal_count=1,
        starts_at=now - datetime.timedelta(hours=1),
        ends_at=now + datetime.timedelta(days=1),
    )
    tournaments.tournament_join(tournament=tournament, user=player)
    game = tournaments.deal_play(tournament=tournament, user=player, number=1)
    return play_rounds(game, 16)


def test_a_moderator_sees_a_sealed_games_cards_only_once_the_seal_lifts(
    moderator_client: Client, superuser: User, player: User, play_rounds: Play
) -> None:
    game = _tournament_game(player, play_rounds)
    assert game.is_finished and game.sealed_until is not None
    admin_page = reverse("admin:games_game_change", args=[game.pk])
    page = moderator_client.get(admin_page).content.decode()
    assert "Hidden until the tournament is over" in page
    assert _card_line(game) not in page
    # Nor its board on the site, nor (to a superuser) its moves in the admin's list.
    assert moderator_client.get(reverse("games:detail", args=[game.pk])).status_code == 404
    admin = Client()
    admin.force_login(superuser)
    moves = admin.get(reverse("admin:games_move_changelist"), {"q": str(game.pk)})
    assert moves.context["cl"].result_count == 0
    with time_machine.travel(game.sealed_until + datetime.timedelta(minutes=1), tick=False):
        assert _card_line(game) in moderator_client.get(admin_page).content.decode()
        assert moderator_client.get(reverse("games:detail", args=[game.pk])).status_code == 200
        moves = admin.get(reverse("admin:games_move_changelist"), {"q": str(game.pk)})
        assert moves.context["cl"].result_count == 16


def test_the_player_of_a_sealed_game_still_sees_it(
    client: Client, player: User, play_rounds: Play
) -> None:
    game = _tournament_game(player, play_rounds)
    client.force_login(player)
    assert client.get(reverse("games:detail", args=[game.pk])).status_code == 200
