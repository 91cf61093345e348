"""The boards' tables follow each finished game, and rebuild after moderation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import rules
from accounts.models import User
from games import services as game_services
from games.models import Game, SoloResult
from leaderboards.models import PlayerResult, PlayerTotals, SoloStanding, WeeklyBest
from leaderboards.services import player_stats_rebuild
from tests.factories import final_score, solo_results
from tests.pages import board_names, board_url

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]


def test_a_finished_solo_game_reaches_the_boards_in_its_own_transaction(
    client: Client, user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(game_services.game_create_solo(user=user, diagonal=True, seed=11), 16)
    score = game.seats.get().score
    result = PlayerResult.objects.get(game=game)
    # The points per profession come from the server's replay of the stored moves.
    points = [getattr(result, p.value) for p in rules.Profession]
    assert sum(points) == score == result.score
    standing = SoloStanding.objects.get(user=user, ruleset="diagonal")
    assert (standing.best_score, standing.best_game_id, standing.games) == (score, game.pk, 1)
    assert WeeklyBest.objects.get(user=user, ruleset="diagonal").score == score
    assert board_names(client, board_url("diagonal", "best")) == [user.username]
    assert board_names(client, board_url("standard", "best")) == []


def test_a_better_game_later_in_the_week_replaces_the_weekly_best(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    first = play_rounds(game_services.game_create_solo(user=user, seed=1), 16)
    second = play_rounds(game_services.game_create_solo(user=user, seed=2), 16)
    scores = {g.pk: final_score(g.seats.get()) for g in (first, second)}
    best = WeeklyBest.objects.get(user=user)
    assert best.score == max(scores.values())
    # Equal scores keep the earlier game.
    assert best.game_id == (first.pk if scores[first.pk] >= scores[second.pk] else second.pk)


def test_hiding_then_unhiding_a_result_moves_the_board_after_a_rebuild(
    client: Client, user: User
) -> None:
    seats = solo_results(user, [30, 50])
    SoloResult.objects.filter(game=seats[1].game).update(hidden=True)
    player_stats_rebuild(user=user)
    standing = SoloStanding.objects.get(user=user)
    assert (standing.best_score, standing.games) == (30, 1)
    assert WeeklyBest.objects.get(user=user).score == 30

    SoloResult.objects.filter(game=seats[1].game).update(hidden=False)
    player_stats_rebuild(user=user)
    assert SoloStanding.objects.get(user=user).best_score == 50


def test_hiding_every_result_takes_the_player_off_the_board(client: Client, user: User) -> None:
    seats = solo_results(user, [30])
    Game.objects.filter(pk=seats[0].game_id).update(hidden=True)
    player_stats_rebuild(user=user)
    assert not SoloStanding.objects.filter(user=user).exists()
    assert board_names(client, board_url("standard", "best")) == []


def test_rebuild_fills_in_results_of_games_finished_before_the_boards(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(game_services.game_create_solo(user=user, seed=4), 16)
    PlayerResult.objects.all().delete()
    SoloStanding.objects.all().delete()
    call_command("rebuild_player_stats", verbosity=0)
    assert PlayerResult.objects.get(game=game).score == game.seats.get().score
    assert SoloStanding.objects.get(user=user).best_game_id == game.pk


def test_recording_a_result_costs_a_few_queries_whatever_the_history(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    solo_results(user, [40] * 30)  # a history, and rows that already exist
    game = play_rounds(game_services.game_create_solo(user=user, seed=9), 15)
    with CaptureQueriesContext(connection) as captured:
        game = play_rounds(game, 1)
    assert game.is_finished
    ours = [q["sql"] for q in captured.captured_queries if "leaderboards_" in q["sql"]]
    # The result, the totals, the standing (its row and lock, then its figures), the week's best.
    assert len(ours) == 5, ours


def _board_rows(user: User) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    standing = SoloStanding.objects.filter(user=user).values(
        "ruleset", "games", "best_score", "best_game_id", "best_at", "recent_average", "recent_at"
    )
    totals = PlayerTotals.objects.filter(user=user).order_by("mode", "ruleset").values()
    return [dict(row) for row in standing], [
        {k: v for k, v in row.items() if k != "id"} for row in totals
    ]


def test_the_rows_a_finish_writes_equal_a_rebuild_of_them(
    user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    solo_results(user, [30, 45, 38, 45, 29, 41, 33, 36, 40, 31, 44, 35])
    # No standing yet, though results exist (finished before the boards): all are counted.
    SoloStanding.objects.all().delete()
    play_rounds(game_services.game_create_solo(user=user, seed=21), 16)
    live = _board_rows(user)
    player_stats_rebuild(user=user)
    assert live == _board_rows(user)
    assert live[0][0]["games"] == 13
    # The common case: one more result on the rows that exist.
    for seed in (22, 23):
        play_rounds(game_services.game_create_solo(user=user, seed=seed), 16)
        live = _board_rows(user)
        player_stats_rebuild(user=user)
        assert live == _board_rows(user)
    assert live[0][0]["games"] == 15
    assert live[0][0]["recent_average"] is not None
