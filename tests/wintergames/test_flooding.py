"""One person cannot flood Winter's lobby with open games, nor the computers' queue with
games against computers (floor.limits, as Limes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client, override_settings
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from core.errors import ActionRefused
from floor import limits
from tests.factories import DATABASE_QUEUE, UserFactory, winter_play_first
from wintergames import computer, services
from wintergames.models import WinterGame

pytestmark = pytest.mark.django_db

NEW = {"level": "easy", "pace": "live", "farmers": "on"}


def _open(user: User, *, players: int, computers: int = 0) -> WinterGame:
    return services.game_create(
        user=user, players=players, computers=computers, level="easy", farmers=True, pace="live"
    )


def test_a_person_has_at_most_a_few_games_waiting_for_players(client: Client, user: User) -> None:
    waiting = [_open(user, players=3) for _ in range(limits.MAX_OPEN_GAMES)]
    with pytest.raises(ActionRefused, match="waiting for players"):
        _open(user, players=2)
    # The form says why on its own page, and opens nothing.
    client.force_login(user)
    answer = client.post("/winter/new/", {"players": "4", "computers": "1", **NEW})
    assert answer.status_code == 409
    assert "start or cancel one first" in answer.text
    assert 'data-testid="winter-new"' in answer.text
    assert WinterGame.objects.filter(created_by=user).count() == limits.MAX_OPEN_GAMES
    # A game against computers alone waits for nobody: it is not refused for that.
    _open(user, players=2, computers=1)
    # Others may still open theirs, and a game cancelled frees a place.
    _open(UserFactory(), players=2)
    services.game_cancel(game_id=waiting[0].pk, user=user)
    _open(user, players=2)


def test_a_person_has_at_most_a_few_games_with_computers(
    user: User, monkeypatch: pytest.MonkeyPatch, committed: Callable[[], Any]
) -> None:
    # The computers' turns queued, played below one by one (as the worker would).
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(computer, "bots_play_enqueue", lambda *turn: queued.append(turn))
    with committed():
        games = [_open(user, players=4, computers=3) for _ in range(limits.MAX_COMPUTER_GAMES)]
    assert all(game.status == WinterGame.Status.RUNNING for game in games)
    with pytest.raises(ActionRefused, match="games with computer players"):
        _open(user, players=2, computers=1)
    # Nor by seating a computer in a game waiting for people.
    waiting = _open(user, players=3)
    with pytest.raises(ActionRefused, match="games with computer players"):
        services.seat_add_computer(game_id=waiting.pk, user=user, level="easy")
    assert not waiting.seats.filter(bot_level__gt="").exists()
    mine = WinterGame.objects.filter(created_by=user, seats__bot_level__gt="").distinct()
    assert mine.count() == limits.MAX_COMPUTER_GAMES
    # Games of other people are not counted: one another opened with a computer may be
    # joined. And a game played to its end frees a place.
    other = _open(UserFactory(), players=3, computers=1)
    services.game_join(game_id=other.pk, user=user)
    with committed():
        services.game_resign(game_id=games[0].pk, user=user)
    while queued:
        game_id, number = queued.pop()
        with committed():
            computer.bots_play(game_id=game_id, turn_number=number)
    games[0].refresh_from_db()
    assert games[0].is_finished
    _open(user, players=2, computers=1)


def test_a_game_a_person_resigned_from_is_not_a_game_with_chosen_computers(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(computer, "bots_play_enqueue", lambda *turn: None)
    people = [UserFactory() for _ in range(limits.MAX_COMPUTER_GAMES)]
    for person in people:
        game = _open(user, players=2)
        services.game_join(game_id=game.pk, user=person)
        # The computer plays the seat on, but nobody chose it.
        services.game_resign(game_id=game.pk, user=person)
    _open(user, players=2, computers=1)


def test_games_left_to_the_computers_by_everyone_count_as_games_with_computers(
    user: User,
) -> None:
    # Opened with a friend and left by both, a game is played by the computers to its end:
    # as many as that would be a flood of the computers' queue by a way round the cap.
    friend = UserFactory()
    still_played = _open(user, players=2)
    services.game_join(game_id=still_played.pk, user=friend)
    services.game_resign(game_id=still_played.pk, user=user)
    for _ in range(limits.MAX_COMPUTER_GAMES):
        game = _open(user, players=2)
        services.game_join(game_id=game.pk, user=friend)
        services.game_resign(game_id=game.pk, user=user)
        services.game_resign(game_id=game.pk, user=friend)
        game.refresh_from_db()
        assert game.status == WinterGame.Status.RUNNING  # the computers play on
    with pytest.raises(ActionRefused, match="games with computer players"):
        _open(user, players=2, computers=1)
    # The friend opened none of them: their own game with a computer is theirs to open.
    _open(friend, players=2, computers=1)


def test_another_persons_computer_waits_behind_one_turn_of_a_flood_at_most(
    user: User, committed: Callable[[], Any]
) -> None:
    flooder = UserFactory()
    with override_settings(TASKS=DATABASE_QUEUE):
        with committed():
            flood = [_open(flooder, players=2, computers=1) for _ in range(3)]
            mine = _open(user, players=2, computers=1)
        # Each person's first tile laid: each game's computer is to move. The flood's three
        # turns are queued first, then the other person's.
        for game in flood:
            with committed():
                winter_play_first(game.pk, flooder)
        with committed():
            winter_play_first(mine.pk, user)
    ready = DBTaskResult.objects.ready()
    # The queue's order: the flood's first, then the other person's, then the flood's rest.
    assert [result.args_kwargs["args"][0] for result in ready] == [
        flood[0].pk,
        mine.pk,
        flood[1].pk,
        flood[2].pk,
    ]
    assert {result.task_path for result in ready} == {computer.bots_play_task.module_path}
    assert [result.priority for result in ready][:2] == [computer.BOTS_PRIORITY] * 2
