"""A page holds one event stream at most: a browser opens six connections a host over
HTTP/1.1, so two streams a tab would leave three tabs with no room for a request."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory, finished_multi, started_game

pytestmark = pytest.mark.django_db


def _streams(client: Client, url: str) -> list[str]:
    page = client.get(url)
    assert page.status_code == 200
    return re.findall(r'sse-connect="([^"?]+)', page.content.decode())


def test_a_page_without_a_stream_of_its_own_hears_challenges(
    client_logged_in: Client,
) -> None:
    assert _streams(client_logged_in, "/") == [reverse("social:challenge_stream")]


def test_the_lobby_holds_only_its_own_stream(client_logged_in: Client) -> None:
    assert _streams(client_logged_in, reverse("games:lobby")) == [reverse("games:lobby_stream")]


def test_a_game_in_play_holds_only_its_own_stream(client: Client, user: User) -> None:
    game = started_game([user, UserFactory()])
    client.force_login(user)
    streams = _streams(client, reverse("games:detail", args=[game.pk]))
    assert streams == [reverse("games:stream", args=[game.pk])]
    # Its challenge alerts are still on the page, polled.
    assert (
        'data-testid="challenge-alerts"'
        in client.get(reverse("games:detail", args=[game.pk])).content.decode()
    )


def test_a_finished_game_page_hears_challenges(client: Client, user: User) -> None:
    game = finished_multi([user, UserFactory()], [1, 2])
    client.force_login(user)
    streams = _streams(client, reverse("games:detail", args=[game.pk]))
    assert streams == [reverse("social:challenge_stream")]
