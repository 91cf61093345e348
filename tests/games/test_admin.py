from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from games.services import game_create_daily
from tests.factories import SeatFactory, SoloResultFactory, UserFactory, moderators_group, seat_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["game", "seat", "move", "soloresult"])
def test_staff_can_list_and_search_every_game_model(client: Client, model: str) -> None:
    seat = SeatFactory()
    SoloResultFactory()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    url = reverse(f"admin:games_{model}_changelist")
    response = client.get(url, {"q": seat_user(seat).username})
    assert response.status_code == 200
    if model in ("game", "seat"):
        assert seat_user(seat).username in response.content.decode()


def test_the_card_sequence_cannot_be_edited_in_the_admin(client: Client) -> None:
    game = SeatFactory().game
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert 'name="cards"' not in page and 'name="seed"' not in page
    assert Game.objects.get(pk=game.pk).cards == game.cards


@pytest.mark.parametrize("superuser", [False, True])
def test_the_admin_shows_a_running_games_cards_only_up_to_its_round_and_never_its_seed(
    client: Client, superuser: bool
) -> None:
    player = UserFactory()
    game = services.game_create_solo(user=player, seed=4242424242)
    daily = game_create_daily(user=player)
    Game.objects.filter(pk__in=[game.pk, daily.pk]).update(round=3)
    staff = UserFactory(is_staff=True, is_superuser=superuser)
    if not superuser:
        staff.groups.add(moderators_group())
    client.force_login(staff)
    game.refresh_from_db()
    page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert ", ".join(map(str, game.cards[:3])) in page
    assert ", ".join(map(str, game.cards[:4])) not in page
    assert str(game.seed) not in page
    # Today's challenge is the staff's too: none of its cards until their own attempt ends.
    daily.refresh_from_db()
    page = client.get(reverse("admin:games_game_change", args=[daily.pk])).content.decode()
    assert ", ".join(map(str, daily.cards[:3])) not in page
    assert str(daily.seed) not in page
    listing = client.get(reverse("admin:games_game_changelist")).content.decode()
    assert str(game.seed) not in listing
