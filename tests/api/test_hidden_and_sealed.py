"""A result a moderator hid, and a tournament's deal still sealed, are nowhere in the open
data: not the game, the lists, a player's games, the export, the embed or the image."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Game, SoloResult
from moderation.services import result_hide, result_unhide
from tests.factories import UserFactory, moderators_group
from tournaments import services as tournament_services
from tournaments import tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory(is_staff=True)
    user.groups.add(moderators_group())
    return user


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def reachable(
    client: Client, game: Game, player: User, token: str | None = None
) -> dict[str, bool]:
    """Where the open data shows ``game`` of ``player`` (with ``token``, as its owner)."""
    headers = _bearer(token) if token else {}
    listed = client.get("/api/v1/games/").json()["games"]
    theirs = client.get(f"/api/v1/players/{player.username}/games/").json()["games"]
    found = {
        "game": client.get(f"/api/v1/games/{game.pk}/", headers=headers).status_code == 200,
        "games list": any(row["id"] == game.pk for row in listed),
        "player's games": any(row["id"] == game.pk for row in theirs),
        "embed": client.get(f"/embed/games/{game.pk}/").status_code == 200,
        "landscape image": client.get(f"/games/{game.pk}/landscape.svg").status_code == 200,
    }
    if token:
        export = client.get("/api/v1/account/games.ndjson", headers=headers)
        lines = b"".join(export.streaming_content).splitlines()  # type: ignore[attr-defined]
        found["export"] = any(json.loads(line)["id"] == game.pk for line in lines)
    return found


def test_a_result_a_moderator_hid_is_shown_by_no_api_embed_or_image(
    client: Client, user: User, finished_solo: Game, token: str, moderator: User
) -> None:
    assert all(reachable(client, finished_solo, user, token).values())
    result_hide(moderator=moderator, result=finished_solo.solo_result, reason="bot help")
    # Nobody, not even its player's token, reads it: the docs promise no hidden result.
    traces = reachable(client, finished_solo, user, token)
    assert not any(traces.values()), traces
    result_unhide(moderator=moderator, result=SoloResult.objects.get(game=finished_solo))
    assert all(reachable(client, finished_solo, user, token).values())


def test_a_sealed_deal_is_in_no_list_and_no_embed_until_its_seal_lifts(
    client: Client, play_rounds: Callable[[Game, int], Game]
) -> None:
    now = timezone.now()
    tournament = tournament_services.tournament_create(
        name="Autumn cup",
        ruleset="standard",
        deal_count=1,
        starts_at=now - datetime.timedelta(hours=1),
        ends_at=now + datetime.timedelta(days=1),
    )
    ana = UserFactory()
    tournament_services.tournament_join(tournament=tournament, user=ana)
    game = play_rounds(tournament_services.deal_play(tournament=tournament, user=ana, number=1), 16)
    assert game.is_finished
    traces = reachable(client, game, ana)
    assert not any(traces.values()), traces
    with time_machine.travel(tournament.ends_at, tick=False):
        tasks.tournament_unseal.enqueue(tournament.pk)
        traces = reachable(client, game, ana)
        best: Any = client.get("/api/v1/leaderboards/standard/best/").json()["rows"]
    assert all(traces.values()), traces
    assert [row["game_id"] for row in best] == [game.pk]
