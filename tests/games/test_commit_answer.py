"""A commit's answer draws the next board from what the commit worked out under its lock,
not from a fresh load (issue #52). It must be the board the page draws from scratch."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

import rules
from accounts.models import User
from games import rebuild, services
from games.models import Game
from tests.factories import UserFactory
from tests.pages import HTMX, client_for, turn_fields

pytestmark = pytest.mark.django_db

BOARD = re.compile(r'<section id="board".*?</section>\n', re.S)
# What a commit adds (its result, announced) and what differs at every drawing.
COMMITTED = re.compile(r"<span data-committed>.*?</span>", re.S)
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+')


def board_of(html: str) -> str:
    found = BOARD.search(html)
    assert found, "the answer holds the board"
    return CSRF.sub(r"\1-", COMMITTED.sub("", found.group(0)))


def commit(client: Client, game: Game, user: User) -> str:
    game.refresh_from_db()
    state = rebuild.rules_game(game)
    card = state.current_card
    assert card is not None
    turn = rules.reference_turn(state.boards[user.username], card, state.variants)
    url = reverse("games:play", kwargs={"pk": game.pk})
    response = client.post(url, turn_fields(state.round, turn), **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def from_scratch(client: Client, game: Game) -> str:
    # The whole page (its board has what surrounds a final one: the best, Play again),
    # with nothing kept from the commit: the drafting data is worked out again.
    cache.clear()
    response = client.get(reverse("games:detail", kwargs={"pk": game.pk}))
    assert response.status_code == 200
    return response.content.decode()


def test_a_solo_commit_answers_the_board_the_page_draws(user: User) -> None:
    game = services.game_create_solo(user=user, diagonal=True, ferryman=True, seed=52)
    client = client_for(user)
    for _ in range(rules.ROUNDS):
        answer = commit(client, game, user)
        assert board_of(answer) == board_of(from_scratch(client, game))
    assert 'data-testid="final-result"' in answer


def test_a_two_player_commit_answers_the_board_the_page_draws() -> None:
    ana, ben = UserFactory(), UserFactory()
    game = services.game_create_multi(
        user=ana, seats_max=2, pace=Game.Pace.LIVE, seed=52, ferryman=True
    )
    services.game_join(game=game, user=ben)
    clients = {ana.pk: client_for(ana), ben.pk: client_for(ben)}
    for _ in range(4):
        for user in (ana, ben):  # the first waits for the other; the second starts a round
            client = clients[user.pk]
            answer = commit(client, game, user)
            assert board_of(answer) == board_of(from_scratch(client, game))
    assert 'id="draft-data"' in answer
