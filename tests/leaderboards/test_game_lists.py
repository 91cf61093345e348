"""Winter games in the shared lists: My games, the profile and the lobby."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tests.factories import UserFactory
from wintergames.models import WinterGame, WinterSeat

pytestmark = pytest.mark.django_db


def _winter(
    people: list[User], *, status: str = "finished", computers: int = 0, open_seats: int = 0
) -> WinterGame:
    finished = status == WinterGame.Status.FINISHED
    game = WinterGame.objects.create(
        seed=5,
        status=status,
        created_by=people[0],
        finished_at=timezone.now() if finished else None,
        waiting_for=people[0] if status == WinterGame.Status.RUNNING else None,
    )
    seats = [WinterSeat(game=game, position=i, user=u) for i, u in enumerate(people)]
    seats += [
        WinterSeat(game=game, position=len(seats) + i, bot_level="easy") for i in range(computers)
    ]
    seats += [WinterSeat(game=game, position=len(seats) + i) for i in range(open_seats)]
    for place, seat in enumerate(seats, 1):
        if finished:
            seat.place, seat.score = place, 100 - place
    WinterSeat.objects.bulk_create(seats)
    return game


def _mine(client: Client, query: str = "") -> str:
    answer = client.get(f"/games/mine/{query}")
    assert answer.status_code == 200
    return answer.content.decode()


def test_my_games_lists_winter_games_running_and_finished(
    client_logged_in: Client, user: User
) -> None:
    rival = UserFactory(username="rival")
    running = _winter([user, rival], status="running")
    done = _winter([rival, user], computers=1)
    page = _mine(client_logged_in)
    assert f'href="/winter/games/{running.pk}/"' in page
    assert f'href="/winter/games/{done.pk}/"' in page
    assert 'data-testid="your-move"' in page
    assert "rival" in page
    assert "place 2 of 3" in page and "98 points" in page
    assert "computer (Easy)" in page


def test_someone_elses_winter_game_is_not_mine(client_logged_in: Client, user: User) -> None:
    other = _winter([UserFactory(), UserFactory()])
    assert f"/winter/games/{other.pk}/" not in _mine(client_logged_in)


@pytest.mark.parametrize(
    ("query", "limes", "winter"),
    [
        ("?game=winter", False, True),
        ("?game=limes", True, False),
        ("", True, True),
        ("?game=chess", True, True),
        ("?game=%00%ff", True, True),
        ("?game=winter&game=limes", True, False),
        ("?game=" + "w" * 5000, True, True),
    ],
)
def test_my_games_game_filter(
    client_logged_in: Client, user: User, query: str, limes: bool, winter: bool
) -> None:
    _winter([user, UserFactory()])
    page = _mine(client_logged_in, query)
    assert ('data-testid="winter-games"' in page) is winter
    assert ('id="finished"' in page) is limes


def test_my_games_counts_winter_games_in_fixed_queries(
    client_logged_in: Client, user: User, django_assert_max_num_queries: Any
) -> None:
    _winter([user, UserFactory()], status="running")
    with django_assert_max_num_queries(10_000) as few:
        _mine(client_logged_in, "?game=winter")
    baseline = len(few.captured_queries)
    for _ in range(6):
        _winter([user, UserFactory(), UserFactory()], computers=1)
        _winter([UserFactory(), user], status="running")
    with django_assert_max_num_queries(baseline):
        page = _mine(client_logged_in, "?game=winter")
    assert page.count('data-testid="winter-game"') == 13


def test_the_profile_shows_winter_games(
    client: Client, user: User, django_assert_max_num_queries: Any
) -> None:
    rival = UserFactory(username="rival")
    game = _winter([user, rival])
    with django_assert_max_num_queries(10_000) as few:
        page = client.get(f"/players/{user.username}/").content.decode()
    assert f'href="/winter/games/{game.pk}/"' in page and "rival" in page
    assert "place 1 of 2" in page
    baseline = len(few.captured_queries)
    for _ in range(5):
        _winter([user, UserFactory()])
    with django_assert_max_num_queries(baseline):
        client.get(f"/players/{user.username}/")


def test_a_profile_without_winter_games_has_no_winter_section(client: Client, user: User) -> None:
    page = client.get(f"/players/{user.username}/").content.decode()
    assert 'data-testid="winter-games"' not in page


def test_the_lobby_lists_winter_games_waiting_for_players(
    client_logged_in: Client, user: User
) -> None:
    host = UserFactory(username="host")
    waiting = _winter([host], status="open", open_seats=2)
    mine = _winter([UserFactory(), user], status="open", open_seats=1)
    running = _winter([host, UserFactory()], status="running")
    page = client_logged_in.get("/lobby/").content.decode()
    assert f'data-winter-game="{waiting.pk}"' in page
    assert f'action="/winter/games/{waiting.pk}/join/"' in page
    assert "host&#x27;s game" in page or "host's game" in page
    assert f'data-winter-game="{mine.pk}"' in page
    assert f'data-testid="join-winter-{mine.pk}"' not in page  # already seated: no join
    assert f'data-winter-game="{running.pk}"' not in page


def test_a_visitor_sees_winter_games_in_the_lobby_and_signs_in_to_join(client: Client) -> None:
    waiting = _winter([UserFactory()], status="open", open_seats=1)
    page = client.get("/lobby/").content.decode()
    assert f"?next=/winter/games/{waiting.pk}/" in page.replace("%2F", "/")
    assert "join-winter-" not in page


@pytest.mark.parametrize(
    ("query", "limes", "winter"),
    [
        ("?game=winter", False, True),
        ("?game=limes", True, False),
        ("", True, True),
        ("?game=WINTER", True, True),
        ("?game=%00", True, True),
        ("?game=<script>", True, True),
        ("?game[]=winter", True, True),
        ("?game=winter&page=-3", False, True),
        ("?game=limes&page=%C2%B2", True, False),
    ],
)
def test_the_lobby_game_filter(client: Client, query: str, limes: bool, winter: bool) -> None:
    _winter([UserFactory()], status="open", open_seats=1)
    answer = client.get(f"/lobby/{query}")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert ('data-testid="lobby-winter-' in page) is winter
    assert ('data-testid="lobby-empty"' in page or 'data-testid="lobby-games"' in page) is limes
    assert "<script>&" not in page


def test_the_lobby_poll_keeps_the_game_filter(client: Client) -> None:
    page = client.get("/lobby/?game=winter").content.decode()
    assert "&amp;game=winter" in page


def test_the_winter_lobby_polls_on_its_own(client: Client) -> None:
    waiting = _winter([UserFactory()], status="open", open_seats=1)
    page = client.get("/lobby/").content.decode()
    assert 'hx-get="/lobby/winter/poll/?since=' in page
    since = page.split("/lobby/winter/poll/?since=")[1].split('"')[0]
    assert client.get(f"/lobby/winter/poll/?since={since}").status_code == 204
    later = _winter([UserFactory()], status="open", open_seats=2)
    answer = client.get(f"/lobby/winter/poll/?since={since}")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f'data-winter-game="{waiting.pk}"' in html and f'data-winter-game="{later.pk}"' in html
    assert 'id="winter-lobby"' in html


@pytest.mark.parametrize("since", ["", "x", "%00", "1-2" * 3000, "<script>"])
def test_the_winter_lobby_poll_takes_any_signature(client: Client, since: str) -> None:
    answer = client.get(f"/lobby/winter/poll/?since={since}")
    assert answer.status_code == 200
    assert b"<script>&" not in answer.content


def test_opening_and_joining_a_winter_game_nudges_the_lobby(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from floor import push
    from wintergames import services

    nudges: list[str] = []
    monkeypatch.setattr(push, "lobby_changed", lambda: nudges.append("lobby"))
    game = services.game_create(
        user=user, players=2, computers=0, level="easy", farmers=True, pace="untimed"
    )
    assert nudges == ["lobby"]
    services.game_join(game_id=game.pk, user=UserFactory())
    assert nudges == ["lobby", "lobby"]


def test_the_lobby_reads_winter_games_in_fixed_queries(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    _winter([UserFactory()], status="open", open_seats=1)
    with django_assert_max_num_queries(10_000) as few:
        client.get("/lobby/?game=winter")
    baseline = len(few.captured_queries)
    for _ in range(8):
        _winter([UserFactory(), UserFactory()], status="open", open_seats=2, computers=1)
    with django_assert_max_num_queries(baseline):
        page = client.get("/lobby/?game=winter").content.decode()
    assert page.count("data-winter-game=") == 9
