"""/api/v1/tournaments/: what the tournaments' pages show a visitor, no more."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import services as game_services
from games.models import Game
from tests.factories import UserFactory
from tournaments import services

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


def test_standings_show_per_deal_results_only_once_over_and_no_banned_player(
    client: Client, play_rounds: Callable[[Game, int], Game], time_machine: Any
) -> None:
    now = timezone.now()
    tournament = services.tournament_create(
        name="Spring cup",
        ruleset="standard",
        deal_count=1,
        starts_at=now - HOUR,
        ends_at=now + HOUR,
    )
    ana, ben = UserFactory(), UserFactory()
    for player in (ana, ben):
        services.tournament_join(tournament=tournament, user=player)
        game = services.deal_play(tournament=tournament, user=player, number=1)
        game = play_rounds(game, 16 if player == ana else 4)
        if not game.is_finished:
            game_services.seat_resign(game=game, user=player)
    listed = client.get("/api/v1/tournaments/").json()
    assert [t["id"] for t in listed] == [tournament.pk]
    running = client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert [row["player"] for row in running["standings"]] == [ana.username, ben.username]
    assert running["standings"][0]["scores"] is None  # the deal's results wait for the end

    ben.banned_until = timezone.now() + 100 * HOUR
    ben.save(update_fields=["banned_until"])
    time_machine.move_to(now + 2 * HOUR)
    over = client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert over["over"] is True
    assert [row["player"] for row in over["standings"]] == [ana.username]
    assert over["standings"][0]["percents"] == [100.0]
    for url in ("/api/v1/tournaments/0/", f"/api/v1/tournaments/{tournament.pk}/?page=0"):
        assert 400 <= client.get(url).status_code < 500
    bad = {"Authorization": "Bearer limes_nope"}
    assert client.get("/api/v1/tournaments/", headers=bad).status_code == 401
