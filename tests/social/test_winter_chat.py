"""The chat of a Carcassonne: Winter Edition game: the same chat as Limes', on Winter's page."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from core.errors import ActionRefused
from core.tokens import chat_token
from floor import push
from social import selectors, services
from social.models import ChatMessage, ChatMute, ChatRead, GameKind
from tests.factories import UserFactory, started_game
from tests.pages import HTMX, client_for
from wintergames import services as winter_services
from wintergames.models import WinterGame

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(ana: User, ben: User) -> WinterGame:
    """A Winter game in play, ana and ben at it (the lobby's kind: open to watch)."""
    game = winter_services.game_create(
        user=ana, players=2, computers=0, level="", farmers=True, pace="untimed", seed=7
    )
    return winter_services.game_join(game_id=game.pk, user=ben)


def _chat(game: WinterGame) -> str:
    return reverse("social:winter_chat", kwargs={"pk": game.pk})


def _post(client: Client, game: WinterGame, **data: Any) -> Any:
    return client.post(_chat(game), data, **HTMX)


def _poll_url(page: str) -> str:
    return page.split('id="chat-log"')[1].split('hx-get="')[1].split('"')[0].replace("&amp;", "&")


def test_two_players_read_what_each_other_writes_escaped(
    table: WinterGame, ana: User, ben: User
) -> None:
    assert _post(client_for(ana), table, text="  <b>hi</b> Ben,\nready?  ").status_code == 200
    message = ChatMessage.objects.get()
    assert (message.winter_game, message.game, message.text) == (
        table,
        None,
        "<b>hi</b> Ben, ready?",
    )
    panel = client_for(ben).get(_chat(table), **HTMX).content.decode()
    assert "&lt;b&gt;hi&lt;/b&gt; Ben, ready?" in panel
    assert "<b>hi</b>" not in panel
    # The panel writes and polls at the Winter game's addresses.
    assert f'hx-post="{_chat(table)}"' in panel
    assert reverse("social:winter_chat_poll", kwargs={"pk": table.pk}) in panel


def test_the_winter_page_carries_the_chat_outside_the_board(table: WinterGame, ana: User) -> None:
    client = client_for(ana)
    page_url = reverse("winter:detail", kwargs={"pk": table.pk})
    page = client.get(page_url).content.decode()
    assert f'hx-get="{_chat(table)}"' in page
    # The board's fragment (a draft step, a new turn) leaves the chat where it is.
    board = client.get(page_url, **HTMX).content.decode()
    assert 'id="winter-board"' in board
    assert 'id="chat"' not in board


def test_a_game_against_the_computer_has_no_chat(ana: User) -> None:
    solo = winter_services.game_create(
        user=ana, players=2, computers=1, level="easy", farmers=True, pace="untimed", seed=3
    )
    client = client_for(ana)
    page = client.get(reverse("winter:detail", kwargs={"pk": solo.pk})).content.decode()
    assert 'id="chat"' not in page
    assert _post(client, solo, text="hello computer").status_code == 404
    with pytest.raises(PermissionDenied):
        services.chat_post(game=solo, user=ana, text="hello computer")
    assert not ChatMessage.objects.exists()


def test_spectators_read_but_do_not_write(table: WinterGame, ana: User, outsider: User) -> None:
    services.chat_post(game=table, user=ana, text="good luck")
    spectator = client_for(outsider)
    panel = spectator.get(_chat(table), **HTMX).content.decode()
    assert "good luck" in panel
    assert 'name="text"' not in panel
    assert _post(spectator, table, text="psst, the cloister").status_code == 403
    with pytest.raises(PermissionDenied):
        services.chat_post(game=table, user=outsider, text="psst")
    assert ChatMessage.objects.count() == 1


def test_nobody_signed_out_reads_it(table: WinterGame, ana: User, client: Client) -> None:
    services.chat_post(game=table, user=ana, text="secret plan")
    assert client.get(_chat(table), **HTMX).content == b""
    assert client.get(_chat(table)).status_code == 404


def test_a_challenge_s_game_is_its_players_chat_alone(
    table: WinterGame, ana: User, ben: User, outsider: User
) -> None:
    WinterGame.objects.filter(pk=table.pk).update(listed=False)  # as a challenge opens it
    table.refresh_from_db()
    services.chat_post(game=table, user=ana, text="secret plan")
    for extra in ({}, HTMX):
        response = client_for(outsider).get(_chat(table), **extra)
        assert b"secret plan" not in response.content
    assert "secret plan" in client_for(ben).get(_chat(table), **HTMX).content.decode()


def test_a_hidden_game_s_chat_is_its_players_and_the_moderators(
    table: WinterGame, ana: User, outsider: User
) -> None:
    services.chat_post(game=table, user=ana, text="gg")
    WinterGame.objects.filter(pk=table.pk).update(hidden=True)
    assert b"gg" not in client_for(outsider).get(_chat(table), **HTMX).content
    moderator = UserFactory(is_staff=True)
    assert "gg" in client_for(moderator).get(_chat(table), **HTMX).content.decode()


def test_the_poll_answers_204_without_a_query_until_a_message_arrives(
    table: WinterGame,
    ana: User,
    ben: User,
    django_assert_num_queries: Any,
    committed: Callable[[], Any],
) -> None:
    reader = client_for(ben)
    poll_url = _poll_url(reader.get(_chat(table), **HTMX).content.decode())
    reader.get(poll_url)  # the version is cached from here on
    with django_assert_num_queries(0):
        assert reader.get(poll_url).status_code == 204
    with committed():
        services.chat_post(game=table, user=ana, text="your turn")
    response = reader.get(poll_url)
    assert response.status_code == 200
    assert "your turn" in response.content.decode()


def test_a_limes_panel_s_token_opens_no_winter_chat(
    table: WinterGame, ana: User, ben: User
) -> None:
    services.chat_post(game=table, user=ana, text="secret plan")
    reader = client_for(ben)
    session = reader.cookies["sessionid"].value
    poll = reverse("social:winter_chat_poll", kwargs={"pk": table.pk})
    limes_token = chat_token(table.pk, session, ben.pk)
    response = reader.get(poll, {"v": "x", "t": limes_token, "u": str(ben.pk)})
    assert response.status_code == 404
    assert b"secret plan" not in response.content


def test_a_message_nudges_the_winter_game_s_channel(
    table: WinterGame, ana: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, str, object]] = []
    monkeypatch.setattr(push, "publish", lambda *args: sent.append(args))
    services.chat_post(game=table, user=ana, text="hello")
    # Only that the chat changed: the words come through the panel's checks.
    assert sent == [(push.winter_game_channel(table.pk), push.Event.CHAT, {})]


def test_the_panel_marks_what_it_shows_read(table: WinterGame, ana: User, ben: User) -> None:
    services.chat_post(game=table, user=ana, text="one")
    last = services.chat_post(game=table, user=ana, text="two")
    assert selectors.chat_unread_counts(ben, [table.pk], kind=GameKind.WINTER) == {table.pk: 2}
    # A Limes game of the same number counts none of them.
    assert selectors.chat_unread_counts(ben, [table.pk]) == {}
    panel = client_for(ben).get(_chat(table), **HTMX).content.decode()
    assert 'data-testid="chat-unread-divider"' in panel
    assert ChatRead.objects.get(user=ben).winter_game == table
    assert ChatRead.objects.get(user=ben).last_read == last.pk
    assert selectors.chat_unread_counts(ben, [table.pk], kind=GameKind.WINTER) == {}


def test_a_player_away_is_notified_once_with_a_link_to_the_winter_game(
    table: WinterGame, ana: User, ben: User
) -> None:
    services.chat_post(game=table, user=ana, text="hello?")
    services.chat_post(game=table, user=ana, text="anyone?")
    notice = Notification.objects.get(user=ben)
    assert notice.text == f"ana wrote in the chat of Winter game {table.pk}."
    assert notice.url == reverse("winter:detail", kwargs={"pk": table.pk}) + "#chat"
    assert not Notification.objects.filter(user=ana).exists()


def test_a_player_with_the_chat_open_is_not_notified(
    table: WinterGame, ana: User, ben: User
) -> None:
    client_for(ben).get(_chat(table), **HTMX)
    services.chat_post(game=table, user=ana, text="hello")
    assert not Notification.objects.filter(user=ben).exists()


def test_mutes_bans_blocks_and_rate_limits_hold(
    table: WinterGame, ana: User, ben: User, outsider: User
) -> None:
    ChatMute.objects.create(
        user=ben,
        reason="Insults",
        ends=timezone.now() + datetime.timedelta(hours=1),
        created_by=outsider,
    )
    assert _post(client_for(ben), table, text="hi").status_code == 403
    User.objects.filter(pk=ben.pk).update(banned_until="2030-01-01T00:00Z")
    ben.refresh_from_db()
    with pytest.raises(PermissionDenied):
        services.chat_post(game=table, user=ben, text="hi")
    client = client_for(ana)
    for n in range(5):
        assert _post(client, table, text=f"message {n}").status_code == 200
    assert _post(client, table, text="one too many").status_code == 429
    services.block(user=outsider, other=ana)
    assert b"message 0" not in client_for(outsider).get(_chat(table), **HTMX).content
    assert ChatMessage.objects.count() == 5


@pytest.mark.parametrize(
    "data",
    [
        {"text": "nul\x00byte"},
        {"text": "x" * 301},
        {"text": "   \n\t "},
        {"phrase": "no_such_phrase"},
        {"text": ["one", "two"]},
    ],
)
def test_hostile_messages_get_a_4xx_and_store_nothing(
    table: WinterGame, ana: User, data: dict[str, Any]
) -> None:
    response = _post(client_for(ana), table, **data)
    assert 400 <= response.status_code < 500
    assert not ChatMessage.objects.exists()


def test_hostile_addresses_are_404s(ana: User) -> None:
    client = client_for(ana)
    huge = 2**64
    assert client.get(f"/winter/games/{huge}/chat/").status_code == 404
    assert client.get(f"/winter/games/{huge}/chat/", **HTMX).content == b""
    assert client.post("/winter/games/0/chat/", {"text": "hi"}).status_code == 404
    assert client.get(f"/winter/games/{huge}/chat/poll/?v=1&t=x&u={ana.pk}").status_code == 404
    assert client.get("/winter/games/1/chat/poll/?v=1&t=x&u=²").status_code == 400


def test_a_limes_game_s_chat_is_not_a_winter_game_s(
    table: WinterGame, ana: User, outsider: User
) -> None:
    # One game of each kind: neither chat shows the other's messages.
    limes = started_game([ana, outsider])
    services.chat_post(game=table, user=ana, text="winter words")
    services.chat_post(game=limes, user=ana, text="limes words")
    winter_panel = client_for(ana).get(_chat(table), **HTMX).content.decode()
    limes_url = reverse("social:chat", kwargs={"pk": limes.pk})
    limes_panel = client_for(ana).get(limes_url, **HTMX).content.decode()
    assert "winter words" in winter_panel and "limes words" not in winter_panel
    assert "limes words" in limes_panel and "winter words" not in limes_panel


def test_without_javascript_the_chat_is_a_page_and_a_form(table: WinterGame, ana: User) -> None:
    client = client_for(ana)
    page = client.get(_chat(table)).content.decode()
    assert "<html" in page and 'name="text"' in page
    assert f"Back to Winter game {table.pk}" in page
    response = client.post(_chat(table), {"text": "plain form"})
    assert response.status_code == 302
    assert response["Location"] == f"/winter/games/{table.pk}/#chat"


def test_the_refusals_are_actions_refused_or_permission_denied(
    table: WinterGame, ana: User
) -> None:
    with pytest.raises(ActionRefused):
        services.chat_post(game=table, user=ana, text="")
    with pytest.raises(ActionRefused):
        services.chat_post(game=table, user=ana, phrase="no_such_phrase")


def test_my_games_marks_a_winter_game_s_unread_chat(
    table: WinterGame, ana: User, ben: User
) -> None:
    services.chat_post(game=table, user=ana, text="your turn")
    client = Client()
    client.force_login(ben)
    page = client.get("/games/mine/?game=winter").content.decode()
    assert f'href="/winter/games/{table.pk}/#chat"' in page
    assert "1 unread chat message" in page
    # ana wrote it: nothing is unread on her list.
    client.force_login(ana)
    assert "unread chat message" not in client.get("/games/mine/?game=winter").content.decode()


def test_a_winter_rematch_offer_is_notified_to_the_other_players(
    table: WinterGame,
    ana: User,
    ben: User,
    mailoutbox: list[object],
    committed: Callable[[], Any],
) -> None:
    WinterGame.objects.filter(pk=table.pk).update(status=WinterGame.Status.FINISHED)
    with committed():
        winter_services.game_rematch(game_id=table.pk, user=ana)
    (notice,) = Notification.objects.filter(user=ben)
    assert notice.text == f"ana offers a rematch of Winter game #{table.pk}."
    assert notice.url == f"/winter/games/{table.pk}/"
    assert not Notification.objects.filter(user=ana).exists()  # not told of her own offer
    # ben taking his seat in it opens no second offer.
    with committed():
        winter_services.game_rematch(game_id=table.pk, user=ben)
    assert Notification.objects.filter(user=ben).count() == 1
