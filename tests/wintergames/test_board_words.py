"""The Winter board in words: follower choices, the choice being drafted, the board, plurals."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

import winter
from tests.pages import HTMX
from wintergames import boardwords, services
from wintergames.models import WinterGame
from wintergames.rebuild import winter_game


def _played(turns: int, seed: int = 3) -> winter.Game:
    state = winter.Game(["ana", "ben"], order=winter.deal(seed))
    while len(state.turns) < turns and state.drawn is not None:
        placements = list(state.iter_placements(state.drawn))
        state.play(placements[len(state.turns) * 7 % len(placements)])
    return state


@pytest.mark.parametrize(
    ("tile", "rotation", "name", "words"),
    [
        ("WinD", 0, "N", "knight in the city"),
        ("WinD", 0, "E", "thief on the road"),
        ("WinD", 0, "e1", "farmer in the field to the north"),
        ("WinD", 0, "s2", "farmer in the field to the south"),
        ("WinD", 90, "E", "knight in the city"),  # the city turned to the east
        ("WinD", 90, "n2", "farmer in the field to the east"),
        ("WinA", 0, "cloister", "monk in the cloister"),
        ("WinL", 0, "W", "thief on the road to the west"),
        ("WinH", 0, "E", "knight in the city to the east"),
        ("WinX", 0, "n2", "farmer in the field to the north-east"),
        ("WinTierI", 0, "n2", "farmer in the field in the middle"),
    ],
)
def test_a_follower_place_reads_as_words(tile: str, rotation: int, name: str, words: str) -> None:
    assert boardwords.follower_words(tile, rotation, name) == words


def test_a_name_of_no_segment_is_refused() -> None:
    with pytest.raises(ValueError, match="names no segment"):
        boardwords.follower_words("WinD", 0, "cloister")


def test_every_choice_on_every_tile_reads_differently() -> None:
    for kind in winter.TILE_KINDS:
        for rotation in winter.ROTATIONS:
            placed = winter.orientation(kind.name, rotation)
            words = [boardwords.follower_words(kind.name, rotation, n) for n in placed.segment_name]
            assert len(set(words)) == len(words), (kind.name, rotation, words)


@pytest.mark.parametrize(
    ("language", "forms"),
    [
        ("cs", {1: "1 bod", 3: "3 body", 5: "5 bodů", 22: "22 bodů", 0: "0 bodů"}),
        ("de", {1: "1 Punkt", 3: "3 Punkte"}),
        ("fr", {1: "1 point", 3: "3 points"}),
    ],
)
def test_points_take_the_plural_form_of_the_language(language: str, forms: dict[int, str]) -> None:
    with translation.override(language):
        for n, words in forms.items():
            assert boardwords.points_words(n) == words


def test_a_place_says_what_touches_it() -> None:
    state = winter.Game(["ana", "ben"])
    assert boardwords.neighbour_words(state, (-1, 0), state.players) == "city to the south"
    assert boardwords.neighbour_words(state, (0, 1), state.players) == "road to the west"
    assert boardwords.neighbour_words(state, (1, 0), state.players) == "field to the north"
    state.play(winter.Placement("WinV", (0, 1), 0, "W"))  # ana's thief on the road
    said = boardwords.place_description(state, (1, 1), state.players)
    assert said == "Place (1, 1). Touching it: road (ana) to the north."


def test_a_choice_says_the_points_at_stake() -> None:
    state = winter.Game(["ana", "ben"])
    move = next(m for m in state.legal_moves("WinE") if m.at == (-1, 0) and m.rotation == 180)
    said, stakes = boardwords.move_description(state, "WinE", move, state.players)
    assert said == "Turned 180 degrees."  # nobody holds the start city: nobody scores
    assert stakes["S"] == "knight in the city: 4 points at once"
    assert stakes["n1"] == "farmer in the field: 3 points at the end as the field stands"
    road = next(m for m in state.legal_moves("WinU") if m.at == (0, 1))
    assert boardwords.move_description(state, "WinU", road, state.players)[1]["E"] == (
        "thief on the road: 2 points as it stands, 2 points once finished"
    )


def test_a_choice_that_finishes_a_held_feature_says_who_scores() -> None:
    state = winter.Game(["ana", "ben"])
    state.play(winter.Placement("WinA", (0, 1), 90, "W"))  # ana's thief: the road ends east
    state.play(winter.Placement("WinE", (-1, 0), 180))
    finish = next(m for m in state.legal_moves("WinA") if m.at == (0, -1) and m.rotation == 270)
    said, _stakes = boardwords.move_description(state, "WinA", finish, state.players)
    assert said == "Turned 270 degrees. Finishes ana's road: 3 tiles, 3 points."


def test_the_board_in_words_lists_what_followers_hold() -> None:
    state = _played(30)
    lines = boardwords.board_summary(state, list(state.iter_features()), state.players)
    assert lines[0] == "31 tiles placed, from row -4 to 4 and column -4 to 6."
    held = [line for line in lines[1:-1] if "(ana)" in line or "(ben)" in line]
    assert len(held) == len(lines) - 2
    assert "city (ana) on (0, 2), (0, 3), (1, 3): 4 points as it stands" in "\n".join(lines)
    assert lines[-1].startswith("Unfinished with nobody on them: ")


# -- on the page ----------------------------------------------------------------------------


def _game(user: Any) -> WinterGame:
    return services.game_create(
        user=user, players=2, computers=1, level="easy", farmers=True, pace="untimed", seed=5
    )


def _state(game: WinterGame) -> winter.Game:
    return winter_game(game, list(game.seats.select_related("user").order_by("position")))


@pytest.mark.django_db
def test_the_follower_links_read_as_words_and_post_the_name(
    client_logged_in: Client, user: Any
) -> None:
    game = _game(user)
    state = _state(game)
    assert state.drawn is not None
    move = next(m for m in state.legal_moves(state.drawn) if m.followers)
    at = f"{move.at[0]},{move.at[1]}"
    name = move.followers[0]
    words = boardwords.follower_words(state.drawn, move.rotation, name)
    page = client_logged_in.get(
        f"/winter/games/{game.pk}/", {"at": at, "rotation": str(move.rotation)}
    ).content.decode()
    link = re.search(rf'<a href="([^"]+)" data-follower="{name}"\s*>([^<]+)</a>', page)
    assert link is not None and link.group(2) == words
    assert f"follower={name}" in link.group(1)
    chosen = client_logged_in.get(link.group(1).replace("&amp;", "&")).content.decode()
    assert f'name="follower" value="{name}"' in chosen  # the form posts the FORMATS.md name
    assert f"{words}: " in chosen  # and the choice is said with its points at stake


@pytest.mark.django_db
def test_the_draft_data_carries_words_for_the_script(client_logged_in: Client, user: Any) -> None:
    game = _game(user)
    page = client_logged_in.get(f"/winter/games/{game.pk}/").content.decode()
    raw = re.search(r'<script id="winter-draft" type="application/json">(.*?)</script>', page, re.S)
    assert raw is not None
    data = json.loads(raw.group(1))
    assert data["places"] and all(text.startswith("Place (") for text in data["places"].values())
    for move in data["moves"]:
        assert move["say"].startswith("Turned ")
        assert set(move["words"]) == set(move["stakes"]) == set(move["followers"])
    assert 'role="application"' in page and 'aria-label="Place the tile at (' in page
    assert 'tabindex="0"' not in page  # the board's one tab stop is the script's to give
    assert 'data-testid="winter-words"' in page and "1 tile placed" in page


@pytest.mark.django_db
def test_a_first_game_points_to_the_guide_until_one_is_finished(
    client_logged_in: Client, user: Any
) -> None:
    game = _game(user)
    url = f"/winter/games/{game.pk}/"
    assert "#first-game" in client_logged_in.get(url).content.decode()
    assert "#first-game" not in client_logged_in.get(url, **HTMX).content.decode()
    WinterGame.objects.filter(pk=game.pk).update(status=WinterGame.Status.FINISHED)
    other = _game(user)
    assert "#first-game" not in client_logged_in.get(f"/winter/games/{other.pk}/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("cs", "Vaše první hra"), ("de", "Deine erste Partie"), ("fr", "Votre première partie")],
)
def test_the_first_game_guide_is_on_the_rules_page(
    client: Client, language: str, words: str
) -> None:
    client.cookies["django_language"] = language
    page = client.get("/winter/rules/").content.decode()
    assert 'id="first-game"' in page and words in page
    assert page.count('class="w-follower"') >= 2  # tiles drawn with followers on them
    assert 'href="/winter/rules/#first-game"' in client.get("/winter/").content.decode()


@pytest.mark.django_db
def test_the_scores_were_the_game_to_end_now_take_czech_plurals(client: Client, user: Any) -> None:
    game = _game(user)
    client.force_login(user)
    client.cookies["django_language"] = "cs"
    page = client.get(f"/winter/games/{game.pk}/").content.decode()
    for name, total in zip(_state(game).players, _state(game).totals(), strict=True):
        form = "bod" if total == 1 else "body" if 2 <= total <= 4 else "bodů"
        assert f"{name}: {total} {form}" in page


def test_words_kept_for_the_next_page_stay_in_their_own_language() -> None:
    # The board's words are made once a language and kept: asked for in one language while
    # another is active, they come in the one asked for, and each language keeps its own.
    with translation.override("en"):
        english = boardwords.points_words(5)
        czech = boardwords.points_words(5, "cs")
        german_stake = boardwords.place_words((2, -1), "de")
    assert english == "5 points"
    assert czech == "5 bodů"
    with translation.override("cs"):
        assert boardwords.points_words(5) == "5 bodů"
        assert boardwords.follower_words("WinD", 0, "N") != "knight in the city"
    with translation.override("en"):
        assert boardwords.points_words(5) == "5 points"
        assert boardwords.follower_words("WinD", 0, "N") == "knight in the city"
    with translation.override("de"):
        assert boardwords.place_words((2, -1)) == german_stake
