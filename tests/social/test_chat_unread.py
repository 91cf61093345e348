"""Unread chat: My games marks the games whose chat has news for the player, and the chat
panel shows where the news begins, then counts it read."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games.models import Game
from moderation import services as moderation
from social import services
from social.models import ChatMessage
from tests.factories import UserFactory, finished_multi, moderators_group, started_game
from tests.pages import HTMX, client_for

pytestmark = pytest.mark.django_db


def my_games(client: Client) -> str:
    response = client.get(reverse("games:mine"))
    assert response.status_code == 200
    return response.content.decode()


def unread_marks(page: str) -> list[str]:
    return [
        part.split(">", 1)[1].split("<", 1)[0]
        for part in page.split('data-testid="chat-unread"')[1:]
    ]


def open_chat(client: Client, game: Game) -> str:
    return client.get(reverse("social:chat", kwargs={"pk": game.pk}), **HTMX).content.decode()


def test_my_games_counts_messages_of_others_until_the_chat_is_opened(
    duel: Game, ana: User, ben: User
) -> None:
    services.chat_post(game=duel, user=ana, text="hello")
    services.chat_post(game=duel, user=ana, phrase="good_luck")
    services.chat_post(game=duel, user=ben, text="hi")
    reader = client_for(ben)
    page = my_games(reader)
    assert unread_marks(page) == ["2 unread chat messages"]
    assert f'href="/games/{duel.pk}/#chat"' in page
    # Her own messages are no news to Ana; Ben's one is.
    assert unread_marks(my_games(client_for(ana))) == ["1 unread chat message"]
    panel = open_chat(reader, duel)
    assert 'data-testid="chat-unread-divider"' in panel
    assert "2 new messages" in panel
    # The divider stands before the first message new to Ben.
    assert panel.index("chat-unread-divider") < panel.index("hello")
    assert unread_marks(my_games(reader)) == []
    assert "chat-unread-divider" not in open_chat(reader, duel)
    services.chat_post(game=duel, user=ana, text="your move")
    assert unread_marks(my_games(reader)) == ["1 unread chat message"]


def test_hidden_messages_and_blocked_players_are_not_news(duel: Game, ana: User, ben: User) -> None:
    moderator = UserFactory(username="mod", is_staff=True)
    moderator.groups.add(moderators_group())
    message = services.chat_post(game=duel, user=ana, text="rude words")
    moderation.chat_message_hide(moderator=moderator, message=message, reason="rude")
    assert unread_marks(my_games(client_for(ben))) == []
    services.chat_post(game=duel, user=ana, text="more")
    services.block(user=ben, other=ana)
    assert unread_marks(my_games(client_for(ben))) == []


def test_finished_games_show_their_unread_chat_too(ana: User, ben: User) -> None:
    game = finished_multi([ana, ben], [1, 2])
    services.chat_post(game=game, user=ana, phrase="good_game")
    assert unread_marks(my_games(client_for(ben))) == ["1 unread chat message"]


def test_the_list_counts_unread_chat_in_one_query_however_many_games(ana: User, ben: User) -> None:
    reader = client_for(ben)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            my_games(reader)
        sql = [q["sql"] for q in captured.captured_queries]
        assert sum("social_chatmessage" in statement for statement in sql) == 1
        return len(sql)

    services.chat_post(game=started_game([ana, ben]), user=ana, text="one")
    services.chat_post(game=finished_multi([ana, ben], [1, 2]), user=ana, text="two")
    few = queries()
    for _ in range(3):
        # Written straight to the table: the service would find Ana writing too fast.
        other = started_game([ana, ben])
        ChatMessage.objects.create(game=other, author=ana, text="more")
        finished = finished_multi([ana, ben], [1, 2])
        ChatMessage.objects.create(game=finished, author=ana, text="gg")
    page = my_games(reader)
    assert len(unread_marks(page)) == 8
    assert queries() == few


def test_a_spectator_reading_the_chat_leaves_no_mark(ana: User, ben: User, outsider: User) -> None:
    game = started_game([ana, ben])
    services.chat_post(game=game, user=ana, text="hello")
    assert "chat-unread-divider" not in open_chat(client_for(outsider), game)
    assert unread_marks(my_games(client_for(ben))) == ["1 unread chat message"]
