"""A live table's next card, tried from every side: nothing shows it before the table deals it.

Each test plays a card at a live table where another player has not played yet, then asks
for everything a player (or anyone) can fetch about the game: the page, its fragments, its
poll and stream, its record, the API and the exports, the replay and the embeds.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import AsyncClient, Client
from django.urls import reverse

import rules
from accounts.models import User
from api.services import token_create
from core.tokens import poll_token
from games import boardhtml, rebuild, services
from games.models import Game, Lockstep
from tests.factories import UserFactory, play_turn, reference_turn_of
from tests.pages import HTMX, Events, client_for, turn_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db: None) -> tuple[Lockstep, Game, Game, User, User]:
    """Ana's and Ben's games at a live table (not sealed: a finished game is public)."""
    ana, ben = UserFactory(), UserFactory()
    lockstep, games = services.lockstep_create(
        users=[ana, ben], seed=42, diagonal=False, ferryman=False, round_seconds=60
    )
    by_user = {game.created_by_id: game for game in games}
    return lockstep, by_user[ana.pk], by_user[ben.pk], ana, ben


def ana_plays_card_1(client: Client, game: Game, ana: User) -> str:
    """Ana commits round 1 through the page, as a browser does; the answer's HTML."""
    number, turn = reference_turn_of(game, ana)
    answer = client.post(
        reverse("games:play", kwargs={"pk": game.pk}), turn_fields(number, turn), **HTMX
    )
    assert answer.status_code == 200
    return answer.content.decode()


def assert_hidden(html: str, card: int) -> None:
    """Neither the card's title nor its drawing (in any turn) is on the page."""
    assert f"Card {card}<" not in html
    assert f"card {card}<" not in html
    drawn = rebuild.deck().card(card)
    for rotation in rules.ROTATIONS:
        assert boardhtml.card_html(drawn, rotation) not in html


def record_cards(record: dict[str, Any]) -> list[int]:
    return list(record["cards"])


def exported_record(client: Client, game: Game, committed: Callable[[], Any]) -> dict[str, Any]:
    # Prepared by the task worker (the tests' queue runs it at once), then downloaded.
    with committed():
        assert client.post(reverse("accounts:data_export_prepare")).status_code == 302
    response = client.get(reverse("accounts:data_export"))
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.getvalue()))
    record: dict[str, Any] = json.loads(archive.read(f"games/limes-game-{game.pk}.json"))
    return record


def ndjson_record(client: Client, secret: str, game: Game) -> dict[str, Any]:
    response: Any = client.get(
        "/api/v1/account/games.ndjson", headers={"Authorization": f"Bearer {secret}"}
    )
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    record: dict[str, Any] = next(line["record"] for line in lines if line["id"] == game.pk)
    return record


def test_a_player_who_has_played_the_tables_card_finds_the_next_nowhere(
    table: tuple[Lockstep, Game, Game, User, User], committed: Callable[[], Any]
) -> None:
    lockstep, game, _ben_game, ana, _ben = table
    first, second = game.cards[0], game.cards[1]
    client = client_for(ana)
    page = client.get(reverse("games:detail", args=[game.pk]))
    token, version = page.context["poll_token"], game.version
    with committed():
        answer = ana_plays_card_1(client, game, ana)
    assert 'data-testid="waiting"' in answer
    assert_hidden(answer, second)

    # The page, whole and as the board fragment.
    whole = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-testid="waiting"' in whole
    assert_hidden(whole, second)
    fragment = client.get(reverse("games:detail", args=[game.pk]), **HTMX).content.decode()
    assert_hidden(fragment, second)
    # The poll of a page drawn before the commit: the new version, drawn.
    query = {"v": version, "s": "active", "t": token}
    polled = client.get(reverse("games:poll", args=[game.pk]), query, **HTMX)
    assert polled.status_code == 200
    assert_hidden(polled.content.decode(), second)

    # The record, the API's game, the NDJSON export and data.zip: the first card only.
    record = client.get(reverse("games:record", args=[game.pk])).json()
    assert record_cards(record) == [first]
    assert len(record["turns"]) == 1
    secret = token_create(user=ana, name="probe").secret
    api = client.get(f"/api/v1/games/{game.pk}/", headers={"Authorization": f"Bearer {secret}"})
    assert record_cards(api.json()["record"]) == [first]
    assert record_cards(ndjson_record(client, secret, game)) == [first]
    assert record_cards(exported_record(client, game, committed)) == [first]
    # A hint would be the computer's turn with the next card: there is none to ask for.
    hint = client.post(reverse("games:hint", args=[game.pk]), **HTMX)
    assert_hidden(hint.content.decode(), second)

    # The stream tells only a version and the table's clock.
    async_client = AsyncClient()
    async_client.force_login(ana)
    cookie = async_client.cookies.get(settings.SESSION_COOKIE_NAME)
    stream_token = poll_token(game.pk, cookie.value if cookie else "")
    url = reverse("games:stream", args=[game.pk]) + f"?v=&t={stream_token}&table={lockstep.pk}"

    async def first_event() -> dict[str, str]:
        events = Events(await async_client.get(url))
        try:
            return await events.next()
        finally:
            await events.close()

    event = async_to_sync(first_event)()
    assert event["event"] == "game"
    assert str(second) not in event["data"].replace(str(game.version), "")


def test_the_next_card_comes_with_the_tables_deal_and_not_before(
    table: tuple[Lockstep, Game, Game, User, User], committed: Callable[[], Any]
) -> None:
    _lockstep, game, ben_game, ana, ben = table
    client = client_for(ana)
    with committed():
        ana_plays_card_1(client, game, ana)
    assert len(client.get(reverse("games:record", args=[game.pk])).json()["cards"]) == 1
    with committed():
        play_turn(ben_game, ben)
    # Dealt: now it is Ana's, on her page and in her record.
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f"Card {game.cards[1]}<" in page
    assert client.get(reverse("games:record", args=[game.pk])).json()["cards"] == game.cards[:2]


def test_a_player_who_leaves_before_the_deal_takes_no_next_card_with_them(
    table: tuple[Lockstep, Game, Game, User, User], committed: Callable[[], Any]
) -> None:
    _lockstep, game, ben_game, ana, ben = table
    first, second = game.cards[0], game.cards[1]
    client = client_for(ana)
    with committed():
        ana_plays_card_1(client, game, ana)
        client.post(reverse("games:resign", args=[game.pk]))
    game.refresh_from_db()
    # Her game is over (and public), while Ben has still to play card 1.
    assert game.is_finished
    assert Game.objects.get(pk=ben_game.pk).round == 1

    record = client.get(reverse("games:record", args=[game.pk])).json()
    assert record_cards(record) == [first]
    assert record_cards(exported_record(client, game, committed)) == [first]
    secret = token_create(user=ana, name="probe").secret
    assert record_cards(ndjson_record(client, secret, game)) == [first]
    assert_hidden(client.get(reverse("games:detail", args=[game.pk])).content.decode(), second)

    # Anyone else, Ben included: the API, the replay, the embed, the landscape, the analysis.
    for visitor in (Client(), client_for(ben)):
        api = visitor.get(f"/api/v1/games/{game.pk}/")
        assert record_cards(api.json()["record"]) == [first]
        replay = visitor.get(reverse("games:replay", args=[game.pk]), {"round": 2})
        assert replay.status_code == 200
        assert_hidden(replay.content.decode(), second)
        embed = visitor.get(reverse("api:embed", args=[game.pk]), {"round": 2})
        assert embed.status_code == 200
        assert_hidden(embed.content.decode(), second)
        svg = visitor.get(reverse("api:landscape", args=[game.pk]))
        assert svg.status_code == 200
        analysis = visitor.get(reverse("games:analysis", args=[game.pk]))
        assert_hidden(analysis.content.decode(), second)
        assert_hidden(visitor.get(reverse("games:detail", args=[game.pk])).content.decode(), second)
