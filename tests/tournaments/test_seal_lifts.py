"""A tournament's results join the boards when its seal lifts: a live one's with its last
card, an asynchronous one's when its window closes (or the daily catch-up after)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.services import seat_resign
from leaderboards.models import DealScore, PlayerTotals, SoloStanding, WeeklyBest
from tests.factories import UserFactory, play_turn
from tournaments import services
from tournaments.models import Play, Tournament

pytestmark = pytest.mark.django_db


def game_of(tournament: Tournament, user: User) -> Game:
    return Play.objects.get(tournament=tournament, entrant__user=user).game


def on_the_boards(user: User) -> bool:
    return (
        SoloStanding.objects.filter(user=user).exists()
        or WeeklyBest.objects.filter(user=user).exists()
        or PlayerTotals.objects.filter(user=user).exists()
    )


def test_a_live_tournaments_results_join_the_boards_with_its_last_card(
    committed: Callable[[], Any],
) -> None:
    tournament = services.tournament_create(
        name="Live night",
        ruleset="standard",
        deal_count=1,
        starts_at=timezone.now() + datetime.timedelta(minutes=1),
        format=Tournament.Format.LIVE,
        round_seconds=30,
    )
    ana, ben = UserFactory(), UserFactory()
    for player in (ana, ben):
        services.tournament_join(tournament=tournament, user=player)
    with time_machine.travel(tournament.starts_at + datetime.timedelta(seconds=1), tick=True):
        with committed():
            assert services.live_advance(tournament=tournament)
        for _round in range(8):
            with committed():
                play_turn(game_of(tournament, ana), ana)
                play_turn(game_of(tournament, ben), ben)
        with committed():
            seat_resign(game=game_of(tournament, ana), user=ana)
        # ana is done; ben still plays the deal: her score is nobody's to see yet.
        assert game_of(tournament, ana).is_finished
        assert not on_the_boards(ana)
        assert not DealScore.objects.exists()
        for _round in range(8):
            with committed():
                play_turn(game_of(tournament, ben), ben)
        tournament.refresh_from_db()
        assert tournament.is_over
        assert on_the_boards(ana) and on_the_boards(ben)
        assert sum(DealScore.objects.values_list("count", flat=True)) == 2


def test_the_daily_scheduler_counts_an_ended_tournament_whose_task_never_ran(
    play_rounds: Callable[[Game, int], Game],
) -> None:
    now = timezone.now()
    tournament = services.tournament_create(
        name="Weekday cup",
        ruleset="standard",
        deal_count=1,
        starts_at=now - datetime.timedelta(hours=1),
        ends_at=now + datetime.timedelta(hours=2),
    )
    ana = UserFactory()
    services.tournament_join(tournament=tournament, user=ana)
    play_rounds(services.deal_play(tournament=tournament, user=ana, number=1), 16)
    call_command("schedule_tournaments", stdout=StringIO())
    assert not on_the_boards(ana)
    with time_machine.travel(tournament.ends_at, tick=False):
        out = StringIO()
        call_command("schedule_tournaments", stdout=out)
    assert "Counted 1 results" in out.getvalue()
    assert SoloStanding.objects.get(user=ana).games == 1
