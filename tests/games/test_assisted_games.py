"""A game played with a hint stays out of every public place and every claim of rank."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import computer, services
from games.models import Game
from games.showcase import showcase
from leaderboards.selectors import player_statistics
from tests.factories import FinishedSoloFactory, UserFactory

pytestmark = pytest.mark.django_db

Play = Callable[[Game, int], Game]


def test_a_hinted_game_is_never_the_front_pages_showcase() -> None:
    plain = FinishedSoloFactory(score=40)
    FinishedSoloFactory(score=90, game__assisted=True)
    shown = showcase()
    assert shown is not None and shown.game_id == plain.game_id


def test_a_hinted_game_drives_no_profiles_current_standing(client: Client) -> None:
    player: User = UserFactory()
    FinishedSoloFactory(score=30, game__created_by=player)
    hinted = FinishedSoloFactory(score=90, game__created_by=player, game__assisted=True)
    statistics = player_statistics(player)
    assert statistics.standing == 30
    assert hinted.game_id not in [entry.game_id for entry in statistics.history]
    page = client.get(reverse("accounts:profile", args=[player.username])).content.decode()
    assert reverse("games:detail", args=[hinted.game_id]) not in page


def test_a_hinted_games_final_page_claims_no_rank_nor_best(
    client_logged_in: Client, user: User, play_rounds: Play
) -> None:
    game = services.game_create_solo(user=user, seed=5)
    computer.hint_take(game=game, user=user)
    game = play_rounds(game, 16)
    assert game.is_finished and game.assisted
    page = client_logged_in.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "ranks #" not in page
    assert "A new personal best" not in page
