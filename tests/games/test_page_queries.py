"""The game page and its board fragment keep to their query budgets, and the menu's
badges, counted in one query, still count right."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Notification, User
from games import selectors, services
from games.models import Game, Seat
from tests.factories import UserFactory, reference_turn_of

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def statements(captured: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"] for q in captured.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)
    ]


def badge(page: str, testid: str) -> int | None:
    found = re.search(rf'data-testid="{testid}">[^<]*<span class="badge"[^>]*>(\d+)<', page)
    return int(found.group(1)) if found else None


def test_the_board_fragment_takes_three_queries_and_the_page_four(
    client_logged_in: Client, user: User, play_rounds: Any
) -> None:
    game = play_rounds(services.game_create_solo(user=user, seed=3), 9)
    _round, turn = reference_turn_of(game, user)
    row, col = turn.placement.card_at
    url = reverse("games:detail", kwargs={"pk": game.pk})
    # The session, the user, the game with its seats and players.
    with CaptureQueriesContext(connection) as captured:
        fragment = client_logged_in.get(
            url, {"at": f"{row},{col}", "rot": "90"}, HTTP_HX_REQUEST="true"
        )
    assert fragment.status_code == 200
    assert f'data-card-at="{row},{col}"' in fragment.content.decode()
    assert len(statements(captured)) == 3, statements(captured)
    # The whole page adds the menu's two badges, counted together.
    with CaptureQueriesContext(connection) as captured:
        page = client_logged_in.get(url)
    assert page.status_code == 200
    assert 'data-testid="round">Round 10 of 16' in page.content.decode()
    assert len(statements(captured)) == 4, statements(captured)


def test_the_menu_counts_games_waiting_and_unread_notifications(
    client_logged_in: Client, user: User
) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    games = []
    for opponent in (ana, ben):
        game = services.game_create_multi(user=user, seats_max=2, pace=Game.Pace.LIVE)
        services.game_join(game=game, user=opponent)  # the second player starts it
        games.append(Game.objects.get(pk=game.pk))
    # Played in the game with Ana: it waits for her, not for the player.
    round_number, turn = reference_turn_of(games[0], user)
    services.move_submit(game_id=games[0].pk, user=user, round_number=round_number, turn=turn)
    services.game_create_solo(user=user)  # a solo game waits for nobody
    Notification.objects.create(user=user, text="one")
    Notification.objects.create(user=user, text="two")
    Notification.objects.create(user=user, text="read", read_at=games[0].created_at)
    Notification.objects.create(user=ana, text="someone else's")
    page = client_logged_in.get(reverse("games:home")).content.decode()
    assert badge(page, "nav-my-games") == 1
    assert badge(page, "nav-notifications") == 2
    other = Client()
    other.force_login(ana)
    page = other.get(reverse("games:home")).content.decode()
    assert badge(page, "nav-my-games") == 1
    assert badge(page, "nav-notifications") == 1


def fields(obj: object) -> dict[str, object]:
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}


@pytest.mark.parametrize("with_bot", [False, True], ids=["solo", "with a bot"])
def test_the_game_read_in_one_query_is_the_game_the_orm_reads(
    user: User, play_rounds: Any, with_bot: bool
) -> None:
    if with_bot:
        game = services.game_create_multi(
            user=user, seats_max=3, pace=Game.Pace.LIVE, bots=["easy"]
        )
        services.game_join(game=game, user=UserFactory())
    else:
        game = play_rounds(services.game_create_solo(user=user, seed=3), 2)
    expected = list(
        Seat.objects.filter(game_id=game.pk).select_related("game", "user").order_by("position")
    )
    loaded = selectors.game_with_seats(game.pk)
    assert loaded is not None
    seats = list(loaded.seats.all())
    assert [fields(s) for s in seats] == [fields(s) for s in expected]
    assert fields(loaded) == fields(expected[0].game)
    assert [s.user and fields(s.user) for s in seats] == [
        s.user and fields(s.user) for s in expected
    ]
    assert all(s.game is loaded for s in seats)
    assert any(s.user is None for s in seats) == with_bot
    assert selectors.game_with_seats(game.pk + 1000) is None
