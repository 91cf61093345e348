"""A tournament's standings: pushed to its page as they change; banned players left out."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from types import SimpleNamespace
from typing import Any

import pytest
import time_machine
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services as game_services
from games.models import Game
from moderation.services import user_ban, user_unban
from tests.factories import UserFactory, moderators_group
from tests.pages import Events
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)

Capture = Callable[..., AbstractContextManager[Any]]


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory(is_staff=True)
    user.groups.add(moderators_group())
    return user


def running(deal_count: int = 1) -> Tournament:
    now = timezone.now()
    return services.tournament_create(
        name="Spring cup",
        ruleset="standard",
        deal_count=deal_count,
        starts_at=now - HOUR,
        ends_at=now + 24 * HOUR,
    )


def entered(tournament: Tournament, count: int) -> list[User]:
    players = [UserFactory() for _ in range(count)]
    for player in players:
        services.tournament_join(tournament=tournament, user=player)
    return players


def finish(
    tournament: Tournament, user: User, rounds: int, play_rounds: Callable[[Game, int], Game]
) -> Game:
    """Play deal 1 for ``rounds`` rounds with the reference player, then give up."""
    game = services.deal_play(tournament=tournament, user=user, number=1)
    game = play_rounds(game, rounds)
    if not game.is_finished:
        game = game_services.seat_resign(game=game, user=user)
    return game


def version_of(tournament: Tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).version


def stream_url(tournament: Tournament) -> str:
    return reverse("tournaments:stream", kwargs={"pk": tournament.pk})


def test_a_finished_deal_tells_the_tournament_page_its_version_and_no_score(
    play_rounds: Callable[[Game, int], Game], django_capture_on_commit_callbacks: Capture
) -> None:
    tournament = running()
    (ana,) = entered(tournament, 1)
    before = version_of(tournament)
    finished: list[Game] = []

    def ana_finishes_her_deal() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            finished.append(finish(tournament, ana, 6, play_rounds))

    async def scenario() -> list[dict[str, str]]:
        # A visitor's page: the standings are anyone's to see.
        events = Events(await AsyncClient().get(stream_url(tournament)))
        try:
            first = await events.next()
            await sync_to_async(ana_finishes_her_deal)()
            return [first, await events.next()]
        finally:
            await events.close()

    first, after_finish = async_to_sync(scenario)()

    # On connect the page learns the version it may have missed; then the finish's.
    assert first == {
        "id": str(before),
        "event": "standings",
        "data": json.dumps({"version": before}),
    }
    after = version_of(tournament)
    assert after > before
    assert after_finish == {
        "id": str(after),
        "event": "standings",
        "data": json.dumps({"version": after}),
    }
    # The deal is sealed until the end: its score travels in no event.
    score = finished[0].seats.get().score
    assert score is not None and score > 0
    assert json.loads(after_finish["data"]) == {"version": after}


def test_the_stream_of_a_missing_tournament_is_not_found_and_wsgi_keeps_polling() -> None:
    tournament = running()
    missing = reverse("tournaments:stream", kwargs={"pk": tournament.pk + 1000})

    async def status() -> int:
        return (await AsyncClient().get(missing)).status_code

    assert async_to_sync(status)() == 404
    # Under WSGI a stream would hold a worker: 204 tells the browser to stop trying.
    assert Client().get(stream_url(tournament)).status_code == 204
    assert Client().get(missing).status_code == 404


def test_a_running_tournament_page_listens_to_its_stream_and_polls_as_a_fallback(
    client: Client,
) -> None:
    tournament = running()
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert f'sse-connect="{stream_url(tournament)}?v={tournament.version}"' in page
    assert 'hx-trigger="every 15s, sse:standings"' in page
    assert "data-poll-fallback" in page


def test_a_banned_entrant_leaves_the_standings_until_the_ban_ends(
    client: Client,
    moderator: User,
    play_rounds: Callable[[Game, int], Game],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The deal's secret seed pinned: playing longer scores more, ben > ana > cy.
    monkeypatch.setattr(services, "secrets", SimpleNamespace(randbits=lambda _bits: 7))
    tournament = running()
    ana, ben, cy = entered(tournament, 3)
    for player, rounds in ((ben, 16), (ana, 8), (cy, 2)):
        finish(tournament, player, rounds, play_rounds)

    def totals() -> dict[str, float]:
        return {row.username: row.total for row in selectors.standings(fresh(tournament))}

    def fresh(found: Tournament) -> Tournament:
        found.refresh_from_db()
        return found

    assert totals() == {ben.username: 100.0, ana.username: 50.0, cy.username: 0.0}

    until = timezone.now() + 48 * HOUR
    user_ban(moderator=moderator, user=ben, reason="two accounts", until=until)
    # Ben counts for nobody: ana now beats everyone who stands.
    assert totals() == {ana.username: 100.0, cy.username: 0.0}
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert ben.username not in page and ana.username in page

    # The ban runs out by itself (no write): ben is back, and ana second again.
    with time_machine.travel(until + HOUR, tick=False):
        assert totals() == {ben.username: 100.0, ana.username: 50.0, cy.username: 0.0}


def test_lifting_a_ban_puts_the_entrant_back_at_once(
    moderator: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    tournament = running()
    ana, ben = entered(tournament, 2)
    for player in (ana, ben):
        finish(tournament, player, 4, play_rounds)
    user_ban(moderator=moderator, user=ben, reason="rude")
    tournament.refresh_from_db()
    assert [row.username for row in selectors.standings(tournament)] == [ana.username]
    user_unban(moderator=moderator, user=ben)
    tournament.refresh_from_db()
    assert {row.username for row in selectors.standings(tournament)} == {
        ana.username,
        ben.username,
    }


def test_the_pages_told_of_a_finish_find_its_standings_already_counted(
    play_rounds: Callable[[Game, int], Game],
    django_capture_on_commit_callbacks: Capture,
    django_assert_num_queries: Callable[[int], AbstractContextManager[Any]],
) -> None:
    tournament = running()
    ana, ben = entered(tournament, 2)
    finish(tournament, ana, 6, play_rounds)
    with django_capture_on_commit_callbacks(execute=True):
        finish(tournament, ben, 2, play_rounds)
    tournament.refresh_from_db()
    # As in another process of the site: nothing of this one's own copy.
    selectors._recent.clear()
    with django_assert_num_queries(0):
        rows = selectors.standings(tournament)
    assert [row.username for row in rows] == [ana.username, ben.username]
