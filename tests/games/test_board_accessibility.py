"""What a screen reader gets from the board: a grid, controls named in words, commit results."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import rebuild
from games.boardview import position_words
from games.models import Game
from tests.factories import creator, reference_turn_for
from tests.pages import HTMX, turn_fields

Play = Callable[[Game, int], Game]


def detail(game: Game) -> str:
    return reverse("games:detail", kwargs={"pk": game.pk})


def total_of(game: Game) -> int:
    state = rebuild.rules_game(game)
    return state.boards[creator(game).username].landscape.score().total


def test_positions_are_said_in_words_from_the_top_left() -> None:
    # In English whatever language an earlier test's request left active in this thread.
    with translation.override("en"):
        assert position_words(1, 3, 1, 4) == "top row, far left"
        assert position_words(2, 3, 4, 4) == "row 2 from the top, far right"
        assert position_words(3, 3, 2, 4) == "bottom row, column 2 from the left"
        assert position_words(1, 1, 1, 1) == "the only row, the only column"


@pytest.mark.django_db
def test_the_landscape_is_a_grid_of_rows_with_slots_named_by_place_not_coordinates(
    client: Client, solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 3)
    client.force_login(creator(game))
    page = client.get(detail(game)).content.decode()
    grid = page[page.index('role="grid"') :]
    assert 'aria-label="Landscape of' in page
    assert grid.count('role="row"') >= 2
    slots = re.findall(r'data-slot="[^"]*" aria-label="([^"]*)"', page)
    assert slots and all(label.startswith("Place the card here: ") for label in slots)
    # Words a listener can picture, never the board's internal (possibly negative) numbers.
    assert not any(re.search(r"-?\d+, ?-?\d+", label) for label in slots)


@pytest.mark.django_db
def test_zone_controls_are_named_by_what_they_do(
    client: Client, solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 6)
    client.force_login(creator(game))
    first = client.get(detail(game)).content.decode()
    slot = re.search(r'data-slot="(-?\d+,-?\d+)"', first)
    assert slot
    page = client.get(detail(game) + f"?at={slot.group(1)}", **HTMX).content.decode()
    names = re.findall(r'data-role="(\w+)" aria-label="([^"]*)"', page)
    assert names
    wording = {
        "place": "Place a worker on this ",
        "source": "Move the worker from this ",
    }
    for role, name in names:
        assert name.startswith(wording[role]), (role, name)
    assert "Card placed: " in page


@pytest.mark.django_db
def test_a_commit_says_the_points_it_brought_and_the_new_total(
    client: Client, solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 5)
    before = total_of(game)
    client.force_login(creator(game))
    round_number, turn = reference_turn_for(game)
    response = client.post(
        reverse("games:play", kwargs={"pk": game.pk}), turn_fields(round_number, turn), **HTMX
    )
    after = total_of(Game.objects.get(pk=game.pk))
    text = response.content.decode()
    gained = after - before
    points = "point" if gained == 1 else "points"  # one point, two points
    assert f"Committed: {gained} {points} gained, {after} in total." in text
    assert "Round 7 of 16." in text
