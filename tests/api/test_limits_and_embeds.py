"""The API's edge (CORS, rate limits) and the embeds another site may show."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import user_delete
from api import limits
from api.models import ApiToken
from api.services import token_create
from games import services
from games.models import Game
from tests.factories import UserFactory, finished_multi
from tests.pages import csp_policy

pytestmark = pytest.mark.django_db


def test_the_api_is_open_to_every_origin_for_reading_only(client: Client) -> None:
    response = client.get("/api/v1/games/", headers={"Origin": "https://example.org"})
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    preflight = client.options(
        "/api/v1/games/",
        headers={"Origin": "https://example.org", "Access-Control-Request-Method": "GET"},
    )
    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    assert "Access-Control-Allow-Origin" not in client.get("/lobby/")
    assert client.post("/api/v1/games/").status_code == 405


def test_too_many_requests_from_one_address_get_429_and_retry_after(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "ANONYMOUS_PER_WINDOW", 3)
    statuses = [client.get("/api/v1/leaderboards/").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = client.get("/api/v1/leaderboards/")
    assert 1 <= int(refused["Retry-After"]) <= limits.WINDOW_SECONDS
    assert refused["Access-Control-Allow-Origin"] == "*"
    # Another address (behind the trusted proxy, as the site finds it) is not held back.
    assert client.get("/api/v1/leaderboards/", REMOTE_ADDR="10.0.0.9").status_code == 200
    # Pages of the site are not counted.
    assert client.get("/lobby/").status_code == 200


def test_a_token_has_its_own_limit_and_made_up_tokens_buy_nothing(
    client: Client, user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "TOKEN_PER_WINDOW", 2)
    monkeypatch.setattr(limits, "ADDRESS_CEILING", 5)
    secret = token_create(user=user, name="t").secret
    mine = {"Authorization": f"Bearer {secret}"}
    statuses = [client.get("/api/v1/account/", headers=mine).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    others = [
        client.get("/api/v1/", headers={"Authorization": f"Bearer limes_{n}"}).status_code
        for n in range(3)
    ]
    assert others == [401, 401, 429]  # the address's ceiling (5) is reached


def test_the_limit_counts_the_address_the_trusted_proxy_gives(
    client: Client, settings: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "ANONYMOUS_PER_WINDOW", 1)
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1  # type: ignore[attr-defined]
    first = {"HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    assert client.get("/api/v1/", **first).status_code == 200  # type: ignore[arg-type]
    assert client.get("/api/v1/", **first).status_code == 429  # type: ignore[arg-type]
    second = {"HTTP_X_FORWARDED_FOR": "203.0.113.6"}
    assert client.get("/api/v1/", **second).status_code == 200  # type: ignore[arg-type]


def test_the_embed_may_be_framed_by_any_site_and_no_other_page_may(
    client: Client, finished_solo: Game
) -> None:
    response = client.get(f"/embed/games/{finished_solo.pk}/?round=3")
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    assert csp_policy(response)["frame-ancestors"] == ["*"]
    assert b'data-testid="embed"' in response.content
    assert b"After round 3 of 16" in response.content
    replay = client.get(reverse("games:replay", args=[finished_solo.pk]))
    assert replay["X-Frame-Options"] == "DENY"
    assert csp_policy(replay)["frame-ancestors"] == ["'none'"]


def test_the_embed_opens_on_the_finished_landscapes_under_a_heading(
    client: Client, finished_solo: Game
) -> None:
    page = client.get(f"/embed/games/{finished_solo.pk}/").content.decode()
    assert "After round 16 of 16" in page
    assert 'rel="next"' not in page and 'rel="prev"' in page
    assert page.count("<h1") == 1
    # A round asked for is still the one shown; one out of range is the nearest.
    assert (
        "After round 1 of 16"
        in client.get(f"/embed/games/{finished_solo.pk}/?round=0").content.decode()
    )


def test_embeds_show_no_game_in_play_and_no_hidden_game(
    client: Client, user: User, finished_solo: Game
) -> None:
    in_play = services.game_create_solo(user=user, seed=2)
    client.force_login(user)
    for url in (f"/embed/games/{in_play.pk}/", f"/games/{in_play.pk}/landscape.svg"):
        assert client.get(url).status_code == 404
    finished_solo.hidden = True
    finished_solo.save(update_fields=["hidden"])
    assert client.get(f"/embed/games/{finished_solo.pk}/").status_code == 404
    assert client.get(f"/games/{finished_solo.pk}/landscape.svg").status_code == 404


def test_the_landscape_image_is_the_chosen_players_final_landscape(client: Client) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = finished_multi([ana, ben], [2, 1])
    # finished_multi makes seats without rounds: give each one a landscape of one card.
    for seat in game.seats.all():
        seat.turns = [{"card_at": [0, 0], "rotation": 0, "worker": None}]
        seat.rounds_played = 1
        seat.save(update_fields=["turns", "rounds_played"])
    winner = client.get(f"/games/{game.pk}/landscape.svg")
    assert winner["Content-Type"].startswith("image/svg+xml")
    assert b"Landscape of ben" in winner.content
    assert b'<use href="#t-' in winner.content
    chosen = client.get(f"/games/{game.pk}/landscape.svg?player=ana")
    assert b"Landscape of ana" in chosen.content
    for hostile in ("nobody", "\x00", "x" * 3000):
        assert client.get(f"/games/{game.pk}/landscape.svg", {"player": hostile}).status_code == 404


def test_tokens_are_made_shown_once_and_revoked_on_the_settings_page(
    client_logged_in: Client, user: User
) -> None:
    page = client_logged_in.get(reverse("accounts:settings"))
    assert reverse("accounts:api_tokens").encode() in page.content
    made = client_logged_in.post(reverse("accounts:api_tokens"), {"name": "my bot"})
    secret = made.context["secret"]
    assert secret.startswith("limes_") and secret.encode() in made.content
    token = ApiToken.objects.get(user=user)
    assert token.digest != secret and secret not in token.prefix + token.digest
    again = client_logged_in.get(reverse("accounts:api_tokens"))
    assert secret.encode() not in again.content and b"my bot" in again.content
    bearer = {"Authorization": f"Bearer {secret}"}
    assert client_logged_in.get("/api/v1/account/", headers=bearer).status_code == 200
    client_logged_in.post(reverse("accounts:api_token_revoke", args=[token.pk]))
    assert not ApiToken.objects.filter(user=user).exists()
    assert client_logged_in.get("/api/v1/account/", headers=bearer).status_code == 401


def test_one_cannot_revoke_someone_elses_token_nor_name_one_badly(
    client_logged_in: Client, user: User
) -> None:
    theirs = token_create(user=UserFactory(), name="theirs").token
    client_logged_in.post(reverse("accounts:api_token_revoke", args=[theirs.pk]))
    assert ApiToken.objects.filter(pk=theirs.pk).exists()
    for name in ("", "a\x00b", "x" * 500):
        response = client_logged_in.post(reverse("accounts:api_tokens"), {"name": name})
        assert response.status_code == 400
    assert not ApiToken.objects.filter(user=user).exists()


def test_the_token_page_is_translated(client_logged_in: Client) -> None:
    client_logged_in.cookies["django_language"] = "de"
    response = client_logged_in.get(reverse("accounts:api_tokens"), HTTP_ACCEPT_LANGUAGE="de")
    assert b"API-Token" in response.content


def test_a_deleted_account_takes_its_tokens_along(user: User) -> None:
    token_create(user=user, name="t")
    user_delete(user=user)
    assert not ApiToken.objects.filter(user=user).exists()


def test_the_token_page_needs_a_signed_in_player(client: Client) -> None:
    response = client.get(reverse("accounts:api_tokens"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
