from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import SeatFactory, SoloResultFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["game", "seat", "move", "soloresult"])
def test_staff_can_list_and_search_every_game_model(client: Client, model: str) -> None:
    seat = SeatFactory()
    SoloResultFactory()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = reverse(f"admin:games_{model}_changelist")
    response = client.get(url, {"q": seat.user.username})
    assert response.status_code == 200
    if model in ("game", "seat"):
        assert seat.user.username in response.content.decode()


def test_the_card_sequence_cannot_be_edited_in_the_admin(client: Client) -> None:
    game = SeatFactory().game
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert 'name="cards"' not in page and 'name="seed"' not in page
    assert Game.objects.get(pk=game.pk).cards == game.cards
