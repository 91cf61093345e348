"""Download my data: the profile as JSON and every game as a limes-game/1 record, zipped."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable

import pytest
from django.http import StreamingHttpResponse
from django.test import Client
from django.urls import reverse

import rules
from accounts.models import User
from games import services
from games.models import Game
from tests.factories import UserFactory, play_turn, started_game

pytestmark = pytest.mark.django_db


def _download(client: Client) -> zipfile.ZipFile:
    response = client.get(reverse("accounts:data_export"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    # Streamed as it is written, not built in memory first.
    assert isinstance(response, StreamingHttpResponse)
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def test_the_zip_holds_the_profile_and_every_game_as_a_record(
    client_logged_in: Client, user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    solo = play_rounds(services.game_create_solo(user=user, seed=5), 16)
    running = services.game_create_solo(user=user, seed=6)
    play_rounds(running, 2)
    rival = UserFactory()
    duel = started_game([user, rival])
    play_turn(duel, user)
    play_turn(duel, rival)
    play_turn(duel, rival)  # round 2 of the rival, not yet shown to anyone
    services.game_create_multi(user=rival, seats_max=2, pace="live")  # not the player's

    archive = _download(client_logged_in)
    profile = json.loads(archive.read("profile.json"))
    assert (profile["username"], profile["email"]) == (user.username, user.email)
    names = sorted(archive.namelist())
    # social.json and chat.json: friends and chat messages (tests/social/).
    assert names == sorted(
        [
            "profile.json",
            "social.json",
            "chat.json",
            *(f"games/limes-game-{g.pk}.json" for g in (solo, running, duel)),
        ]
    )
    records = {name: json.loads(archive.read(name)) for name in names if name.startswith("games/")}
    for record in records.values():
        assert record["format"] == "limes-game/1"
        rules.game_from_record(record)  # each one replays
    assert len(records[f"games/limes-game-{solo.pk}.json"]["turns"]) == 16
    assert len(records[f"games/limes-game-{running.pk}.json"]["turns"]) == 2
    # The round in play of a game with others stays hidden, here as on the page.
    assert len(records[f"games/limes-game-{duel.pk}.json"]["turns"]) == 1


def test_only_the_signed_in_player_downloads_their_data(client: Client) -> None:
    response = client.get(reverse("accounts:data_export"))
    assert response.status_code == 302
    assert "login" in response["Location"]
