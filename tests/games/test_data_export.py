"""Download my data: the profile as JSON and every game as a limes-game/1 record, zipped by
the task worker, one export at a time per player, never built in a request."""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import rules
from accounts.models import User
from accounts.services import user_delete
from games import services
from games.models import DataExport, Game
from tests.factories import UserFactory, play_turn, started_game
from tests.pages import HTMX

pytestmark = pytest.mark.django_db


def _download(client: Client, committed: Callable[[], Any]) -> zipfile.ZipFile:
    with committed():  # the task worker builds it (the tests' queue runs it at once)
        response = client.post(reverse("accounts:data_export_prepare"))
    assert response.status_code == 302
    response = client.get(reverse("accounts:data_export"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    return zipfile.ZipFile(io.BytesIO(response.content))


def test_the_zip_holds_the_profile_and_every_game_as_a_record(
    client_logged_in: Client,
    user: User,
    play_rounds: Callable[[Game, int], Game],
    committed: Callable[[], Any],
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

    archive = _download(client_logged_in, committed)
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
    for name in ("accounts:data_export", "accounts:data_export_page"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert "login" in response["Location"]
    response = client.post(reverse("accounts:data_export_prepare"))
    assert response.status_code == 302 and "login" in response["Location"]
    assert not DataExport.objects.exists()


def test_the_settings_page_shows_the_export_being_prepared_then_ready(
    client_logged_in: Client, user: User, committed: Callable[[], Any]
) -> None:
    services.game_create_solo(user=user, seed=5)
    settings_page = client_logged_in.get(reverse("accounts:settings")).content.decode()
    page_url = reverse("accounts:data_export_page")
    assert f'hx-get="{page_url}"' in settings_page
    fragment = client_logged_in.get(page_url, **HTMX).content.decode()
    assert 'data-testid="data-export-prepare"' in fragment
    assert "<html" not in fragment
    # Asked for, not yet built (no commit: the task waits in the queue).
    fragment = client_logged_in.post(
        reverse("accounts:data_export_prepare"), **HTMX
    ).content.decode()
    assert "Your data is being prepared: 0 of 1 games written." in fragment
    assert 'hx-trigger="every 2s"' in fragment
    # Before it is ready the zip's address leads to this page.
    response = client_logged_in.get(reverse("accounts:data_export"))
    assert response.status_code == 302 and response["Location"] == page_url
    made = DataExport.objects.get()
    with committed():
        services.data_export_build(export_id=made.pk)
    fragment = client_logged_in.get(page_url, **HTMX).content.decode()
    assert 'data-testid="data-export-download"' in fragment
    assert "every 2s" not in fragment
    assert client_logged_in.get(reverse("accounts:data_export")).status_code == 200


def test_an_account_cannot_start_a_second_export_while_one_runs(
    client_logged_in: Client, user: User
) -> None:
    first = client_logged_in.post(reverse("accounts:data_export_prepare"))
    assert first.status_code == 302
    second = client_logged_in.post(reverse("accounts:data_export_prepare"), **HTMX)
    assert second.status_code == 409
    assert "Your data is already being prepared." in second.content.decode()
    assert DataExport.objects.filter(user=user).count() == 1


def test_one_export_an_hour_and_the_zip_expires(
    client_logged_in: Client, user: User, committed: Callable[[], Any], time_machine: Any
) -> None:
    prepare = reverse("accounts:data_export_prepare")
    with committed():
        client_logged_in.post(prepare)
    again = client_logged_in.post(prepare, **HTMX)
    assert again.status_code == 429
    assert "You can ask for your data once an hour: again from 13:00 UTC." in (
        again.content.decode()
    )
    assert DataExport.objects.count() == 1
    time_machine.move_to(timezone.now() + datetime.timedelta(hours=1, minutes=1))
    with committed():
        assert client_logged_in.post(prepare).status_code == 302
    assert DataExport.objects.get().status == DataExport.Status.READY  # the new one only
    time_machine.move_to(timezone.now() + datetime.timedelta(days=3))
    response = client_logged_in.get(reverse("accounts:data_export"))
    assert response.status_code == 302  # expired: the page offers a new one
    page = client_logged_in.get(reverse("accounts:data_export_page")).content.decode()
    assert 'data-testid="data-export-prepare"' in page


def test_a_lost_export_can_be_asked_for_again(
    client_logged_in: Client, user: User, time_machine: Any
) -> None:
    client_logged_in.post(reverse("accounts:data_export_prepare"))
    # Its task failed for good: an hour later the page says so, and the player may ask again.
    time_machine.move_to(timezone.now() + datetime.timedelta(hours=1, minutes=1))
    page = client_logged_in.get(reverse("accounts:data_export_page"), **HTMX).content.decode()
    assert 'data-testid="data-export-failed"' in page and "every 2s" not in page
    assert client_logged_in.post(reverse("accounts:data_export_prepare")).status_code == 302
    assert DataExport.objects.get().status == DataExport.Status.PENDING


def test_the_request_path_does_no_per_game_work(
    client_logged_in: Client, user: User, committed: Callable[[], Any], time_machine: Any
) -> None:
    def queries() -> tuple[int, int, int]:
        DataExport.objects.all().delete()
        with CaptureQueriesContext(connection) as asked:
            client_logged_in.post(reverse("accounts:data_export_prepare"))
        with CaptureQueriesContext(connection) as polled:
            client_logged_in.get(reverse("accounts:data_export_page"), **HTMX)
        services.data_export_build(export_id=DataExport.objects.get().pk)
        with CaptureQueriesContext(connection) as downloaded:
            response = client_logged_in.get(reverse("accounts:data_export"))
        assert response.status_code == 200
        return len(asked), len(polled), len(downloaded)

    services.game_create_solo(user=user, seed=1)
    few = queries()
    for seed in range(2, 10):
        services.game_create_solo(user=user, seed=seed)
    assert queries() == few
    assert (
        len(
            zipfile.ZipFile(
                io.BytesIO(client_logged_in.get(reverse("accounts:data_export")).content)
            ).namelist()
        )
        == 3 + 9
    )


def test_deleting_the_account_deletes_its_exports(
    client_logged_in: Client, user: User, committed: Callable[[], Any]
) -> None:
    with committed():
        client_logged_in.post(reverse("accounts:data_export_prepare"))
    assert DataExport.objects.get().archive
    user_delete(user=user)
    assert not DataExport.objects.exists()
