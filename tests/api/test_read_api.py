"""/api/v1/: what anyone may read, what a token adds, and what is never shown."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from openapi_spec_validator import validate

from accounts.models import User
from accounts.services import user_delete
from api.models import ApiToken
from api.services import token_create, token_revoke
from games import policy, services
from games.models import Game
from tests.factories import UserFactory, play_turn, solo_results, started_game

pytestmark = pytest.mark.django_db


def _get(client: Client, url: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.get(url, headers=headers)


def _body(response: Any) -> bytes:
    if response.streaming:
        return b"".join(response.streaming_content)
    return bytes(response.content)


def _ban(user: User) -> None:
    user.banned_until = timezone.now() + datetime.timedelta(days=3)
    user.save(update_fields=["banned_until"])


def test_the_openapi_schema_is_valid_and_the_docs_are_browsable(client: Client) -> None:
    response = client.get("/api/v1/openapi.json")

    def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        # JSON.parse keeps the last of two equal keys; YAML readers (Swagger UI's) refuse.
        keys = [key for key, _value in pairs]
        assert len(keys) == len(set(keys)), keys
        return dict(pairs)

    schema = json.loads(response.content, object_pairs_hook=no_duplicate_keys)
    validate(schema)
    assert "/api/v1/games/{game_id}/" in schema["paths"]
    assert "/api/v1/account/games.ndjson" in schema["paths"]
    assert client.get("/api/v1/docs").status_code == 200
    index = client.get("/api/v1/").json()
    assert index["openapi"].endswith("/api/v1/openapi.json")


def test_a_finished_game_gives_its_record_and_summary(
    client: Client, user: User, finished_solo: Game
) -> None:
    body = client.get(f"/api/v1/games/{finished_solo.pk}/").json()
    assert body["record"]["format"] == "limes-game/1"
    assert body["record"]["cards"] == finished_solo.cards
    assert len(body["record"]["turns"]) == 16
    assert body["players"][0]["name"] == user.username
    assert body["links"]["embed"].endswith(f"/embed/games/{finished_solo.pk}/")
    listed = client.get("/api/v1/games/").json()
    assert [g["id"] for g in listed["games"]] == [finished_solo.pk]


def test_a_game_in_play_shows_no_unrevealed_card_and_no_round_in_play(client: Client) -> None:
    ana, ben = UserFactory(), UserFactory()
    game = started_game([ana, ben], listed=True)
    game = play_turn(game, ana)
    game = play_turn(game, ben)  # round 1 complete
    game = play_turn(game, ana)  # round 2: only ana has played
    game.refresh_from_db()
    revealed = policy.revealed_cards(game)
    secret = token_create(user=ben, name="t").secret
    body = _get(client, f"/api/v1/games/{game.pk}/", secret).json()
    record = body["record"]
    assert record["cards"] == revealed[: len(record["cards"])]
    assert len(record["cards"]) <= len(revealed) < len(game.cards)
    assert len(record["turns"]) == 1  # ana's round 2 stays hidden until the round ends
    # A visitor without a token sees no game in play at all.
    assert client.get(f"/api/v1/games/{game.pk}/").status_code == 404


def test_a_solo_game_in_play_is_only_for_its_player(
    client: Client, user: User, token: str, play_rounds: Any
) -> None:
    game = play_rounds(services.game_create_solo(user=user, seed=3), 2)
    assert client.get(f"/api/v1/games/{game.pk}/").status_code == 404
    other = token_create(user=UserFactory(), name="other").secret
    assert _get(client, f"/api/v1/games/{game.pk}/", other).status_code == 404
    record = _get(client, f"/api/v1/games/{game.pk}/", token).json()["record"]
    assert record["cards"] == game.cards[: game.round]
    assert len(record["turns"]) == 2


def test_hidden_games_and_banned_players_are_never_shown(
    client: Client, user: User, finished_solo: Game, token: str
) -> None:
    finished_solo.hidden = True
    finished_solo.save(update_fields=["hidden"])
    assert client.get(f"/api/v1/games/{finished_solo.pk}/").status_code == 404
    assert _get(client, f"/api/v1/games/{finished_solo.pk}/", token).status_code == 404
    assert client.get("/api/v1/games/").json()["games"] == []

    banned = UserFactory()
    (seat,) = solo_results(banned, [60])
    _ban(banned)
    assert client.get(f"/api/v1/games/{seat.game_id}/").status_code == 404
    assert client.get(f"/api/v1/players/{banned.username}/").status_code == 404
    assert client.get(f"/api/v1/players/{banned.username}/games/").status_code == 404
    best = client.get("/api/v1/leaderboards/standard/best/").json()
    assert banned.username not in [row["player"] for row in best["rows"]]


def test_a_hidden_result_does_not_count_in_the_statistics(client: Client) -> None:
    player = UserFactory()
    solo_results(player, [40])
    solo_results(player, [90], hidden=True)
    stats = client.get(f"/api/v1/players/{player.username}/").json()["statistics"]
    assert stats["best_solo"] == 40
    best = client.get("/api/v1/leaderboards/standard/best/").json()["rows"]
    assert [(row["player"], row["value"]) for row in best] == [(player.username, 40.0)]


def test_no_email_address_ever(client: Client, user: User, finished_solo: Game, token: str) -> None:
    solo_results(user, [50])
    bodies = [
        _body(_get(client, url, token))
        for url in [
            "/api/v1/",
            "/api/v1/games/",
            f"/api/v1/games/{finished_solo.pk}/",
            f"/api/v1/players/{user.username}/",
            f"/api/v1/players/{user.username}/games/",
            "/api/v1/leaderboards/standard/best/",
            "/api/v1/daily/",
            "/api/v1/account/",
            "/api/v1/account/games.ndjson",
            "/api/v1/openapi.json",
        ]
    ]
    for text in bodies:
        assert user.email.encode() not in text
        assert b"@example.com" not in text


def test_a_deleted_player_has_no_profile(client: Client) -> None:
    player = UserFactory()
    name = player.username
    user_delete(user=player)
    assert client.get(f"/api/v1/players/{name}/").status_code == 404


def test_every_board_is_listed_and_paged(client: Client) -> None:
    boards = client.get("/api/v1/leaderboards/").json()
    assert {(b["ruleset"], b["kind"]) for b in boards} >= {("standard", "best"), ("both", "rating")}
    for board in boards:
        assert client.get(board["url"]).status_code == 200
    assert client.get("/api/v1/leaderboards/standard/nope/").status_code == 404
    assert client.get("/api/v1/leaderboards/standard/best/?page=0").status_code == 422


def test_the_daily_challenge_keeps_its_cards_until_the_day_is_over(
    client: Client, user: User, play_rounds: Any, time_machine: Any
) -> None:
    game = play_rounds(services.game_create_daily(user=user), 16)
    assert game.is_finished
    today = client.get("/api/v1/daily/").json()
    assert today["cards"] is None
    assert [row["game_id"] for row in today["rows"]] == [None]
    assert client.get(f"/api/v1/games/{game.pk}/").status_code == 404
    day = game.daily.isoformat()
    assert client.get(f"/api/v1/daily/{day}/").json()["cards"] is None
    assert client.get("/api/v1/daily/2099-01-01/").status_code == 404

    time_machine.move_to(timezone.now() + datetime.timedelta(days=1))
    past = client.get(f"/api/v1/daily/{day}/").json()
    assert past["over"] is True
    assert past["cards"] == game.cards
    assert [row["game_id"] for row in past["rows"]] == [game.pk]


def test_the_ndjson_export_streams_the_players_own_games(
    client: Client, user: User, finished_solo: Game, token: str, play_rounds: Any
) -> None:
    in_play = play_rounds(services.game_create_solo(user=user, seed=5), 3)
    someone_elses = solo_results(UserFactory(), [44])[0].game
    response = _get(client, "/api/v1/account/games.ndjson", token)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in _body(response).splitlines()]
    assert [line["id"] for line in lines] == [finished_solo.pk, in_play.pk]
    assert someone_elses.pk not in [line["id"] for line in lines]
    assert lines[1]["record"]["cards"] == in_play.cards[: in_play.round]


@pytest.mark.parametrize(
    "header",
    [
        "Bearer limes_wrong",
        "Bearer nope",
        "Bearer limes_\u0661\u0662\u0663",
        "Basic dXNlcjpwdw==",
        "Bearer " + "limes_" + "x" * 5000,
    ],
)
def test_a_bad_token_is_refused(client: Client, token: str, header: str) -> None:
    response = client.get("/api/v1/account/games.ndjson", headers={"Authorization": header})
    assert response.status_code == 401
    assert client.get("/api/v1/games/", headers={"Authorization": header}).status_code == 401


def test_a_revoked_or_banned_token_opens_nothing(client: Client, user: User, token: str) -> None:
    assert _get(client, "/api/v1/account/", token).json()["username"] == user.username
    _ban(user)
    assert _get(client, "/api/v1/account/", token).status_code == 401
    user.banned_until = None
    user.save(update_fields=["banned_until"])
    token_revoke(user=user, token_id=ApiToken.objects.get(user=user).pk)
    assert _get(client, "/api/v1/account/", token).status_code == 401


def test_the_session_cookie_is_not_a_token(client_logged_in: Client, user: User) -> None:
    # Open to every origin: a signed-in visitor's cookie must open nothing private.
    assert client_logged_in.get("/api/v1/account/").status_code == 401
    game = services.game_create_solo(user=user, seed=9)
    assert client_logged_in.get(f"/api/v1/games/{game.pk}/").status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/games/?page=%00",
        "/api/v1/games/?page=99999999999999999999999",
        "/api/v1/games/?page=%C2%B2",
        "/api/v1/games/?page=%D9%A1",
        "/api/v1/games/?page=-1",
        "/api/v1/games/99999999999999999999999/",
        "/api/v1/players/a%00b/",
        "/api/v1/players/nobody/games/?page=x",
        "/api/v1/leaderboards/standard%00/best/",
        "/api/v1/leaderboards/standard/best/?page=100001",
        "/api/v1/daily/0001-01-01/",
        "/api/v1/daily/%D9%A1%D9%A1%D9%A1%D9%A1-01-01/",
        "/api/v1/daily/2026-13-01/",
        "/api/v1/daily/x%00/",
        "/api/v1/daily/?page=%00",
    ],
)
def test_hostile_input_gets_a_4xx(client: Client, url: str) -> None:
    status = client.get(url).status_code
    assert 400 <= status < 500, (url, status)
