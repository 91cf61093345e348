"""The game page draws its drafting board in Python (``games.boardhtml.game_drafting_html``):
every commit's answer draws it. It must be what ``games/_drafting.html`` draws with the
game's arguments, byte for byte, whatever the draft, the language and the hint button."""

from __future__ import annotations

import difflib
from typing import Any

import pytest
from django.http import QueryDict
from django.template import engines
from django.urls import reverse
from django.utils import translation

import rules
from accounts.models import User
from games import rebuild, selectors, services
from games.boardview import game_page
from games.models import Game

pytestmark = pytest.mark.django_db

# What games/game.html drew before: the template with the game's arguments.
TEMPLATE = engines["django"].from_string(
    "{% load i18n %}{% url 'games:play' game.pk as commit_url %}"
    '{% translate "Optionally click a zone of the new card to place a worker, or a worker to '
    'move it. Then commit." as hint_text %}'
    '{% include "games/_drafting.html" with commit_url=commit_url hint_text=hint_text '
    "round_number=state.round game_board=True owner=seat.display_name %}"
)
PYTHON = engines["django"].from_string("{% load boards %}{% game_drafting %}")


def _point(point: rules.Point) -> str:
    return f"{point[0]},{point[1]}"


def _drafts(state: rules.Game, player: str) -> list[dict[str, str]]:
    """Drafts of every kind: none, turned, placed, a worker placed, a move begun and
    chosen, and ones the board refuses."""
    board, card = state.boards[player], state.current_card
    assert card is not None
    placement = board.legal_placements(state.variants)[-1]
    at = {"at": _point(placement.card_at), "rot": str(placement.rotation)}
    drafts = [{}, {"rot": "90"}, {"rot": "270"}, at, {"at": "9,9"}]
    placed = board.place(card, placement, state.variants)
    for action in placed.legal_worker_actions(state.variants):
        if isinstance(action, rules.PlaceWorker):
            drafts.append({**at, "place": _point(action.zone)})
            break
    for action in placed.legal_worker_actions(state.variants):
        if isinstance(action, rules.MoveWorker):
            drafts.append({**at, "from": _point(action.source)})
            drafts.append({**at, "from": _point(action.source), "to": _point(action.target)})
            break
    drafts.append({**at, "place": "99,99"})
    return drafts


def _context(game: Game, user: User, params: dict[str, str]) -> dict[str, Any]:
    loaded = selectors.game_with_seats(game.pk)
    assert loaded is not None
    state = rebuild.rules_game(loaded, list(loaded.seats.all()))
    seat = next(s for s in loaded.seats.all() if s.user_id == user.pk)
    query = QueryDict(mutable=True)
    query.update(params)
    context = game_page(loaded, state, seat, draft_params=query, with_table=False)
    context["base_url"] = reverse("games:detail", kwargs={"pk": loaded.pk})
    context["csrf_token"] = "a<token>&"
    return context


def _diff(expected: str, drawn: str, params: dict[str, str]) -> str:
    lines = difflib.unified_diff(expected.splitlines(True), drawn.splitlines(True), n=1)
    return f"{params}:\n" + "".join(repr(line) + "\n" for line in lines)


@pytest.mark.parametrize("language", ["en", "cs", "de", "fr"])
def test_the_game_drafting_board_is_the_templates(user: User, language: str) -> None:
    game = services.game_create_solo(user=user, diagonal=True, ferryman=True, seed=52)
    compared, phases = 0, set()
    with translation.override(language):
        for _ in range(6):
            game.refresh_from_db()
            state = rebuild.rules_game(game)
            player = rebuild.player_key(game.seats.get())
            for params in _drafts(state, player):
                context = _context(game, user, params)
                assert "round" in context
                draft = context["round"].draft
                phases.add((context["round"].phase, bool(draft.move_from), bool(draft.move_to)))
                for hint_allowed in (True, False):
                    context["hint_allowed"] = hint_allowed
                    expected = TEMPLATE.render(dict(context))
                    drawn = PYTHON.render(dict(context))
                    assert drawn == expected, _diff(expected, drawn, params)
                    compared += 1
            card = state.current_card
            assert card is not None
            turn = rules.reference_turn(state.boards[player], card, state.variants)
            services.move_submit(game_id=game.pk, user=user, round_number=state.round, turn=turn)
    assert compared > 60
    # Each branch of the hint and the commit button: no slot yet, a worker step, a move
    # begun and a move chosen.
    assert {("position", False, False), ("worker", True, False), ("worker", True, True)} <= phases
