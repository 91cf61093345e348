from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import user_delete
from games import services
from games.models import Game
from tests.factories import SoloResultFactory, UserFactory

pytestmark = pytest.mark.django_db


def profile_url(user: User) -> str:
    return reverse("accounts:profile", kwargs={"username": user.username})


def test_a_profile_shows_games_played_and_the_best_solo_score(
    client: Client, user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    finished = play_rounds(services.game_create_solo(user=user, seed=5), 16)
    services.game_create_solo(user=user, seed=6)
    page = client.get(profile_url(user)).content.decode()
    assert user.username in page
    assert 'data-testid="games-played">2<' in page
    assert f'data-testid="best-solo">{finished.seats.get().score}<' in page


def test_hidden_results_do_not_count_as_the_best(client: Client, user: User) -> None:
    SoloResultFactory(user=user, game__created_by=user, score=30)
    SoloResultFactory(user=user, game__created_by=user, score=55, hidden=True)
    page = client.get(profile_url(user)).content.decode()
    assert 'data-testid="best-solo">30<' in page


def test_a_deleted_account_has_no_profile(client: Client) -> None:
    player = UserFactory()
    user_delete(user=player)
    assert client.get(profile_url(player)).status_code == 404
