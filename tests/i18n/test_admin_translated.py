"""The admin moderators use, in Czech, German or French, keeps no English model or field name.

Django translates the admin's own words; these tests catch our models, fields, columns and
filters left in English. The players are named as on the translated pages' tests, so that
no username reads as an English word.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import (
    PlayerRatingFactory,
    SeatFactory,
    SoloResultFactory,
    UserFactory,
    WeeklyBestFactory,
    moderators_group,
)
from tests.i18n.words import NAMES, SAME_WORDS, Text, words

pytestmark = pytest.mark.django_db

# Pages a moderator may open (their group's permissions); a superuser also sees the boards.
MODERATOR_PAGES = [
    "admin:index",
    "admin:games_game_changelist",
    "admin:games_seat_changelist",
    "admin:games_soloresult_changelist",
]
SUPERUSER_PAGES = [
    *MODERATOR_PAGES,
    "admin:games_move_changelist",
    "admin:leaderboards_weeklybest_changelist",
    "admin:leaderboards_playerrating_changelist",
]


# Django's own admin words that its catalogues leave in English (the index's column headers
# for screen readers, the theme switch, the boolean icons' text) or spell as English does.
ADMIN_CHROME = {"add", "link", "model", "name", "change", "view", "list", "auto", "false", "true"}
ADMIN_CHROME |= {"django", "filter", "start", "administration", "site", "application", "action"}
ADMIN_CHROME |= {"actions", "search", "navigation"}
# Our words a language spells as English does.
SAME_ADMIN_WORDS = {
    "de": {"position", "moderation", "status"},
    "fr": {"position", "audit", "analyses"},
}
# The index lists other projects' apps too (Django's groups, allauth's, the task queue's).
OUR_APPS = {"games", "leaderboards", "moderation", "accounts"}


class _AdminText(Text):
    """The admin page's text without the side menu and other projects' apps on the index,
    and without the rows' checkboxes (each names its object)."""

    def __init__(self) -> None:
        super().__init__()
        self._in_menu = False
        self._foreign_divs = 0  # depth inside another project's app on the index

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "nav" and ("id", "nav-sidebar") in attrs:
            self._in_menu = True
        if tag == "div":
            classes = (dict(attrs).get("class") or "").split()
            app = next((c[4:] for c in classes if c.startswith("app-")), None)
            if self._foreign_divs or ("module" in classes and app and app not in OUR_APPS):
                self._foreign_divs += 1
        if self._skipping or (tag == "input" and ("class", "action-select") in attrs):
            return
        super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_menu = False
        if tag == "div" and self._foreign_divs:
            self._foreign_divs -= 1
        super().handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            super().handle_data(data)

    @property
    def _skipping(self) -> bool:
        return self._in_menu or bool(self._foreign_divs)


def admin_words(html: str) -> set[str]:
    parser = _AdminText()
    parser.feed(html)
    return words(" ".join(parser.parts)) - ADMIN_CHROME


@pytest.fixture(autouse=True)
def records() -> None:
    jana = UserFactory(username="jana")
    SeatFactory(game__created_by=jana)
    result = SoloResultFactory(game__created_by=UserFactory(username="petr"))
    WeeklyBestFactory(user=result.user, game=result.game)
    PlayerRatingFactory(user=jana)


def assert_admin_translated(client: Client, url: str) -> None:
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200
    english_words = admin_words(english.content.decode())
    left = {}
    for language, same in SAME_WORDS.items():
        translated = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert translated.status_code == 200
        assert f'lang="{language}"' in translated.content.decode()
        found = admin_words(translated.content.decode()) & english_words - NAMES - same
        found -= SAME_ADMIN_WORDS.get(language, set())
        if found:
            left[language] = sorted(found)
    assert not left, f"English left on {url}: {left}"


@pytest.mark.parametrize("page", SUPERUSER_PAGES)
def test_superusers_admin_has_no_english_left(client: Client, page: str) -> None:
    client.force_login(UserFactory(username="jana_", is_staff=True, is_superuser=True))
    assert_admin_translated(client, reverse(page))


@pytest.mark.parametrize("page", MODERATOR_PAGES)
def test_moderators_admin_has_no_english_left(client: Client, page: str) -> None:
    moderator = UserFactory(username="petr_", is_staff=True)
    moderator.groups.add(moderators_group())
    client.force_login(moderator)
    assert_admin_translated(client, reverse(page))
