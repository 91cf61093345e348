"""Table aids (the bag, the scores were the game to end now, dead places, lit features),
the replay and the record download."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

import winter
from tests.pages import client_for
from wintergames import services
from wintergames.boardview import feature_data
from wintergames.models import WinterGame
from wintergames.rebuild import winter_game

pytestmark = pytest.mark.django_db

NEW = {"players": "2", "computers": "1", "level": "easy", "pace": "untimed", "farmers": "on"}


def _game(user: Any, *, aids: bool = True) -> WinterGame:
    return services.game_create(
        user=user,
        players=2,
        computers=1,
        level="easy",
        farmers=True,
        pace="untimed",
        seed=5,
        aids=aids,
    )


def _state(game: WinterGame) -> winter.Game:
    game.refresh_from_db()
    return winter_game(game, list(game.seats.select_related("user").order_by("position")))


def _play(user: Any, game: WinterGame, turns: int, committed: Callable[[], Any]) -> None:
    client = client_for(user)
    for _ in range(turns):
        state = _state(game)
        assert state.drawn is not None
        move = state.legal_moves(state.drawn)[0]
        fields = {
            "at": f"{move.at[0]},{move.at[1]}",
            "rotation": str(move.rotation),
            "follower": move.followers[0] if move.followers else "",
            "turn": str(len(state.turns)),
        }
        with committed():
            assert client.post(f"/winter/games/{game.pk}/play/", fields).status_code == 302


@pytest.mark.parametrize(
    ("extra", "aids"),
    [
        ({"aids_shown": "1", "aids": "on"}, True),
        ({"aids_shown": "1"}, False),  # the box left unticked
        ({}, True),  # a caller that knows no aids
    ],
)
def test_the_new_game_form_sets_the_aids(
    client_logged_in: Client, extra: dict[str, str], aids: bool
) -> None:
    answer = client_logged_in.post("/winter/new/", {**NEW, **extra})
    assert answer.status_code == 302
    assert WinterGame.objects.get().aids is aids


def test_the_form_offers_the_aids(client_logged_in: Client) -> None:
    page = client_logged_in.get("/winter/").content.decode()
    assert 'name="aids" checked' in page and 'name="aids_shown"' in page
    assert "Table aids" in page and 'id="w-aids-hint"' in page


@pytest.fixture
def dead(monkeypatch: pytest.MonkeyPatch) -> None:
    def iter_dead_places(self: winter.Game) -> Iterator[winter.Point]:
        yield (7, -3)

    monkeypatch.setattr(winter.Game, "iter_dead_places", iter_dead_places)


@pytest.mark.usefixtures("dead")
def test_the_page_draws_the_aids(client_logged_in: Client, user: Any) -> None:
    game = _game(user)
    page = client_logged_in.get(f"/winter/games/{game.pk}/").content.decode()
    assert 'data-testid="winter-bag"' in page and "× 4" in page  # the bag by kind
    assert 'data-testid="winter-if-ended"' in page
    assert 'data-dead="7,-3"' in page
    assert 'id="winter-features"' in page and 'class="w-seg"' in page
    assert 'data-seg="0,0:N"' in page  # the start tile's city


@pytest.mark.usefixtures("dead")
def test_without_aids_none_is_drawn_or_sent(client_logged_in: Client, user: Any) -> None:
    game = _game(user, aids=False)
    page = client_logged_in.get(f"/winter/games/{game.pk}/").content.decode()
    for aid in ("winter-bag", "winter-if-ended", "data-dead", "winter-features", "w-seg"):
        assert aid not in page
    assert "without table aids" in page
    assert "tiles left" in page  # the count alone is no aid: the rules show it


def test_the_scores_were_the_game_to_end_now(
    client_logged_in: Client, user: Any, committed: Callable[[], Any]
) -> None:
    game = _game(user)
    _play(user, game, 3, committed)
    state = _state(game)
    page = client_logged_in.get(f"/winter/games/{game.pk}/").content.decode()
    for name, total in zip(state.players, state.totals(), strict=True):
        assert f"{name}: {total} points" in page


def _played(turns: int) -> winter.Game:
    state = winter.Game(["a", "b"], order=winter.deal(3))
    while len(state.turns) < turns and state.drawn is not None:
        placements = list(state.iter_placements(state.drawn))
        state.play(placements[len(state.turns) * 7 % len(placements)])
    return state


def test_a_field_lights_the_finished_cities_it_borders() -> None:
    state = _played(60)
    features = list(state.iter_features())
    data, hits = feature_data(state, features)
    rows: Any = data["features"]
    segments: Any = data["segments"]
    fields_with_cities = 0
    for index, (feature, row) in enumerate(zip(features, rows, strict=True)):
        for at, segment in feature.segments:
            assert segments[f"{at[0]},{at[1]}:{segment}"] == index
        if feature.kind is not winter.FeatureKind.FIELD:
            assert row["cities"] == []
            continue
        assert len(row["cities"]) == feature.cities  # the engine's count
        assert row["points"] == 3 * feature.cities
        for city in row["cities"]:
            assert rows[city]["kind"] == "city" and rows[city]["complete"]
        fields_with_cities += bool(row["cities"])
    assert fields_with_cities  # the deal gives some
    assert len(hits) == len(segments)
    json.dumps(data)


def test_a_feature_lists_its_followers() -> None:
    state = _played(20)
    rows: Any = feature_data(state, list(state.iter_features()))[0]["features"]
    on_board = sorted([row, col, seg, seat] for f in rows for row, col, seg, seat in f["followers"])
    assert len(on_board) == sum(7 - state.supply(seat) for seat in (0, 1))


# -- the replay and the download ------------------------------------------------------------


def test_the_replay_steps_through_the_turns_played(
    client: Client, user: Any, committed: Callable[[], Any]
) -> None:
    game = _game(user)
    _play(user, game, 2, committed)
    played = game.turns.count()
    url = f"/winter/games/{game.pk}/replay/"
    last = client.get(url).content.decode()
    assert f"Turn {played} of {played}" in last and 'rel="next"' not in last
    start = client.get(url + "?turn=0").content.decode()
    assert f"Turn 0 of {played}" in start and 'rel="prev"' not in start
    assert f'href="{url}?turn=1" rel="next"' in start
    assert start.count('class="w-tile"') == 1  # the start tile alone
    middle = client.get(url + "?turn=1").content.decode()
    assert f'href="{url}?turn=0" rel="prev"' in middle
    assert middle.count('class="w-tile"') == 2
    # A running game's replay never shows the tile drawn.
    assert "winter-draft" not in last and "drew:" not in last


def test_a_finished_game_replay_is_public(client: Client, user: Any) -> None:
    game = _game(user)
    WinterGame.objects.filter(pk=game.pk).update(status=WinterGame.Status.FINISHED)
    assert client.get(f"/winter/games/{game.pk}/replay/?turn=0").status_code == 200


def test_an_open_game_has_no_replay(client: Client, user: Any) -> None:
    game = services.game_create(
        user=user, players=2, computers=0, level="easy", farmers=True, pace="untimed"
    )
    assert client.get(f"/winter/games/{game.pk}/replay/").status_code == 404
    assert client.get("/winter/games/999999/replay/").status_code == 404


@pytest.mark.parametrize(
    ("turn", "status"),
    [
        ("\x00", 400),
        ("1\x00", 400),
        ("-1", 400),
        ("1.5", 400),
        ("١", 400),  # an Arabic-Indic one
        ("²", 400),
        ("9" * 5000, 200),  # clamped to the last turn
        ("99999", 200),
        ("0" * 3, 200),
        ("", 200),
    ],
)
def test_hostile_turns_are_refused_or_clamped(
    client: Client, user: Any, turn: str, status: int
) -> None:
    game = _game(user)
    answer = client.get(f"/winter/games/{game.pk}/replay/", {"turn": turn})
    assert answer.status_code == status


def test_the_record_downloads_as_a_file(client: Client, user: Any) -> None:
    game = _game(user)
    url = f"/winter/games/{game.pk}/record.json"
    assert "Content-Disposition" not in client.get(url)
    answer = client.get(url + "?download=1")
    assert answer["Content-Disposition"] == f'attachment; filename="winter-game-{game.pk}.json"'
    assert json.loads(answer.content)["status"] == "running"
    page = client.get(f"/winter/games/{game.pk}/").content.decode()
    assert f'href="{url}?download=1" download' in page
