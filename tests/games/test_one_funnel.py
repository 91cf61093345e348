"""One funnel for every change of a game: only games/ writes a Game row, and each change
moves the game's version on and tells its pages (issue 40)."""

from __future__ import annotations

import ast
import datetime
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from core.errors import ActionRefused
from floor import push
from games import services
from games.models import Game
from games.pollstate import poll_state

ROOT = Path(__file__).resolve().parents[2]
#: Every app but games, and the site package: none of them may write a Game row.
OTHERS = [
    "accounts",
    "api",
    "core",
    "learn",
    "leaderboards",
    "limes_site",
    "moderation",
    "puzzles",
    "social",
    "tournaments",
]
#: What writes rows when called on ``Game.objects`` or one of its querysets.
WRITES = {
    "update",
    "delete",
    "create",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
}
#: The names a game goes by in this code base (``game``, ``play.game``, ``shown_game``…).
GAME_NAMES = ("game",)


def _chain_root(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Call | ast.Attribute | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node


def _names_game(node: ast.expr) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name.lower().endswith(GAME_NAMES)


def game_writes(source: str) -> list[int]:
    """The lines of ``source`` that write a Game row: a write called on a chain starting at
    ``Game`` (``Game.objects.filter(…).update(…)``), ``save()``/``delete()`` of a name
    that is a game's (``game.save(…)``), or a ``Game(…)`` made by hand."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "Game":
            found.append(node.lineno)
        if not isinstance(func, ast.Attribute):
            continue
        root = _chain_root(func.value)
        on_game_rows = func.attr in WRITES and isinstance(root, ast.Name) and root.id == "Game"
        on_a_game = func.attr in {"save", "delete"} and _names_game(func.value)
        if on_game_rows or on_a_game:
            found.append(node.lineno)
    return sorted(found)


def test_the_scan_finds_the_writes_it_is_for() -> None:
    # The three writes this test was written against, as they stood before issue 40.
    before = """
game = Game.objects.select_for_update().get(pk=game.pk)
game.hidden = True
game.save(update_fields=["hidden", "hidden_reason", "updated_at"])
Game.objects.filter(pk__in=game_ids).update(hidden=True, hidden_reason=reason)
Game.objects.filter(pk__in=plays).update(sealed_until=now)
play.game.delete()
Game(pk=1).save()
"""
    assert game_writes(before) == [4, 5, 6, 7, 8]
    reads = """
Game.objects.filter(pk=1).exists()
Game.objects.select_for_update().get(pk=1)
games = Game.objects.filter(hidden=False).values_list("pk", flat=True)
tournament.save()
"""
    assert game_writes(reads) == []


def test_no_app_but_games_writes_a_game() -> None:
    writes = {}
    for app in OTHERS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            lines = game_writes(path.read_text())
            if lines:
                writes[str(path.relative_to(ROOT))] = lines
    assert writes == {}, "write a game through a games.services function instead"


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, dict[str, Any]]]:
    sent: list[tuple[str, str, dict[str, Any]]] = []
    monkeypatch.setattr(
        push, "publish", lambda channel, event, data: sent.append((channel, event, dict(data)))
    )
    return sent


@pytest.mark.django_db
def test_hiding_a_game_moves_its_version_on_and_tells_its_pages(
    solo_game: Game, published: list[tuple[str, str, dict[str, Any]]]
) -> None:
    before = solo_game.version
    hidden = services.game_hidden_set(game_id=solo_game.pk, hidden=True, reason="Shared deal")
    assert (hidden.hidden, hidden.version) == (True, before + 1)
    assert poll_state(solo_game.pk) == (before + 1, hidden.deadline)
    assert published[-1] == (
        push.game_channel(solo_game.pk),
        push.Event.GAME,
        {
            "version": before + 1,
            "deadline": None,
        },
    )
    with pytest.raises(ActionRefused, match="already hidden"):
        services.game_hidden_set(game_id=solo_game.pk, hidden=True, reason="Again")


@pytest.mark.django_db
def test_games_changed_together_each_move_on_and_tell_their_pages(
    user: User, published: list[tuple[str, str, dict[str, Any]]]
) -> None:
    games = [services.game_create_solo(user=user, seed=seed) for seed in (1, 2)]
    versions = {game.pk: game.version for game in games}
    published.clear()
    ids = list(versions)
    services.games_hide(game_ids=ids, reason="Disqualified")
    end = timezone.now() - datetime.timedelta(minutes=1)
    services.games_unseal(
        game_ids=Game.objects.filter(pk__in=ids).values_list("pk", flat=True), at=end
    )
    after = {game.pk: game for game in Game.objects.filter(pk__in=ids)}
    for pk, version in versions.items():
        assert (after[pk].hidden, after[pk].sealed_until) == (True, end)
        assert after[pk].version == version + 2
        assert poll_state(pk) == (version + 2, after[pk].deadline)
    told = [
        (channel, data["version"]) for channel, event, data in published if event == push.Event.GAME
    ]
    assert sorted(told) == sorted(
        (push.game_channel(pk), version + step)
        for pk, version in versions.items()
        for step in (1, 2)
    )
