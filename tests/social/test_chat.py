"""In-game chat: who reads it, who writes in it, and what may be written."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.test import AsyncClient, Client, override_settings
from django.urls import reverse

from accounts.models import Notification, User
from core.errors import ActionRefused
from core.tokens import poll_token
from games.models import Game
from social import services
from social.models import ChatMessage
from tests.factories import GameFactory, SeatFactory, UserFactory, started_game
from tests.pages import HTMX, client_for

pytestmark = pytest.mark.django_db


def _chat(game: Game) -> str:
    return reverse("social:chat", kwargs={"pk": game.pk})


def _post(client: Client, game: Game, **data: Any) -> Any:
    return client.post(_chat(game), data, **HTMX)


def test_two_players_read_what_each_other_writes_escaped(duel: Game, ana: User, ben: User) -> None:
    response = _post(client_for(ana), duel, text="  <b>hi</b> Ben,\nready?  ")
    assert response.status_code == 200
    assert ChatMessage.objects.get().text == "<b>hi</b> Ben, ready?"
    page = client_for(ben).get(_chat(duel), **HTMX).content.decode()
    assert "&lt;b&gt;hi&lt;/b&gt; Ben, ready?" in page
    assert "<b>hi</b>" not in page
    assert "ana:" in page


def test_the_game_page_carries_the_chat_panel_of_a_multiplayer_game(duel: Game, ana: User) -> None:
    page = client_for(ana).get(reverse("games:detail", kwargs={"pk": duel.pk})).content.decode()
    assert f'hx-get="{_chat(duel)}"' in page


def test_nobody_reads_the_chat_of_a_game_they_may_not_watch(
    duel: Game, ana: User, outsider: User, client: Client
) -> None:
    services.chat_post(game=duel, user=ana, text="secret plan")
    for reader in (client_for(outsider), client):
        for extra in ({}, HTMX):
            response = reader.get(_chat(duel), **extra)
            assert response.status_code in (200, 404)
            assert b"secret plan" not in response.content
        # Not even by its poll, with a token made up or taken from nowhere.
        poll = reverse("social:chat_poll", kwargs={"pk": duel.pk})
        response = reader.get(poll, {"v": "x", "t": "0" * 32, "u": str(ana.pk)})
        assert response.status_code == 404
        assert b"secret plan" not in response.content


def test_spectators_of_a_listed_game_read_but_do_not_write(
    ana: User, ben: User, outsider: User
) -> None:
    game = started_game([ana, ben], listed=True)
    services.chat_post(game=game, user=ana, text="good luck")
    spectator = client_for(outsider)
    page = spectator.get(_chat(game), **HTMX).content.decode()
    assert "good luck" in page
    assert 'name="text"' not in page
    response = _post(spectator, game, text="psst, play left")
    assert response.status_code == 403
    assert ChatMessage.objects.count() == 1


def test_the_chat_of_a_game_by_invitation_stays_its_players_after_the_end(
    duel: Game, ana: User, ben: User, outsider: User, client: Client
) -> None:
    services.chat_post(game=duel, user=ana, text="secret plan")
    Game.objects.filter(pk=duel.pk).update(status=Game.Status.FINISHED, round=17)
    game_page = reverse("games:detail", kwargs={"pk": duel.pk})
    # The finished game itself is public; its chat is not.
    assert client_for(outsider).get(game_page).status_code == 200
    for reader in (client_for(outsider), client):
        for extra in ({}, HTMX):
            response = reader.get(_chat(duel), **extra)
            assert response.status_code in (200, 404)  # htmx: an empty answer
            assert b"secret plan" not in response.content
        assert b"secret plan" not in reader.get(game_page).content
    for player in (ana, ben):
        assert "secret plan" in client_for(player).get(_chat(duel), **HTMX).content.decode()
    # A listed game's chat stays as public as the game after its end.
    Game.objects.filter(pk=duel.pk).update(listed=True)
    assert "secret plan" in client_for(outsider).get(_chat(duel), **HTMX).content.decode()


def test_a_solo_game_or_a_daily_challenge_has_no_chat(ana: User) -> None:
    daily = GameFactory(created_by=ana, daily="2026-06-10", mode=Game.Mode.MULTI)
    SeatFactory(game=daily, user=ana)
    solo = GameFactory(created_by=ana)
    SeatFactory(game=solo, user=ana)
    for game in (daily, solo):
        assert _post(client_for(ana), game, text="hello").status_code == 404
        with pytest.raises(PermissionDenied):
            services.chat_post(game=game, user=ana, text="hello")
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {"text": "nul\x00byte"},
        {"text": "x" * 301},
        {"text": "   \n\t "},
        {"text": "\x07\x1b"},
        {"text": ""},
        {"phrase": "no_such_phrase"},
        {"phrase": "x" * 5000},
        {"text": ["one", "two"]},
    ],
)
def test_hostile_messages_get_a_4xx_and_store_nothing(
    duel: Game, ana: User, data: dict[str, Any]
) -> None:
    response = _post(client_for(ana), duel, **data)
    assert 400 <= response.status_code < 500
    assert not ChatMessage.objects.exists()


def test_a_bad_game_number_is_a_404(ana: User) -> None:
    client = client_for(ana)
    assert client.get("/games/99999999999999999999/chat/").status_code == 404
    assert client.post("/games/0/chat/", {"text": "hi"}).status_code == 404


def test_a_player_writing_too_fast_is_slowed_down(duel: Game, ana: User) -> None:
    client = client_for(ana)
    for n in range(5):
        assert _post(client, duel, text=f"message {n}").status_code == 200
    response = _post(client, duel, text="one too many")
    assert response.status_code == 429
    assert "too fast" in response.content.decode()
    assert ChatMessage.objects.count() == 5


@override_settings(LIMES_CHAT_WORD_FILTER=["badword"])
def test_the_word_filter_refuses_a_listed_word_in_any_case_or_width(duel: Game, ana: User) -> None:
    client = client_for(ana)
    for text in ("you badword", "BadWord!", "ｂａｄｗｏｒｄ"):
        assert _post(client, duel, text=text).status_code == 400
    assert _post(client, duel, text="badwordsmith is a fine name").status_code == 200
    assert list(ChatMessage.objects.values_list("text", flat=True)) == [
        "badwordsmith is a fine name"
    ]


def test_a_banned_player_cannot_post(duel: Game, ana: User) -> None:
    User.objects.filter(pk=ana.pk).update(banned_until="2030-01-01T00:00Z")
    ana.refresh_from_db()
    with pytest.raises(PermissionDenied):
        services.chat_post(game=duel, user=ana, text="hi")
    assert not ChatMessage.objects.exists()


def test_quick_phrases_read_in_each_readers_language(duel: Game, ana: User, ben: User) -> None:
    assert _post(client_for(ana), duel, phrase="good_luck").status_code == 200
    User.objects.filter(pk=ben.pk).update(language="de")
    german = client_for(ben)
    german.cookies["django_language"] = "de"
    page = german.get(_chat(duel), HTTP_ACCEPT_LANGUAGE="de", **HTMX).content.decode()
    assert "Viel Glück!" in page
    assert "Good luck!" in client_for(ana).get(_chat(duel), **HTMX).content.decode()


def test_the_poll_answers_204_without_a_query_until_a_message_arrives(
    duel: Game, ana: User, ben: User, django_assert_num_queries: Any, committed: Callable[[], Any]
) -> None:
    reader = client_for(ben)
    page = reader.get(_chat(duel), **HTMX).content.decode()
    poll_url = page.split('hx-get="')[1].split('"')[0].replace("&amp;", "&")
    reader.get(poll_url)  # the version is cached from here on
    with django_assert_num_queries(0):
        assert reader.get(poll_url).status_code == 204
    with committed():
        services.chat_post(game=duel, user=ana, text="your move")
    response = reader.get(poll_url)
    assert response.status_code == 200
    assert "your move" in response.content.decode()


def test_blocking_a_player_hides_their_messages(duel: Game, ana: User, ben: User) -> None:
    services.chat_post(game=duel, user=ana, text="annoying words")
    services.block(user=ben, other=ana)
    assert b"annoying words" not in client_for(ben).get(_chat(duel), **HTMX).content


def test_a_player_away_from_the_game_is_notified_once(
    duel: Game, ana: User, ben: User, mailoutbox: list[Any]
) -> None:
    services.chat_post(game=duel, user=ana, text="hello?")
    services.chat_post(game=duel, user=ana, text="anyone?")
    notices = Notification.objects.filter(user=ben)
    assert [n.text for n in notices] == [f"ana wrote in the chat of game #{duel.pk}."]
    assert not Notification.objects.filter(user=ana).exists()
    # By e-mail only if asked for: chat messages are off by default.
    assert mailoutbox == []


def test_a_player_with_the_chat_open_is_not_notified(duel: Game, ana: User, ben: User) -> None:
    client_for(ben).get(_chat(duel), **HTMX)  # the panel is open: ben is here
    services.chat_post(game=duel, user=ana, text="hello")
    assert not Notification.objects.filter(user=ben).exists()


def test_without_javascript_the_chat_is_a_page_and_a_form(duel: Game, ana: User) -> None:
    client = client_for(ana)
    page = client.get(_chat(duel)).content.decode()
    assert "<html" in page and 'name="text"' in page
    response = client.post(_chat(duel), {"text": "plain form"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"/games/{duel.pk}/#chat")


def test_refusals_are_actions_refused_or_permission_denied(
    duel: Game, ana: User, outsider: User
) -> None:
    with pytest.raises(ActionRefused):
        services.chat_post(game=duel, user=ana, text="")
    with pytest.raises(PermissionDenied):
        services.chat_post(game=duel, user=outsider, text="hi")
    other = UserFactory()
    finished_with_others = started_game([other, outsider])
    with pytest.raises(PermissionDenied):
        services.chat_post(game=finished_with_others, user=ana, text="hi")


def test_a_game_number_beyond_any_id_is_a_404_and_an_empty_panel_for_htmx(ana: User) -> None:
    client = client_for(ana)
    huge = 2**64
    # htmx swaps no 404: the game page's placeholder is answered with nothing, and goes away.
    panel = client.get(f"/games/{huge}/chat/", **HTMX)
    assert (panel.status_code, panel.content) == (200, b"")
    assert client.get(f"/games/{huge}/chat/").status_code == 404
    assert client.get(f"/games/{huge}/chat/poll/?v=1&t=x&u={ana.pk}").status_code == 404


def test_a_sealed_game_has_no_chat(duel: Game, ana: User) -> None:
    # A tournament's asynchronous deal is sealed until the tournament ends: no collusion.
    Game.objects.filter(pk=duel.pk).update(sealed_until="2026-06-11T12:00Z")
    assert _post(client_for(ana), duel, text="which card is next?").status_code == 404
    assert not ChatMessage.objects.exists()


def test_a_message_reaches_the_other_players_stream_at_once(
    ana: User, ben: User, duel: Game, django_capture_on_commit_callbacks: Any
) -> None:
    """With push, the chat's poll stands aside: the game's stream tells of each message."""
    stream = reverse("games:stream", kwargs={"pk": duel.pk})
    reader = AsyncClient()
    reader.force_login(ana)

    async def scenario() -> list[str]:
        page = await reader.get(reverse("games:detail", kwargs={"pk": duel.pk}))
        assert page.status_code == 200
        token = poll_token(duel.pk, reader.cookies[settings.SESSION_COOKIE_NAME].value)
        response = await reader.get(f"{stream}?v={duel.version}&t={token}")
        chunks = aiter(response.streaming_content)  # type: ignore[attr-defined]
        seen: list[str] = []
        await asyncio.wait_for(anext(chunks), 20)  # the stream's retry advice

        def post() -> None:
            with django_capture_on_commit_callbacks(execute=True):
                services.chat_post(game=duel, user=ben, text="good luck")

        await sync_to_async(post)()
        # Keep-alives may come first; a stream that never tells of the chat fails the test.
        async with asyncio.timeout(20):
            while not any("event: chat" in chunk for chunk in seen):
                chunk = await anext(chunks)
                seen.append(chunk.decode() if isinstance(chunk, bytes) else str(chunk))
        await chunks.aclose()
        return seen

    events = async_to_sync(scenario)()
    chat = next(chunk for chunk in events if "event: chat" in chunk)
    # The event says only that the chat changed; the words come through the panel's checks.
    assert "good luck" not in chat
    panel = client_for(ana).get(reverse("social:chat", kwargs={"pk": duel.pk})).content.decode()
    assert "sse:chat" in panel and "good luck" in panel
