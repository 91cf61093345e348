"""Live tables: solo games of one deal whose cards are dealt together, by a round clock."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

import pytest
import time_machine
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import connection
from django.test import AsyncClient, Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import rules
from accounts.models import User
from core.tokens import poll_token
from floor import push
from games import policy, services
from games.models import Game, Lockstep, Seat
from games.signals import lockstep_finished
from tests.factories import UserFactory, play_turn, reference_turn_of
from tests.pages import HTMX, Events, turn_fields

pytestmark = pytest.mark.django_db

ROUND_SECONDS = 60


@pytest.fixture
def players(db: None) -> list[User]:
    return [UserFactory() for _ in range(3)]


def seated(users: list[User], *, grace: int = 0) -> tuple[Lockstep, dict[str, Game]]:
    table, games = services.lockstep_create(
        users=users,
        seed=42,
        diagonal=False,
        ferryman=False,
        round_seconds=ROUND_SECONDS,
        first_round_grace=grace,
        back_url="/tournaments/1/",
    )
    return table, {game.created_by.username: game for game in games if game.created_by}


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_a_table_deals_the_same_cards_to_everyone_and_starts_the_clock(
    players: list[User],
) -> None:
    table, games = seated(players, grace=30)
    assert len(games) == 3
    assert len({tuple(game.cards) for game in games.values()}) == 1
    for game in games.values():
        assert game.round == 1 and game.is_active
        assert policy.revealed_cards(game) == game.cards[:1]
        assert game.deadline == table.deadline
    # The first card's clock has the grace on top of the round's time.
    assert table.deadline is not None
    left = (table.deadline - timezone.now()).total_seconds()
    assert ROUND_SECONDS + 25 < left <= ROUND_SECONDS + 30


def test_the_next_card_waits_until_everyone_has_played(
    players: list[User], committed: Callable[[], Any]
) -> None:
    ana, ben, cy = players
    table, games = seated(players)
    with committed():
        play_turn(games[ana.username], ana)
    game = fresh(games[ana.username])
    # Ana has played, but her game waits at round 1: card 2 is not hers to see yet.
    assert game.round == 1
    assert game.seats.get().rounds_played == 1
    assert policy.revealed_cards(game) == game.cards[:1]
    with pytest.raises(services.MoveRejected):
        services.move_submit(
            game_id=game.pk,
            user=ana,
            round_number=2,
            turn=rules.Turn(rules.Placement((0, 1)), None),
        )
    with committed():
        play_turn(games[ben.username], ben)
    assert fresh(games[cy.username]).round == 1
    before = fresh(games[ana.username]).version
    with committed():
        play_turn(games[cy.username], cy)
    table.refresh_from_db()
    assert table.round == 2
    for player in players:
        game = fresh(games[player.username])
        assert game.round == 2
        assert game.deadline == table.deadline
        assert policy.revealed_cards(game) == game.cards[:2]
    # The waiting pages are told: each game's version moved.
    assert fresh(games[ana.username]).version > before


def test_a_waiting_player_sees_the_count_and_not_the_next_card(
    players: list[User], committed: Callable[[], Any]
) -> None:
    ana = players[0]
    table, games = seated(players)
    game = games[ana.username]
    with committed():
        play_turn(game, ana)
    client = Client()
    client.force_login(ana)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-testid="waiting"' in page
    assert 'data-testid="hand"' not in page
    assert "Round 1 of 16" in page
    assert 'sse-swap="table">2</strong>' in page
    assert f"table={table.pk}" in page
    # Two people still to play round 1 of 3.
    assert "of 3" in page


def test_the_clock_times_out_whoever_has_not_played_and_deals_on(
    players: list[User], committed: Callable[[], Any]
) -> None:
    ana, ben, cy = players
    table, games = seated(players)
    with committed():
        play_turn(games[ana.username], ana)
        play_turn(games[ben.username], ben)
    assert table.deadline is not None
    with time_machine.travel(table.deadline + datetime.timedelta(seconds=1), tick=False):
        client = Client()
        client.force_login(ana)
        # Any page of the table enforces its clock, for everyone at once.
        with committed():
            page = client.get(reverse("games:detail", args=[games[ana.username].pk]))
        assert page.status_code == 200
        late = fresh(games[cy.username])
        assert late.is_finished
        assert late.seats.get().status == Seat.Status.TIMED_OUT
        table.refresh_from_db()
        assert table.round == 2
        assert fresh(games[ana.username]).round == 2
        assert 'data-testid="hand"' in page.content.decode()


def test_a_missed_card_is_told_to_its_player_and_to_the_table(
    players: list[User], committed: Callable[[], Any]
) -> None:
    ana, ben, cy = players
    table, games = seated(players)
    with committed():
        play_turn(games[ana.username], ana)
        play_turn(games[ben.username], ben)
    assert table.deadline is not None
    with time_machine.travel(table.deadline + datetime.timedelta(seconds=1), tick=False):
        late, on_time = Client(), Client()
        late.force_login(cy)
        on_time.force_login(ana)
        with committed():
            mine = late.get(reverse("games:detail", args=[games[cy.username].pk])).content
        assert 'data-testid="missed-card"' in mine.decode()
        assert "You missed card 1" in mine.decode()
        theirs = on_time.get(reverse("games:detail", args=[games[ana.username].pk])).content
        assert "1 player missed a card and left the deal." in theirs.decode()
        # Nobody else is told they missed one.
        assert 'data-testid="missed-card"' not in theirs.decode()


def test_a_table_ends_when_its_last_game_does(
    players: list[User], committed: Callable[[], Any]
) -> None:
    ana, ben, _cy = players[0], players[1], players[2]
    table, games = seated([ana, ben])
    finished: list[Lockstep] = []

    def receiver(*, lockstep: Lockstep, **_kwargs: object) -> None:
        finished.append(lockstep)

    lockstep_finished.connect(receiver, dispatch_uid="test_live_tables")
    try:
        for _round in range(16):
            with committed():
                play_turn(games[ana.username], ana)
                play_turn(games[ben.username], ben)
    finally:
        lockstep_finished.disconnect(dispatch_uid="test_live_tables")
    table.refresh_from_db()
    assert table.finished_at is not None
    assert [t.pk for t in finished] == [table.pk]
    for player in (ana, ben):
        game = fresh(games[player.username])
        assert game.is_finished
        assert game.seats.get().score is not None


def test_the_table_count_is_pushed_on_the_tables_channel(
    players: list[User], committed: Callable[[], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(push, "_send", lambda message: sent.append(json.loads(message)))
    ana = players[0]
    table, games = seated(players)
    with committed():
        play_turn(games[ana.username], ana)
    counts = [m["data"] for m in sent if m["channel"] == push.lockstep_channel(table.pk)]
    assert counts == [{"waiting": 2}]


def test_the_poll_redraws_a_waiting_board_once_the_next_card_is_dealt(
    players: list[User], committed: Callable[[], Any]
) -> None:
    ana, ben = players[0], players[1]
    _table, games = seated([ana, ben])
    game = games[ana.username]
    with committed():
        play_turn(game, ana)
    client = Client()
    client.force_login(ana)
    page = client.get(reverse("games:detail", args=[game.pk]))
    token = page.context["poll_token"]
    version = fresh(game).version
    poll = reverse("games:poll", args=[game.pk])
    # The page was drawn while ana drafted round 1: its poller still says so.
    query = {"v": version, "s": "active", "draft": "1", "t": token}
    assert client.get(poll, query, headers=HTMX).status_code == 204
    with committed():
        play_turn(games[ben.username], ben)
    update = client.get(poll, query, headers=HTMX)
    assert update.status_code == 200
    body = update.content.decode()
    assert 'data-testid="hand"' in body
    assert 'id="live-table"' in body


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_players_committing_at_once_get_the_next_card_dealt_once(race: Any) -> None:
    ana, ben = UserFactory(), UserFactory()
    table, games = seated([ana, ben])
    race(lambda: play_turn(games[ana.username], ana), lambda: play_turn(games[ben.username], ben))
    table.refresh_from_db()
    assert table.round == 2
    assert {fresh(game).round for game in games.values()} == {2}


def test_a_live_tables_stream_passes_on_the_count_still_to_play(
    players: list[User], committed: Callable[[], Any]
) -> None:
    ana, ben, _cy = players
    table, games = seated(players)
    game = games[ana.username]
    client = AsyncClient()
    client.force_login(ana)
    cookie = client.cookies.get(settings.SESSION_COOKIE_NAME)
    token = poll_token(game.pk, cookie.value if cookie else "")
    url = reverse("games:stream", kwargs={"pk": game.pk})
    # No version known: the stream starts with one (and so is listening before ben plays).
    url += f"?v=&t={token}&table={table.pk}"

    def ben_plays() -> None:
        with committed():
            play_turn(games[ben.username], ben)

    async def scenario() -> dict[str, str]:
        events = Events(await client.get(url))
        try:
            assert (await events.next())["event"] == "game"
            await sync_to_async(ben_plays)()
            return await events.next()
        finally:
            await events.close()

    event = async_to_sync(scenario)()
    # Swapped into the page as it is: a bare number, two of three still to play.
    assert event == {"event": "table", "data": "2"}


# Committed for real, as in production: the table deals once the commit is in, and
# before the answer is drawn.
@pytest.mark.django_db(transaction=True)
def test_the_last_to_play_a_card_gets_the_next_at_once() -> None:
    ana, ben = UserFactory(), UserFactory()
    _table, games = seated([ana, ben])
    play_turn(games[ana.username], ana)
    client = Client()
    client.force_login(ben)
    game = games[ben.username]
    number, turn = reference_turn_of(fresh(game), ben)
    answer = client.post(
        reverse("games:play", kwargs={"pk": game.pk}), turn_fields(number, turn), **HTMX
    )
    body = answer.content.decode()
    # Ben's card dealt the next: his answer draws it, with no wait for a push.
    assert 'data-testid="hand"' in body
    assert "Round 2 of 16" in body
    assert f"v={fresh(game).version}" in body


def test_a_commit_at_a_large_table_costs_what_it_costs_at_a_small_one(
    committed: Callable[[], Any],
) -> None:
    def queries_of_one_commit(size: int) -> int:
        users = [UserFactory() for _ in range(size)]
        _table, games = seated(users)
        with CaptureQueriesContext(connection) as captured, committed():
            play_turn(games[users[0].username], users[0])
        return len(captured.captured_queries)

    # Its count of who is still to play and its push make no query per player.
    assert queries_of_one_commit(2) == queries_of_one_commit(12)


def test_the_sweep_moves_a_live_table_on_once_for_all_its_games(
    players: list[User], committed: Callable[[], Any]
) -> None:
    table, games = seated(players)
    assert table.deadline is not None
    with time_machine.travel(table.deadline + datetime.timedelta(seconds=1), tick=False):
        with committed():
            assert services.expire_deadlines() == 1
        # Nobody played: everyone timed out, and the table is over.
        table.refresh_from_db()
        assert table.finished_at is not None
        assert all(fresh(game).is_finished for game in games.values())


def test_timing_out_a_table_asks_nothing_more_of_it_after_the_commit(
    players: list[User], django_capture_on_commit_callbacks: Any
) -> None:
    table, _games = seated(players)
    assert table.deadline is not None
    with (
        time_machine.travel(table.deadline + datetime.timedelta(seconds=1), tick=False),
        django_capture_on_commit_callbacks() as callbacks,
    ):
        services.lockstep_advance(lockstep_id=table.pk)
    # Three players timed out, and the table finished: no call per player comes after it
    # (the pushes and the finished games' analyses are the after-commit work left).
    advancing = [
        c
        for c in callbacks
        if getattr(c, "__name__", "") == "<lambda>" and "lockstep_advance" in c.__code__.co_names
    ]
    assert advancing == []
