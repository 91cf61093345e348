"""Pages drawn in Czech show no English word of their English rendering.

To cover another page, add its name and address to ``PAGES`` (the ``site`` fixture holds
a signed-in player with games of every kind); names of people and things go in ``NAMES``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Notification, User
from games import services
from games.models import Game
from tests.factories import FinishedSoloFactory, UserFactory
from tests.games.conftest import play_turn, started_game

pytestmark = pytest.mark.django_db

# Words that are the same in any language: names, the game's title, the language menu
# (each language is named in itself), and abbreviations.
NAMES = {
    "jana",
    "petr",
    "limes",
    "online",
    "english",
    "česky",
    "deutsch",
    "français",
    "json",
    "utc",
}
# Players' own words, and English words Czech uses as they are.
NAMES |= {"hraju", "hra", "čeká", "software"}


@dataclass
class Site:
    player: User
    solo: Game
    finished: Game
    multi: Game
    lobby_game: Game


@pytest.fixture
def site() -> Site:
    player = UserFactory(username="jana", bio="Hraju Limes.")
    rival = UserFactory(username="petr")
    finished = FinishedSoloFactory(user=player, game__created_by=player).game
    solo = services.game_create_solo(user=player, diagonal=True, ferryman=False, seed=3)
    for _ in range(3):
        solo = play_turn(solo, player)
    multi = started_game([player, rival], pace=Game.Pace.CORRESPONDENCE)
    play_turn(multi, player)
    lobby_game = services.game_create_multi(user=rival, seats_max=3, pace=Game.Pace.LIVE)
    Notification.objects.create(user=player, text="Hra čeká.", url="/")
    return Site(player, solo, finished, multi, lobby_game)


PAGES: dict[str, Callable[[Site], str]] = {
    "home": lambda site: reverse("games:home"),
    "rules": lambda site: reverse("games:rules"),
    "lobby": lambda site: reverse("games:lobby"),
    "my games": lambda site: reverse("games:mine"),
    "solo game": lambda site: reverse("games:detail", args=[site.solo.pk]),
    "finished game": lambda site: reverse("games:detail", args=[site.finished.pk]),
    "multiplayer game": lambda site: reverse("games:detail", args=[site.multi.pk]),
    "invitation": lambda site: reverse("games:join", args=[site.lobby_game.invite_code]),
    "leaderboards": lambda site: reverse("leaderboards:board", args=["standard", "best"]),
    "weekly board": lambda site: reverse("leaderboards:board", args=["standard", "week"]),
    "daily challenge": lambda site: reverse("leaderboards:daily"),
    "profile": lambda site: reverse("accounts:profile", args=[site.player.username]),
    "settings": lambda site: reverse("accounts:settings"),
    "delete account": lambda site: reverse("accounts:delete"),
    "notifications": lambda site: reverse("moderation:notifications"),
    "report": lambda site: reverse("moderation:report", args=["petr"]),
    "change password": lambda site: reverse("account_change_password"),
}


class _Text(HTMLParser):
    """What a reader sees or hears: text, titles, labels, placeholders; not scripts."""

    SPOKEN = ("title", "aria-label", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        self.parts.extend(value or "" for name, value in attrs if name in self.SPOKEN)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def words(html: str) -> set[str]:
    parser = _Text()
    parser.feed(html)
    return {word.lower() for word in re.findall(r"[^\W\d_]{3,}", " ".join(parser.parts))}


@pytest.mark.parametrize("page", PAGES)
def test_page_in_czech_has_no_english_left(client: Client, site: Site, page: str) -> None:
    client.force_login(site.player)
    url = PAGES[page](site)
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    czech = client.get(url, HTTP_ACCEPT_LANGUAGE="cs")
    assert english.status_code == czech.status_code == 200
    assert '<html lang="cs">' in czech.content.decode()
    left = words(czech.content.decode()) & words(english.content.decode()) - NAMES
    assert not left, f"English on the Czech {page} page: {_where(czech.content.decode(), left)}"


def test_anonymous_home_page_in_czech(client: Client) -> None:
    english = client.get(reverse("games:home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    czech = client.get(reverse("games:home"), HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert not words(czech) & words(english) - NAMES
    assert "Zaregistrujte se a hrajte" in czech


def _where(html: str, found: set[str]) -> list[str]:
    return [
        match.group(0)
        for word in sorted(found)
        for match in re.finditer(rf".{{0,60}}\b{word}\b.{{0,30}}", html, re.IGNORECASE)
    ]
