"""The board carries every outcome of its draft, so the page drafts without asking: the
same outcomes the server draws, the round's card and no other."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

import rules
from games import boardview, rebuild, services
from games.models import Game
from games.templatetags import boards
from tests.factories import UserFactory
from tests.pages import HTMX, client_for, turn_fields

pytestmark = pytest.mark.django_db


def drafting_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="draft-data">(.*?)</script>', html)
    assert found, "the board carries its drafting data"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def score_total(html: str) -> int:
    found = re.search(r'data-testid="score-total">(-?\d+)<', html)
    assert found
    return int(found.group(1))


def test_the_board_offers_each_legal_placement_of_the_round_card_only(
    client_logged_in: Client, solo_game: Game, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(solo_game, 5)
    state = rebuild.rules_game(game)
    card = state.current_card
    assert card is not None
    html = client_logged_in.get(f"/games/{game.pk}/").content.decode()
    data = drafting_data(html)
    board = next(iter(state.boards.values()))
    legal = board.legal_placements(state.variants)
    assert sorted(data["placements"]) == sorted(
        f"{p.card_at[0]},{p.card_at[1]}@{p.rotation}" for p in legal
    )
    # Each turn of the card in reading order (its zones go clockwise from the top left).
    assert data["card"] == {
        str(r): [[z.terrain.value, int(z.hut)] for z in (zones[0], zones[1], zones[3], zones[2])]
        for r in rules.ROTATIONS
        for zones in [card.rotated(r)]
    }
    # The board's own parts and the outcomes: no other card, nothing of the deck.
    assert set(data) == {
        "n", "supply", "columns", "grid", "cells", "where", "workers", "score", "card",
        "descriptions", "placements",
    }  # fmt: skip


def test_every_outcome_is_the_score_the_server_draws_for_that_draft(
    client_logged_in: Client, solo_game: Game, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(solo_game, 6)
    url = f"/games/{game.pk}/"
    data = drafting_data(client_logged_in.get(url).content.decode())
    placements: dict[str, dict[str, Any]] = data["placements"]
    checked = 0
    for key, placement in list(placements.items())[::5]:
        at, rotation = key.split("@")
        drafts: list[tuple[dict[str, str], int]] = [({}, placement["keep"][0])]
        for zone, total, *_rest in placement["place"][:2]:
            drafts.append(({"place": zone}, total))
        for source, moves in list(placement["move"].items())[:2]:
            for _region, zones, _counts, total, *_rest in moves[:3]:
                if zones is not None:
                    drafts.append(({"from": source, "to": zones.split()[-1]}, total))
        for extra, total in drafts:
            params = {"at": at, "rot": rotation, "n": str(game.round), **extra}
            html = client_logged_in.get(url, params, **HTMX).content.decode()
            assert 'data-testid="error"' not in html
            assert score_total(html) == total
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("variants", [rules.Variants(), rules.Variants(True, True)])
def test_the_drafting_data_is_plain_compact_json(variants: rules.Variants) -> None:
    # Its placements are written as text, not by json.dumps: the page must get the same.
    game = rules.Game.new(["solo"], random.Random(3), variants=variants, deck=rules.load_deck())
    scored_moves = uncounted = 0
    while (card := game.current_card) is not None:
        board = game.boards["solo"]
        text = boardview.drafting_json(board, card, variants, game.round)
        data = json.loads(text)
        assert json.dumps(data, separators=(",", ":"), ensure_ascii=False) == text
        for placement in data["placements"].values():
            moves = [m for ms in placement["move"].values() for m in ms]
            scored_moves += sum(m[1] is not None for m in moves)
            uncounted += sum(len(m) == 5 for m in moves) + len(placement["keep"]) - 1
        game.play("solo", rules.reference_turn(board, card, variants))
    # Moves into a region scored already, and workers another scores, were written too.
    assert scored_moves and uncounted


def test_no_text_in_the_drafting_data_can_close_its_script_element(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hostile = {"word": "</script><b>&amp;"}
    monkeypatch.setattr(boards, "drafting_words", lambda language: json.dumps(hostile))
    card = rules.load_deck().card(1)
    view = boardview.round_view(rules.Board(), card, rules.Variants(), boardview.Draft(round=1))
    html = boards.drafting_data(view)
    words = re.search(r'<script type="application/json" id="draft-words">(.*?)</script>', html)
    assert words and html.count("</script>") == 2 and "<b>" not in html
    # As json_script escapes them: the page's JSON.parse reads the same text.
    assert words.group(1) == '{"word": "\\u003C/script\\u003E\\u003Cb\\u003E\\u0026amp;"}'
    assert json.loads(words.group(1)) == hostile
    assert drafting_data(html)["n"] == 1


def test_the_drafting_data_is_made_once_a_round_and_seat(
    client_logged_in: Client, solo_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = []
    real = boardview.drafting_json

    def counting(*args: Any) -> str:
        made.append(args)
        return real(*args)

    monkeypatch.setattr(boardview, "drafting_json", counting)
    url = f"/games/{solo_game.pk}/"
    first = drafting_data(client_logged_in.get(url).content.decode())
    again = drafting_data(client_logged_in.get(url, {"rot": "90"}, **HTMX).content.decode())
    assert first == again
    assert len(made) == 1


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    made: list[tuple[Any, ...]] = []
    real = boardview.drafting_json

    def counting(*args: Any) -> str:
        made.append(args)
        return real(*args)

    monkeypatch.setattr(boardview, "drafting_json", counting)
    return made


def _commit(client: Client, game: Game, player: str) -> str:
    game.refresh_from_db()
    state = rebuild.rules_game(game)
    card = state.current_card
    assert card is not None
    turn = rules.reference_turn(state.boards[player], card, state.variants)
    response = client.post(f"/games/{game.pk}/play/", turn_fields(state.round, turn), **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_the_drafting_data_outlives_another_players_commit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Kept by round and seat, not by the game's version: the other player's commit moves
    # the version on, and the page drawn again after it makes nothing anew.
    ana, ben = UserFactory(), UserFactory()
    game = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE, seed=7)
    services.game_join(game=game, user=ben)
    made = _counting(monkeypatch)
    url = f"/games/{game.pk}/"
    first = drafting_data(client_for(ana).get(url).content.decode())
    assert len(made) == 1
    version = Game.objects.get(pk=game.pk).version
    _commit(client_for(ben), game, ben.username)
    assert Game.objects.get(pk=game.pk).version > version
    again = drafting_data(client_for(ana).get(url).content.decode())
    assert again == first
    assert len(made) == 1


def test_a_new_round_makes_its_drafting_data_anew(
    client_logged_in: Client, solo_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _counting(monkeypatch)
    url = f"/games/{solo_game.pk}/"
    first = drafting_data(client_logged_in.get(url).content.decode())
    player = rebuild.player_key(solo_game.seats.get())
    # The commit's answer draws the next round: its data is made there, once, and the
    # page drawn again finds it kept.
    answer = drafting_data(_commit(client_logged_in, solo_game, player))
    assert len(made) == 2
    assert answer["n"] == first["n"] + 1
    assert drafting_data(client_logged_in.get(url).content.decode()) == answer
    assert len(made) == 2


def test_a_commits_answer_does_not_read_what_it_alone_can_have_made(
    client_logged_in: Client, solo_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.cache import cache

    asked: list[str] = []
    real = cache.get

    def get(key: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(key)
        return real(key, *args, **kwargs)

    monkeypatch.setattr(cache, "get", get)
    player = rebuild.player_key(solo_game.seats.get())
    drafting_data(_commit(client_logged_in, solo_game, player))
    assert not [key for key in asked if key.startswith("drafting:")]
