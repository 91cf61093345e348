"""The NDJSON export in pages: each bounded in games, and a few pages a minute per player."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from api import limits, v1
from api.services import token_create
from tests.factories import solo_results

pytestmark = pytest.mark.django_db

URL = "/api/v1/account/games.ndjson"


def _get(client: Client, url: str, token: str) -> Any:
    return client.get(url, headers={"Authorization": f"Bearer {token}"})


def _ids(response: Any) -> list[int]:
    body = b"".join(response.streaming_content)
    return [json.loads(line)["id"] for line in body.splitlines()]


def test_the_export_comes_in_pages_that_hold_every_game_once(
    client: Client, user: User, token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(v1, "EXPORT_PAGE", 2)
    games = [result.game.pk for result in solo_results(user, [40, 41, 42, 43, 44])]
    seen: list[int] = []
    url: str | None = URL
    pages = 0
    while url is not None:
        response = _get(client, url, token)
        assert response.status_code == 200
        page = _ids(response)
        assert len(page) <= 2
        seen += page
        pages += 1
        link = response.get("Link")
        url = link.split(">")[0].lstrip("<") if link else None
    assert pages == 3
    # A page elsewhere may read the Link header too (CORS).
    assert "Link" in response["Access-Control-Expose-Headers"]
    assert seen == sorted(games)


def test_a_player_asking_for_too_many_pages_waits(client: Client, user: User, token: str) -> None:
    solo_results(user, [40])
    other_token = token_create(user=user, name="another script").secret
    for n in range(limits.EXPORT_PAGES_PER_WINDOW):
        assert _get(client, URL, token if n % 2 else other_token).status_code == 200
    # Another token of the same player buys no more pages.
    for secret in (token, other_token):
        refused = _get(client, URL, secret)
        assert refused.status_code == 429
        assert int(refused["Retry-After"]) > 0
    # The rest of the API is still open to them.
    assert _get(client, "/api/v1/account/", token).status_code == 200


@pytest.mark.parametrize("after", ["-1", "x", "9" * 30, "1.5"])
def test_a_bad_cursor_is_a_422(client: Client, token: str, after: str) -> None:
    assert _get(client, f"{URL}?after={after}", token).status_code == 422
