"""Pages drawn in Czech, German or French show no English word of their English rendering.

To cover another page, add its name and address to ``PAGES`` (the ``site`` fixture holds
a signed-in player with games of every kind); names of people and things go in ``NAMES``,
words a language shares with English in ``SAME_WORDS`` (tests/i18n/words.py).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import pytest
from django.test import Client
from django.urls import reverse, reverse_lazy

from accounts.models import Notification, User
from games import computer, services
from games.daily import today
from games.models import DailyPar, Game
from tests.factories import FinishedSoloFactory, UserFactory, play_turn, started_game
from tests.i18n.words import NAMES, SAME_WORDS, words

pytestmark = pytest.mark.django_db


@dataclass
class Site:
    player: User
    solo: Game
    finished: Game
    multi: Game
    lobby_game: Game
    waiting: Game

    @cached_property
    def played(self) -> Game:
        """A solo game played to the end (built only for the pages that show one)."""
        game = services.game_create_solo(user=self.player, diagonal=False, ferryman=True, seed=5)
        while not game.is_finished:
            game = play_turn(game, self.player)
        return game

    @cached_property
    def analysed(self) -> Game:
        """The played game with its post-game analysis computed (the rounds it names)."""
        computer.game_analyse(game_id=self.played.pk)
        return self.played

    @cached_property
    def yesterday(self) -> datetime.date:
        """A finished day of the daily challenge whose par is known, with one score above it."""
        day = today() - datetime.timedelta(days=1)
        DailyPar.objects.create(day=day, status=DailyPar.Status.DONE, bot_score=40, best_score=55)
        FinishedSoloFactory(
            user=self.player, game__created_by=self.player, game__daily=day, score=41
        )
        return day


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
    services.seat_add_bot(game=lobby_game, user=rival, level="strong")
    waiting = services.game_create_multi(
        user=player, seats_max=4, pace=Game.Pace.CORRESPONDENCE, bots=["easy"]
    )
    # A random code is the same in every language and could read as a word: digits between
    # its letters keep every run of letters shorter than a word.
    Game.objects.filter(pk=waiting.pk).update(invite_code="K7M2Q9XP")
    Notification.objects.create(user=player, text="Hra čeká.", url="/")
    return Site(player, solo, finished, multi, lobby_game, waiting)


PAGES: dict[str, Callable[[Site], str]] = {
    "home": lambda site: reverse("games:home"),
    "rules": lambda site: reverse("games:rules"),
    "lobby": lambda site: reverse("games:lobby"),
    "my games": lambda site: reverse("games:mine"),
    "solo game": lambda site: reverse("games:detail", args=[site.solo.pk]),
    "finished game": lambda site: reverse("games:detail", args=[site.finished.pk]),
    "played game": lambda site: reverse("games:detail", args=[site.played.pk]),
    "replay": lambda site: reverse("games:replay", args=[site.played.pk]) + "?round=9",
    "analysis": lambda site: reverse("games:detail", args=[site.analysed.pk]),
    "analysed replay": lambda site: reverse("games:replay", args=[site.analysed.pk]) + "?round=4",
    "waiting room with a computer player": lambda site: reverse(
        "games:detail", args=[site.waiting.pk]
    ),
    "multiplayer game": lambda site: reverse("games:detail", args=[site.multi.pk]),
    "invitation": lambda site: reverse("games:join", args=[site.lobby_game.invite_code]),
    "leaderboards": lambda site: reverse("leaderboards:board", args=["standard", "best"]),
    "weekly board": lambda site: reverse("leaderboards:board", args=["standard", "week"]),
    "daily challenge": lambda site: reverse("leaderboards:daily"),
    "daily par": lambda site: reverse("leaderboards:daily_day", args=[site.yesterday.isoformat()]),
    "profile": lambda site: reverse("accounts:profile", args=[site.player.username]),
    "settings": lambda site: reverse("accounts:settings"),
    "delete account": lambda site: reverse("accounts:delete"),
    "notifications": lambda site: reverse("moderation:notifications"),
    "report": lambda site: reverse("moderation:report", args=["petr"]),
    "change password": lambda site: reverse("account_change_password"),
}


# Pages for visitors who are not signed in.
ANONYMOUS_PAGES = {
    "home": reverse_lazy("games:home"),
    "sign in": reverse_lazy("account_login"),
    "sign up": reverse_lazy("account_signup"),
    "password reset": reverse_lazy("account_reset_password"),
    "account closed": reverse_lazy("moderation:banned"),
    "first game": reverse_lazy("learn:index"),
    "first game's lesson": reverse_lazy("learn:step", args=[5]),
    "first game's end": reverse_lazy("learn:finish"),
}


@pytest.mark.parametrize("page", PAGES)
def test_page_has_no_english_left(client: Client, site: Site, page: str) -> None:
    client.force_login(site.player)
    assert_translated(client, PAGES[page](site))


@pytest.mark.parametrize("page", ANONYMOUS_PAGES)
def test_visitor_page_has_no_english_left(client: Client, page: str) -> None:
    assert_translated(client, str(ANONYMOUS_PAGES[page]))


def assert_translated(client: Client, url: str) -> None:
    """The page at ``url`` in each language keeps no word of its English rendering."""
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200
    english_words = words(english.content.decode())
    left = {}
    for language, same in SAME_WORDS.items():
        translated = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert translated.status_code == 200
        assert f'<html lang="{language}">' in translated.content.decode()
        found = words(translated.content.decode()) & english_words - NAMES - same
        if found:
            left[language] = sorted(found)
    assert not left, f"English left on {url}: {left}"
