"""Play again after a multiplayer game: a rematch with the same rules, seats and people."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from html.parser import HTMLParser
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from accounts.models import User
from core.errors import ActionRefused
from core.tokens import poll_token
from games import services
from games.models import Game
from tests.factories import PASSWORD, UserFactory, play_turn

pytestmark = pytest.mark.django_db

Committed = Callable[[], AbstractContextManager[Any]]


def client_for(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def detail(game: Game) -> str:
    return reverse("games:detail", kwargs={"pk": game.pk})


class _Forms(HTMLParser):
    """Each form of a page whose submit button has ``data-testid``: (action, fields)."""

    def __init__(self, testid: str) -> None:
        super().__init__()
        self.testid = testid
        self.current: tuple[str, dict[str, str]] | None = None
        self.found: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        own = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.current = (own.get("action", ""), {})
        elif tag == "input" and self.current is not None and "name" in own:
            self.current[1][own["name"]] = own.get("value", "")
        elif tag == "button" and self.current is not None and own.get("data-testid") == self.testid:
            self.found.append(self.current)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None


def submit(client: Client, page: str, testid: str) -> Any:
    """Press the button ``testid`` of ``page`` as a browser would: its form, as it is."""
    parser = _Forms(testid)
    parser.feed(page)
    assert len(parser.found) == 1, f"no single form with a {testid} button"
    action, fields = parser.found[0]
    return client.post(action, fields, follow=True)


@pytest.fixture
def finished(committed: Committed) -> tuple[Game, User, User]:
    """A finished live game of Ana and Ben against an easy computer, in the lobby."""
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    with committed():
        game = services.game_create_multi(
            user=ana,
            seats_max=3,
            pace=Game.Pace.LIVE,
            round_seconds=60,
            bots=["easy"],
            ferryman=True,
        )
        services.game_join(game=game, user=ben)
    game.refresh_from_db()
    while not game.is_finished:
        for player in (ana, ben):
            with committed():
                game = play_turn(game, player)
            game.refresh_from_db()
    return game, ana, ben


def test_play_again_after_a_multiplayer_game_opens_a_rematch_the_others_accept(
    finished: tuple[Game, User, User],
) -> None:
    game, ana, ben = finished
    ana_client, ben_client = client_for(ana), client_for(ben)
    page = ana_client.get(detail(game)).content.decode()
    response = submit(ana_client, page, "play-again")
    assert "Please check the choices" not in response.content.decode()
    rematch = Game.objects.get(rematch_of=game)
    assert response.redirect_chain[-1][0] == detail(rematch)
    # The same rules, pace, time and seats; the computer sits in it already.
    assert (rematch.ferryman, rematch.diagonal, rematch.pace, rematch.round_seconds) == (
        True,
        False,
        Game.Pace.LIVE,
        60,
    )
    assert rematch.seats_max == 3 and rematch.is_open
    assert [(s.user_id, s.bot_level) for s in rematch.seats.order_by("position")] == [
        (ana.pk, ""),
        (None, "easy"),
    ]
    # Ben's final page, as his poll redraws it, now offers the rematch.
    cookie = ben_client.cookies.get(settings.SESSION_COOKIE_NAME)
    token = poll_token(game.pk, cookie.value if cookie else "")
    old = game.version
    game.refresh_from_db()
    assert game.version > old
    poll_url = reverse("games:poll", kwargs={"pk": game.pk})
    redrawn = ben_client.get(
        f"{poll_url}?v={old}&s=finished&draft=0&t={token}", HTTP_HX_REQUEST="true"
    )
    assert redrawn.status_code == 200
    offer = redrawn.content.decode()
    assert "ana offers a rematch" in offer and 'data-testid="replay-link"' in offer
    # One click takes his seat: the table is full, the rematch starts.
    response = submit(ben_client, offer, "play-again")
    assert response.redirect_chain[-1][0] == detail(rematch)
    rematch.refresh_from_db()
    assert rematch.is_active
    # Back on the old game's page, both are sent on to the rematch.
    assert 'data-testid="rematch-link"' in ana_client.get(detail(game)).content.decode()


def test_only_the_players_of_a_finished_multiplayer_game_open_its_rematch(
    finished: tuple[Game, User, User], user: User
) -> None:
    game, ana, _ben = finished
    with pytest.raises(PermissionDenied):
        services.game_rematch(game=game, user=user)
    solo = services.game_create_solo(user=ana)
    with pytest.raises(ActionRefused):
        services.game_rematch(game=solo, user=ana)
    assert not Game.objects.filter(rematch_of__isnull=False).exists()
    # Asked twice, the rematch is one game.
    first = services.game_rematch(game=game, user=ana)
    assert services.game_rematch(game=game, user=ana) == first
    # A stranger's POST changes nothing and is no error page.
    response = client_for(user).post(reverse("games:rematch", kwargs={"pk": game.pk}))
    assert response.status_code == 302
    assert first.seats.count() == 2
