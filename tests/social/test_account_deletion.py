"""A deleted account: its messages stay by "deleted player", its friendships go; the
data export holds them while it lives."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.services import user_delete
from games import services as games_services
from games.models import DataExport, Game
from social import services
from social.models import Block, Challenge, ChatMessage, Follow, FriendRequest
from tests.pages import HTMX, client_for

pytestmark = pytest.mark.django_db


def _befriend(first: User, second: User) -> None:
    services.friend_request_send(user=first, other=second)
    services.friend_request_accept(user=second, other=first)


def test_deleting_an_account_keeps_its_messages_by_a_deleted_player(
    duel: Game, ana: User, ben: User, outsider: User
) -> None:
    _befriend(ana, ben)
    services.follow(user=ana, other=outsider)
    services.block(user=ana, other=User.objects.create(username="zed"))
    services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    message = services.chat_post(game=duel, user=ana, text="bye all")
    user_delete(user=ana)
    message.refresh_from_db()
    assert message.author is None
    panel = client_for(ben).get(reverse("social:chat", kwargs={"pk": duel.pk}), **HTMX)
    text = panel.content.decode()
    assert "deleted player:" in text and "bye all" in text
    assert "ana" not in text.split('id="chat-log"')[1]
    for model in (FriendRequest, Follow, Block, Challenge):
        assert not model.objects.exists()
    assert ChatMessage.objects.count() == 1


def test_the_data_export_holds_friends_and_messages(duel: Game, ana: User, ben: User) -> None:
    _befriend(ana, ben)
    services.chat_post(game=duel, user=ana, text="hello ben")
    services.chat_post(game=duel, user=ana, phrase="good_luck")
    services.chat_post(game=duel, user=ben, text="not ana's")
    client = client_for(ana)
    client.post(reverse("accounts:data_export_prepare"))
    games_services.data_export_build(export_id=DataExport.objects.get(user=ana).pk)
    response = client.get(reverse("accounts:data_export"))
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    social = json.loads(archive.read("social.json"))
    assert [(r["from"], r["to"]) for r in social["friend_requests"]] == [("ana", "ben")]
    chat = json.loads(archive.read("chat.json"))
    assert [(m["game"], m["text"], m["quick_phrase"]) for m in chat] == [
        (duel.pk, "hello ben", ""),
        (duel.pk, "", "good_luck"),
    ]
