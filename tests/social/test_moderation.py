"""Chat under moderation: reports from a message, hiding, muting, all in the audit log."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from games.models import Game
from moderation import services as moderation
from moderation.models import AuditEntry, Report
from social import services
from social.models import ChatMessage
from tests.factories import UserFactory, moderators_group
from tests.pages import HTMX, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory(username="mod", is_staff=True)
    user.groups.add(moderators_group())
    return user


@pytest.fixture
def rude(duel: Game, ana: User) -> ChatMessage:
    return services.chat_post(game=duel, user=ana, text="you play like a potato")


def _chat(game: Game) -> str:
    return reverse("social:chat", kwargs={"pk": game.pk})


def test_a_message_is_reported_from_the_message(
    duel: Game, ana: User, ben: User, rude: ChatMessage
) -> None:
    reader = client_for(ben)
    panel = reader.get(_chat(duel), **HTMX).content.decode()
    link = panel.split('class="chat__report" href="')[1].split('"')[0].replace("&amp;", "&")
    page = reader.get(link).content.decode()
    assert "you play like a potato" in page
    assert 'value="chat" checked' in page or 'value="chat"\n' in page or "checked" in page
    reader.post(link, {"category": "chat", "text": "Insults in the chat.", "message": rude.pk})
    report = Report.objects.get()
    assert (report.target, report.chat_message, report.game) == (ana, rude, duel)


def test_a_message_the_reporter_may_not_read_is_left_out_of_the_report(
    ana: User, rude: ChatMessage, outsider: User
) -> None:
    client = client_for(outsider)
    url = reverse("moderation:report", kwargs={"username": ana.username})
    page = client.get(url, {"message": rude.pk}).content.decode()
    assert "potato" not in page
    client.post(url, {"category": "chat", "text": "Something she said.", "message": rude.pk})
    report = Report.objects.get()
    assert (report.chat_message, report.game) == (None, None)


def test_a_moderator_hides_a_message_for_everyone_and_the_log_says_so(
    duel: Game, ben: User, rude: ChatMessage, moderator: User
) -> None:
    moderation.chat_message_hide(moderator=moderator, message=rude, reason="Insult")
    assert b"potato" not in client_for(ben).get(_chat(duel), **HTMX).content
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target, entry.game_id, entry.reason) == (
        AuditEntry.Action.HIDE_MESSAGE,
        rude.author,
        duel.pk,
        "Insult",
    )
    moderation.chat_message_unhide(moderator=moderator, message=rude)
    assert b"potato" in client_for(ben).get(_chat(duel), **HTMX).content
    assert AuditEntry.objects.count() == 2


def test_a_muted_player_cannot_post_until_the_mute_ends(
    duel: Game, ana: User, moderator: User, time_machine: Any
) -> None:
    until = timezone.now() + datetime.timedelta(hours=1)
    moderation.chat_mute(moderator=moderator, user=ana, until=until, reason="Insults")
    assert AuditEntry.objects.get().action == AuditEntry.Action.MUTE
    assert "muted you in chat" in Notification.objects.get(user=ana).text
    client = client_for(ana)
    response = client.post(_chat(duel), {"text": "still here"}, **HTMX)
    assert response.status_code == 403
    panel = client.get(_chat(duel), **HTMX).content.decode()
    assert 'data-testid="chat-muted"' in panel and 'name="text"' not in panel
    assert not ChatMessage.objects.filter(text="still here").exists()
    time_machine.move_to(timezone.now() + datetime.timedelta(hours=2))
    assert client.post(_chat(duel), {"text": "back"}, **HTMX).status_code == 200


def test_players_cannot_moderate_chat(ana: User, ben: User, rude: ChatMessage) -> None:
    with pytest.raises(PermissionDenied):
        moderation.chat_message_hide(moderator=ben, message=rude, reason="mine")
    with pytest.raises(PermissionDenied):
        moderation.chat_mute(
            moderator=ben, user=ana, until=timezone.now() + datetime.timedelta(hours=1), reason="x"
        )
    assert not AuditEntry.objects.exists()
    rude.refresh_from_db()
    assert not rude.hidden


def test_the_admin_hides_a_message_through_its_action(
    client: Any, moderator: User, rude: ChatMessage
) -> None:
    client.force_login(moderator)
    url = reverse("admin:social_chatmessage_changelist")
    response = client.post(
        url,
        {
            "action": "hide_messages",
            "_selected_action": [rude.pk],
            "apply": "1",
            "reason": "Insult",
        },
    )
    assert response.status_code == 302
    rude.refresh_from_db()
    assert rude.hidden
    assert AuditEntry.objects.get().action == AuditEntry.Action.HIDE_MESSAGE


def test_the_admin_mutes_and_unmutes_a_messages_author(
    client: Any, moderator: User, ana: User, rude: ChatMessage
) -> None:
    client.force_login(moderator)
    url = reverse("admin:social_chatmessage_changelist")
    data = {"_selected_action": [rude.pk], "apply": "1", "reason": "Insults", "hours": "24"}
    assert client.post(url, {"action": "mute_authors", **data}).status_code == 302
    assert client.post(url, {"action": "unmute_authors", **data}).status_code == 302
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", "target"))
    assert actions == [(AuditEntry.Action.MUTE, ana.pk), (AuditEntry.Action.UNMUTE, ana.pk)]
    assert rude.game is not None
    assert services.chat_post(game=rude.game, user=ana, text="sorry").text == "sorry"
