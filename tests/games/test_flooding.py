"""One player cannot flood the lobby or the tables; the lobby pages and its poll stays cheap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from core.errors import ActionRefused
from floor import limits
from games import selectors, services
from games.models import Game
from games.services import game_create_daily
from tests.factories import UserFactory
from tests.pages import HTMX

pytestmark = pytest.mark.django_db


def test_a_player_has_at_most_a_few_games_waiting_for_players(client: Client, user: User) -> None:
    for _ in range(limits.MAX_OPEN_GAMES):
        services.game_create_multi(user=user, seats_max=2, pace=Game.Pace.LIVE)
    with pytest.raises(ActionRefused, match="waiting for players"):
        services.game_create_multi(user=user, seats_max=2, pace=Game.Pace.LIVE, listed=False)
    client.force_login(user)
    response = client.post(
        reverse("games:new_multi"),
        {"seats_max": 2, "pace": "live", "live_seconds": 180, "correspondence_seconds": 86400},
        follow=True,
    )
    assert "start or cancel one first" in response.content.decode()
    assert Game.objects.filter(created_by=user).count() == limits.MAX_OPEN_GAMES
    # Once one is cancelled, another may be opened.
    services.game_cancel(game=Game.objects.filter(created_by=user).order_by("pk")[0], user=user)
    services.game_create_multi(user=user, seats_max=2, pace=Game.Pace.LIVE)


def test_a_player_has_at_most_ten_solo_games_in_play_besides_the_daily(
    client: Client, user: User
) -> None:
    games = [services.game_create_solo(user=user) for _ in range(services.MAX_SOLO_IN_PLAY)]
    client.force_login(user)
    response = client.post(reverse("games:new"), {}, follow=True)
    assert "finish or resign one first" in response.content.decode()
    assert Game.objects.filter(created_by=user).count() == services.MAX_SOLO_IN_PLAY
    # The day's challenge is never refused, and resigning a game frees a place.
    assert game_create_daily(user=user).daily is not None
    services.seat_resign(game=games[0], user=user)
    services.game_create_solo(user=user)


def test_the_lobby_lists_a_page_of_games_and_its_poll_redraws_only_that_page(
    client: Client, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    hosts = UserFactory.create_batch(12)
    for host in hosts:
        for _ in range(limits.MAX_OPEN_GAMES):
            services.game_create_multi(user=host, seats_max=2, pace=Game.Pace.LIVE)
    size = selectors.LOBBY_PAGE_SIZE
    first = client.get(reverse("games:lobby"))
    assert len(first.context["games"]) == size
    assert 'data-testid="lobby-next"' in first.content.decode()
    second = client.get(reverse("games:lobby"), {"page": 2})
    assert len(second.context["games"]) == 36 - size
    assert not {g.pk for g in first.context["games"]} & {g.pk for g in second.context["games"]}
    # Nothing new: one query, however many games are open.
    signature = first.context["signature"]
    with django_assert_max_num_queries(1):
        idle = client.get(reverse("games:lobby_poll"), {"since": signature, "page": 1}, **HTMX)
    assert idle.status_code == 204
    # Something new: a page of games redrawn, in the same few queries as for a short list.
    services.game_create_multi(user=UserFactory(), seats_max=2, pace=Game.Pace.LIVE)
    with django_assert_max_num_queries(6):
        redrawn = client.get(reverse("games:lobby_poll"), {"since": signature, "page": 2}, **HTMX)
    assert redrawn.status_code == 200
    assert redrawn.content.decode().count("data-game=") == 37 - size
