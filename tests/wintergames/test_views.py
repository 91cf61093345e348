from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import winter
from tests.factories import UserFactory
from tests.pages import HTMX, client_for
from wintergames import services
from wintergames.models import WinterGame, WinterTurn
from wintergames.rebuild import winter_game

pytestmark = pytest.mark.django_db


def _game(user: Any, *, computers: int = 3, seed: int = 11) -> WinterGame:
    return services.game_create(
        user=user,
        players=computers + 1,
        computers=computers,
        level="easy",
        farmers=True,
        pace="untimed",
        seed=seed,
    )


def _state(game: WinterGame) -> winter.Game:
    game.refresh_from_db()
    return winter_game(game, list(game.seats.select_related("user").order_by("position")))


def _fields(state: winter.Game) -> dict[str, str]:
    assert state.drawn is not None
    move = state.legal_moves(state.drawn)[0]
    return {
        "at": f"{move.at[0]},{move.at[1]}",
        "rotation": str(move.rotation),
        "follower": "",
        "turn": str(len(state.turns)),
    }


def test_the_game_pages_show(client_logged_in: Client) -> None:
    home = client_logged_in.get("/winter/")
    assert b'name="computers"' in home.content
    rules = client_logged_in.get("/winter/rules/")
    assert b"How to play Carcassonne: Winter Edition" in rules.content
    assert rules.content.count(b'class="w-field"') >= 6  # the tiles drawn


def test_new_against_computers_redirects_to_a_running_game(client_logged_in: Client) -> None:
    answer = client_logged_in.post(
        "/winter/new/",
        {"players": "3", "computers": "2", "level": "strong", "pace": "live", "farmers": "on"},
    )
    game = WinterGame.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/winter/games/{game.pk}/"
    assert game.status == WinterGame.Status.RUNNING and game.farmers


def test_the_full_page_and_the_fragment(client_logged_in: Client, user: Any) -> None:
    game = _game(user)
    page = client_logged_in.get(f"/winter/games/{game.pk}/")
    assert b"<html" in page.content and b'id="winter-board"' in page.content
    assert b'id="winter-draft"' in page.content  # the legal moves, as JSON
    fragment = client_logged_in.get(f"/winter/games/{game.pk}/?at=-1,0", **HTMX)
    assert b"<html" not in fragment.content
    assert fragment.content.lstrip().startswith(b"<section")


def test_an_open_game_names_its_open_seats_as_open_not_as_computers(client: Client) -> None:
    rival = UserFactory(username="rival")
    game = services.game_create(
        user=rival, players=3, computers=0, level="", farmers=True, pace="untimed"
    )
    page = client.get(f"/winter/games/{game.pk}/").content.decode()
    names = re.findall(r'data-testid="winter-seat">\s*<td><span[^>]*></span> ([^<\n]+)', page)
    assert [name.strip() for name in names] == ["rival", "open seat", "open seat"]


def test_a_draft_step_is_a_link_without_javascript(client_logged_in: Client, user: Any) -> None:
    game = _game(user)
    state = _state(game)
    assert state.drawn is not None
    move = state.legal_moves(state.drawn)[0]
    at = f"{move.at[0]},{move.at[1]}"
    page = client_logged_in.get(f"/winter/games/{game.pk}/", {"at": at})
    content = page.content.decode()
    assert f'name="at" value="{at}"' in content
    assert f'name="rotation" value="{move.rotation}"' in content
    assert "w-ghost" in content


def test_playing_through_htmx_swaps_the_board(
    client_logged_in: Client, user: Any, committed: Callable[[], Any]
) -> None:
    game = _game(user)
    with committed():
        answer = client_logged_in.post(
            f"/winter/games/{game.pk}/play/", _fields(_state(game)), **HTMX
        )
    assert answer.status_code == 200
    assert answer.content.lstrip().startswith(b"<section")
    assert "HX-Replace-Url" in answer.headers
    # The computers played once the turn committed: it is the person's turn again.
    assert sum(isinstance(t, winter.Placement) for t in _state(game).turns) == 4
    assert b"Your turn" in client_logged_in.get(f"/winter/games/{game.pk}/", **HTMX).content


def test_a_plain_post_redirects_to_the_game(client_logged_in: Client, user: Any) -> None:
    game = _game(user)
    answer = client_logged_in.post(f"/winter/games/{game.pk}/play/", _fields(_state(game)))
    assert answer.status_code == 302


def test_a_turn_commit_takes_a_bounded_number_of_queries(
    client_logged_in: Client, user: Any, committed: Callable[[], Any]
) -> None:
    # Committed, as the page before it was: its position is kept (wintergames.rebuild).
    with committed():
        game = _game(user, computers=1)
        fields = _fields(_state(game))
    with CaptureQueriesContext(connection) as queries:
        answer = client_logged_in.post(f"/winter/games/{game.pk}/play/", fields, **HTMX)
    assert answer.status_code == 200
    # Session and user, the game locked, its seats, the turn stored, the version moved on
    # (and two savepoint statements); the board is drawn from what the commit read.
    assert len(queries) == 8, "\n".join(q["sql"] for q in queries.captured_queries)


def test_the_record_so_far(client: Client, user: Any) -> None:
    game = _game(user)
    state = _state(game)
    record = client.get(f"/winter/games/{game.pk}/record.json").json()
    assert record["format"] == "winter-game/1"
    assert record["players"] == [user.username, "Computer 2", "Computer 3", "Computer 4"]
    assert record["status"] == "running"
    assert record["to_move"] == user.username
    assert record["next"] == state.drawn
    assert record["scores"] == dict.fromkeys(record["players"], 0)
    winter.game_from_record(record)  # a valid record


def test_the_record_never_shows_a_tile_not_drawn(
    client: Client, user: Any, committed: Callable[[], Any]
) -> None:
    game = _game(user, computers=1, seed=918273645)  # a seed no coordinate can spell
    with committed():
        client_for(user).post(f"/winter/games/{game.pk}/play/", _fields(_state(game)))
    deal = winter.deal(game.seed)
    # Ways to peek: a query, a header, the fragment, the poll.
    for url in (
        f"/winter/games/{game.pk}/record.json?all=1&turns=83",
        f"/winter/games/{game.pk}/record.json?next=2",
    ):
        text = client.get(url, HTTP_RANGE="bytes=0-").content.decode()
        record = json.loads(text)
        shown = len(record["turns"]) + 1  # the entries, and the tile drawn
        assert record["next"] == deal[len(record["turns"])]
        undrawn = deal[shown:]
        assert WinterTurn.objects.filter(game=game).count() == shown - 1
        # The record holds no more tiles than were drawn, and none beyond in order.
        assert [t["tile"] for t in record["turns"]] == list(deal[: shown - 1])
        assert "deal" not in text and "seed" not in text and len(undrawn) == 83 - shown
    page = client.get(f"/winter/games/{game.pk}/").content.decode()
    assert str(game.seed) not in page


def test_the_poll_answers_204_until_the_game_changes(client_logged_in: Client, user: Any) -> None:
    game = _game(user, computers=1)
    page = client_logged_in.get(f"/winter/games/{game.pk}/").content.decode()
    token = page.split(f"/winter/games/{game.pk}/poll/?v={game.version}&amp;t=")[1][:32]
    url = f"/winter/games/{game.pk}/poll/?t={token}&v="
    assert client_logged_in.get(url + str(game.version)).status_code == 204
    client_logged_in.post(f"/winter/games/{game.pk}/play/", _fields(_state(game)))
    changed = client_logged_in.get(url + str(game.version), **HTMX)
    assert changed.status_code == 200 and b'id="winter-board"' in changed.content
    assert Client().get(url + str(game.version)).status_code == 404  # another session's token


def test_another_player_cannot_play_your_turn(user: Any) -> None:
    game = _game(user)
    other = client_for(UserFactory())
    answer = other.post(f"/winter/games/{game.pk}/play/", _fields(_state(game)))
    assert answer.status_code == 403
    assert not WinterTurn.objects.filter(game=game).exists()


HOSTILE_PLAY: list[dict[str, str]] = [
    {"at": "0\x00,1"},
    {"at": "99999999999999999999,0"},
    {"at": "١,٠"},  # Arabic-Indic digits
    {"at": "1;0"},
    {"at": "1,2,3"},
    {"at": ""},
    {"at": "a,b"},
    {"rotation": "45"},
    {"rotation": "90\x00"},
    {"rotation": "٩٠"},
    {"rotation": "3600"},
    {"rotation": "-90"},
    {"follower": "X"},
    {"follower": "N\x00"},
    {"follower": "n3"},
    {"turn": "99999999999999999999"},
    {"turn": "-1"},
    {"turn": "٣"},
]


@pytest.mark.parametrize("change", HOSTILE_PLAY)
def test_hostile_play_input_is_refused_and_changes_nothing(
    client_logged_in: Client, user: Any, change: dict[str, str]
) -> None:
    game = _game(user)
    fields = {**_fields(_state(game)), **change}
    version = WinterGame.objects.get(pk=game.pk).version
    answer = client_logged_in.post(f"/winter/games/{game.pk}/play/", fields)
    assert 400 <= answer.status_code < 500
    assert WinterGame.objects.get(pk=game.pk).version == version
    assert not WinterTurn.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"players": "4\x00", "computers": "3"},
        {"players": "99999999999999999999", "computers": "1"},
        {"players": "٤", "computers": "1"},
        {"players": "4", "computers": "-1"},
        {"players": "4", "computers": "4"},
        {"players": "4", "computers": "3", "level": "godlike"},
        {"players": "4", "computers": "3", "pace": "warp"},
        {"players": "", "computers": ""},
    ],
)
def test_hostile_new_game_input_is_refused(
    client_logged_in: Client, fields: dict[str, str]
) -> None:
    answer = client_logged_in.post(
        "/winter/new/", {"level": "easy", "pace": "live", "farmers": "on", **fields}
    )
    assert 400 <= answer.status_code < 500
    assert not WinterGame.objects.exists()


@pytest.mark.parametrize(
    "path",
    [
        "/winter/games/99999999999999999999/",
        "/winter/games/0/",
        "/winter/games/99999999999999999999/record.json",
        "/winter/games/123456/record.json",
        "/winter/games/123456/poll/?v=1&t=x",
        "/winter/games/1/poll/?v=%00&t=x",
    ],
)
def test_hostile_urls_are_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


def test_hostile_draft_params_are_ignored(client_logged_in: Client, user: Any) -> None:
    game = _game(user)
    for query in ("at=%00", "at=1e9,1", "at=٠,١", "rotation=45&at=-1,0", "follower=%00&at=-1,0"):
        answer = client_logged_in.get(f"/winter/games/{game.pk}/?{query}")
        assert answer.status_code == 200
    poll = client_logged_in.get(f"/winter/games/{game.pk}/poll/?v=99999999999999999999&t=x")
    assert poll.status_code == 404


@pytest.mark.parametrize(
    ("language", "words"),
    [("cs", "Jak hrát"), ("de", "So spielt man"), ("fr", "Comment jouer")],
)
def test_the_rules_and_board_speak_the_reader_language(
    client: Client, user: Any, language: str, words: str
) -> None:
    client.cookies["django_language"] = language
    assert words in client.get("/winter/rules/").content.decode()
    game = _game(user)
    board = client.get(f"/winter/games/{game.pk}/").content.decode()
    assert "Whole board" not in board and "tiles left" not in board
