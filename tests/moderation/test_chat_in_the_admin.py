"""Chat in the admin: messages read as players saw them, and a report's page that hides
the reported message or mutes its author at once, each action audited."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games.models import Game
from moderation.models import AuditEntry, Report
from social import selectors, services
from social.models import ChatMessage, ChatMute
from tests.factories import ReportFactory, UserFactory, started_game
from tests.pages import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(player: User) -> Game:
    return started_game([player, UserFactory(username="calm")])


@pytest.fixture
def phrase(duel: Game, player: User) -> ChatMessage:
    return services.chat_post(game=duel, user=player, phrase="good_luck")


@pytest.fixture
def rude(duel: Game, player: User) -> ChatMessage:
    return services.chat_post(game=duel, user=player, text="you play like a potato")


@pytest.fixture
def report(rude: ChatMessage, player: User) -> Report:
    return ReportFactory(
        target=player,
        game=rude.game,
        chat_message=rude,
        category=Report.Category.CHAT,
        text="Insults in the chat.",
    )


def chat_url(report: Report, action: str) -> str:
    return reverse("admin:moderation_report_chat", args=[report.pk, action])


def test_a_quick_phrase_reads_as_its_words_in_the_list_and_on_its_page(
    moderator_client: Client, phrase: ChatMessage
) -> None:
    listing = moderator_client.get(reverse("admin:social_chatmessage_changelist"))
    assert "Good luck!" in listing.content.decode()
    assert ">good_luck<" not in listing.content.decode()
    page = moderator_client.get(reverse("admin:social_chatmessage_change", args=[phrase.pk]))
    assert "Message as players read it" in page.content.decode()
    assert "Good luck!" in page.content.decode()
    # And in the moderator's own language.
    with translation.override("de"):
        assert str(phrase) == "Viel Glück!"


def test_a_reports_page_offers_hiding_the_message_and_muting_its_author(
    moderator_client: Client, report: Report
) -> None:
    page = moderator_client.get(reverse("admin:moderation_report_change", args=[report.pk]))
    html = page.content.decode()
    assert "you play like a potato" in html
    assert f'action="{chat_url(report, "hide")}"' in html
    assert f'action="{chat_url(report, "mute")}"' in html
    assert 'data-testid="report-mute">Mute rowdy in chat' in html


def test_hiding_from_the_report_hides_it_and_audits_with_the_report(
    moderator_client: Client, moderator: User, report: Report, rude: ChatMessage
) -> None:
    response = moderator_client.post(chat_url(report, "hide"), {"hide-reason": "Insult"})
    assert response.status_code == 302
    rude.refresh_from_db()
    assert rude.hidden
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.moderator, entry.report, entry.reason) == (
        AuditEntry.Action.HIDE_MESSAGE,
        moderator,
        report,
        "Insult",
    )
    page = moderator_client.get(response["Location"]).content.decode()
    assert "The message is hidden." in page
    assert 'data-testid="report-chat-hidden"' in page
    # Hiding it twice is refused with a message, and nothing more is written.
    again = moderator_client.post(chat_url(report, "hide"), {"hide-reason": "Insult"}, follow=True)
    assert "This message is already hidden." in again.content.decode()
    assert AuditEntry.objects.count() == 1


def test_muting_from_the_report_keeps_the_author_out_of_the_chat(
    moderator_client: Client, report: Report, player: User, duel: Game
) -> None:
    response = moderator_client.post(
        chat_url(report, "mute"), {"mute-reason": "Insults", "mute-hours": "24"}, follow=True
    )
    # (The admin writes its messages with a capital.)
    assert "rowdy is muted in chat." in response.content.decode().lower()
    mute = selectors.chat_mute_in_force(player)
    assert mute is not None
    assert mute.ends.date() == mute.starts.date() + datetime.timedelta(days=1)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target, entry.report) == (AuditEntry.Action.MUTE, player, report)
    posted = client_for(player).post(
        reverse("social:chat", kwargs={"pk": duel.pk}), {"text": "sorry"}
    )
    assert posted.status_code == 403


def test_a_form_without_a_reason_acts_on_nothing(
    moderator_client: Client, report: Report, rude: ChatMessage
) -> None:
    response = moderator_client.post(chat_url(report, "hide"), {"hide-reason": ""}, follow=True)
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    rude.refresh_from_db()
    assert not rude.hidden and not AuditEntry.objects.exists()


def test_staff_without_the_chat_permission_get_403_and_players_the_sign_in(
    report: Report, rude: ChatMessage
) -> None:
    # Staff who may read reports but not moderate chat: the service says no.
    clerk = UserFactory(username="clerk", is_staff=True)
    clerk.user_permissions.add(
        Permission.objects.get(content_type__app_label="moderation", codename="view_report"),
        Permission.objects.get(content_type__app_label="moderation", codename="change_report"),
    )
    clerk_client = client_for(clerk)
    assert clerk_client.post(chat_url(report, "hide"), {"hide-reason": "x"}).status_code == 403
    mute = {"mute-reason": "x", "mute-hours": "1"}
    assert clerk_client.post(chat_url(report, "mute"), mute).status_code == 403
    # A player never reaches the admin: sent to its sign-in.
    response = client_for(UserFactory()).post(chat_url(report, "hide"), {"hide-reason": "x"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    rude.refresh_from_db()
    assert not rude.hidden
    assert not AuditEntry.objects.exists() and not ChatMute.objects.exists()


def test_odd_requests_are_refused(moderator_client: Client, report: Report) -> None:
    assert moderator_client.get(chat_url(report, "hide")).status_code == 405
    assert moderator_client.post(chat_url(report, "ban"), {}).status_code == 404
    other = ReportFactory()
    assert moderator_client.post(chat_url(other, "hide"), {"hide-reason": "x"}).status_code == 404
    bad = reverse("admin:moderation_report_chat", args=["x\x00", "hide"])
    assert moderator_client.post(bad, {"hide-reason": "x"}).status_code == 404
