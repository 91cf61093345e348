"""Which language a visitor reads the site, emails and notifications in."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

from accounts.models import Notification, User
from accounts.services import user_set_language
from games.models import Game
from moderation import services as moderation_services
from tests.factories import PASSWORD, UserFactory, play_turn, solo_results, started_game

pytestmark = pytest.mark.django_db


def html_lang(response: object) -> str:
    match = re.search(r'<html lang="([^"]+)"', response.content.decode())  # type: ignore[attr-defined]
    assert match is not None
    return match.group(1)


@pytest.mark.parametrize(
    ("accept", "language", "word"),
    [
        ("cs-CZ,cs;q=0.9,en;q=0.5", "cs", "Žebříčky"),
        ("de-DE,de;q=0.9", "de", "Bestenlisten"),
        ("fr-CH, fr;q=0.9, en;q=0.8", "fr", "Classements"),
        ("ja-JP", "en", "Leaderboards"),
    ],
)
def test_a_visitor_reads_the_language_their_browser_asks_for(
    client: Client, accept: str, language: str, word: str
) -> None:
    response = client.get(reverse("games:home"), HTTP_ACCEPT_LANGUAGE=accept)
    assert html_lang(response) == language
    assert word in response.content.decode()


def test_every_page_offers_the_language_menu(client: Client) -> None:
    page = client.get(reverse("games:rules")).content.decode()
    assert f'action="{reverse("set_language")}"' in page
    for name in ("English", "česky", "Deutsch", "français"):
        assert name in page


def test_a_visitor_choice_is_kept_in_a_cookie(client: Client) -> None:
    response = client.post(
        reverse("set_language"), {"language": "de", "next": reverse("games:lobby")}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    # Sent with the site's own requests and links to it, not with other sites' requests.
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME]["samesite"] == "Lax"
    # The cookie beats the browser's wish.
    page = client.get(reverse("games:home"), HTTP_ACCEPT_LANGUAGE="fr")
    assert html_lang(page) == "de"


def test_a_player_choice_is_stored_and_wins_everywhere(client: Client, user: User) -> None:
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "cs", "next": "/"})
    user.refresh_from_db()
    assert user.language == "cs"

    # Another browser: no cookie, a French Accept-Language; the account's choice wins,
    # and the cookie follows, so that pages which skip the session (polls) agree.
    other = Client()
    other.force_login(user)
    page = other.get(reverse("games:home"), HTTP_ACCEPT_LANGUAGE="fr")
    assert html_lang(page) == "cs"
    assert page.cookies[settings.LANGUAGE_COOKIE_NAME].value == "cs"
    assert page.cookies[settings.LANGUAGE_COOKIE_NAME]["samesite"] == "Lax"


@pytest.mark.parametrize("language", ["xx", "", "cs\x00", "c" * 5000, "١٢", "de/../en"])
def test_an_unknown_language_changes_nothing(client: Client, user: User, language: str) -> None:
    user.language = "fr"
    user.save()
    client.force_login(user)
    response = client.post(reverse("set_language"), {"language": language, "next": "/"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.language == "fr"


def test_the_menu_only_accepts_posts(client: Client) -> None:
    assert client.get(reverse("set_language"), {"language": "de"}).status_code == 405


def test_signing_up_keeps_the_browser_language(client: Client) -> None:
    client.post(
        reverse("account_signup"),
        {
            "username": "jana",
            "email": "jana@example.com",
            "password1": PASSWORD + "x",
            "password2": PASSWORD + "x",
        },
        HTTP_ACCEPT_LANGUAGE="cs-CZ,cs",
    )
    assert User.objects.get(username="jana").language == "cs"


def test_round_emails_are_written_in_each_player_language(
    django_capture_on_commit_callbacks: object, time_machine: Any
) -> None:
    anna = UserFactory(username="anna", language="de")
    bob = UserFactory(username="bob", language="")
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        game = started_game([anna, bob], pace=Game.Pace.CORRESPONDENCE)
    by_address = {message.to[0]: message for message in mail.outbox}
    german, english = by_address[anna.email], by_address[bob.email]
    assert german.subject == f"Limes: Runde 1 der Partie #{game.pk} wartet auf dich"
    assert "Diese E-Mails kannst du in deinen Einstellungen abschalten." in german.body
    assert english.subject == f"Limes: round 1 of game #{game.pk} waits for you"
    # The deadline in the reader's date format: "11. Juni 2026" in German.
    assert "11. Juni 2026" in german.body
    assert "June 11, 2026" in english.body

    mail.outbox.clear()
    # Past the turn mails' batching interval, the next round has a mail of its own.
    time_machine.move_to(datetime.datetime(2026, 6, 10, 14, tzinfo=datetime.UTC))
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        play_turn(game, anna)
        play_turn(game, bob)
    assert {m.subject for m in mail.outbox if m.to == [anna.email]} == {
        f"Limes: Runde 2 der Partie #{game.pk} wartet auf dich"
    }


def test_a_report_is_answered_in_the_reporter_language(client: Client) -> None:
    moderator = UserFactory(username="mod", is_staff=True, is_superuser=True)
    reporter = UserFactory(username="pierre", language="fr")
    target = UserFactory(username="rude")
    report = moderation_services.report_create(
        reporter=reporter, target=target, category="other", text="He was rude in the chat."
    )
    moderation_services.report_dismiss(moderator=moderator, report=report, note="Nothing found.")
    notification = Notification.objects.get(user=reporter)
    assert notification.text.startswith("Votre signalement concernant rude a été examiné")


@pytest.mark.parametrize(
    ("count", "czech"),
    [(1, "1 hra čeká na váš tah"), (3, "3 hry čekají na váš tah"), (5, "5 her čeká na váš tah")],
)
def test_czech_counts_take_their_three_forms(count: int, czech: str) -> None:
    with translation.override("cs"):
        text = ngettext(
            "%(n)s game waits for your move", "%(n)s games wait for your move", count
        ) % {"n": count}
    assert text == czech


def test_dates_and_numbers_are_written_the_reader_way(client: Client) -> None:
    player = UserFactory(
        username="vera", date_joined=datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC)
    )
    solo_results(player, [41, 40])
    url = reverse("accounts:profile", args=["vera"])
    czech = client.get(url, HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "Hraje od 1. června 2026" in czech
    assert 'data-testid="average-solo">40,5<' in czech
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Spielt seit 1. Juni 2026" in german
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="average-solo">40.5<' in english


def test_the_service_refuses_a_language_not_offered(user: User) -> None:
    with pytest.raises(ValidationError):
        user_set_language(user=user, language="xx")
    user.refresh_from_db()
    assert user.language == ""
    assert user_set_language(user=user, language="").language == ""


def test_the_javascript_catalogue_speaks_the_reader_language(client: Client) -> None:
    czech = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert '"now": "te\\u010f"' in czech
    # Only the site's own strings: not the admin's, which no public page uses.
    assert "%(sel)s of %(cnt)s selected" not in czech
