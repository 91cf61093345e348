"""The board carries every outcome of its draft, so the page drafts without asking: the
same outcomes the server draws, the round's card and no other."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

import rules
from games import rebuild
from games.models import Game
from tests.pages import HTMX

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


def test_the_drafting_data_is_made_once_a_game_version(
    client_logged_in: Client, solo_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import boardview

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
