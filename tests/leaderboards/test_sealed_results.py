"""A tournament's sealed deal is on no public page (front page, boards, profile, duplicate
pages, the API's lists and boards) until its seal lifts, and counted everywhere after."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.services import game_create_solo, seat_resign
from leaderboards import services
from leaderboards.daily import week_start
from leaderboards.models import DealScore, PlayerResult, PlayerTotals, SoloStanding, WeeklyBest
from tests.factories import UserFactory, finished_on_deal, solo_results
from tournaments import services as tournament_services
from tournaments import tasks
from tournaments.models import Tournament

if TYPE_CHECKING:
    from tests.conftest import Race

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


def cup() -> Tournament:
    now = timezone.now()
    return tournament_services.tournament_create(
        name="Summer cup",
        ruleset="standard",
        deal_count=1,
        starts_at=now - HOUR,
        ends_at=now + 24 * HOUR,
    )


def played(
    tournament: Tournament, user: User, rounds: int, play_rounds: Callable[[Game, int], Game]
) -> Game:
    """``user`` enters and plays the deal (``rounds`` rounds, then gives up)."""
    tournament_services.tournament_join(tournament=tournament, user=user)
    game = tournament_services.deal_play(tournament=tournament, user=user, number=1)
    game = play_rounds(game, rounds)
    if not game.is_finished:
        game = seat_resign(game=game, user=user)
    assert game.is_finished
    return game


def api(client: Client, name: str, *args: object) -> Any:
    response = client.get(reverse(f"api-v1:{name}", args=args))
    assert response.status_code == 200
    return response.json()


def public_traces(client: Client, player: User, game: Game) -> dict[str, bool]:
    """Where a visitor finds ``player``'s result of ``game``, page by page."""
    client.logout()
    front = client.get(reverse("games:home")).content.decode()
    boards = {
        kind: client.get(reverse("leaderboards:board", args=["standard", kind])).content.decode()
        for kind in ("best", "week")
    }
    profile = client.get(reverse("accounts:profile", args=[player.username]))
    stats = profile.context["stats"]
    api_profile = api(client, "player", player.username)["statistics"]
    return {
        "front page": 'data-testid="showcase"' in front,
        **{f"{kind} board": player.username in page for kind, page in boards.items()},
        **{
            f"api {kind} board": any(
                row["player"] == player.username
                for row in api(client, "leaderboard", "standard", kind)["rows"]
            )
            for kind in ("best", "week")
        },
        "profile score": stats.best_solo is not None or stats.games_finished > 0,
        "profile recent games": any(entry.game_id == game.pk for entry in stats.history),
        "profile bands": any(count for _band, count in stats.bands),
        "profile charts": bool(profile.context["solo_rulesets"]),
        "api profile": api_profile["best_solo"] is not None or api_profile["games_finished"] > 0,
        "api games": any(row["id"] == game.pk for row in api(client, "games")["games"]),
        "api player's games": any(
            row["id"] == game.pk for row in api(client, "player_games", player.username)["games"]
        ),
    }


def test_a_finished_sealed_deal_shows_nowhere_public_until_the_tournament_ends(
    play_rounds: Callable[[Game, int], Game],
) -> None:
    tournament = cup()
    ana = UserFactory()
    game = played(tournament, ana, 16, play_rounds)
    client = Client()
    # Another player looks everywhere a finished solo game shows: nothing of ana's deal.
    client.force_login(UserFactory())
    traces = public_traces(client, ana, game)
    assert not any(traces.values()), traces
    unsealed_at = tournament.ends_at + HOUR
    with time_machine.travel(unsealed_at, tick=False):
        tasks.tournament_unseal.enqueue(tournament.pk)
        # The seal lifted: the deal is one more finished game, on every page.
        traces = public_traces(client, ana, game)
    # The week's boards are this week's: a deal played in a week now gone is on neither.
    assert game.finished_at is not None
    this_week = week_start(game.finished_at) == week_start(unsealed_at)
    expected = {page: True for page in traces} | {
        "week board": this_week,
        "api week board": this_week,
    }
    assert traces == expected


def test_the_duplicate_page_compares_a_sealed_deal_with_nobody_until_the_seal_lifts(
    play_rounds: Callable[[Game, int], Game],
) -> None:
    tournament = cup()
    ana, ben = UserFactory(), UserFactory()
    mine = played(tournament, ana, 16, play_rounds)
    played(tournament, ben, 4, play_rounds)
    client = Client()
    client.force_login(ana)
    url = reverse("leaderboards:game_duplicate", args=[mine.pk])
    # ana's own page would give her percentage against ben, and so ben's score.
    assert client.get(url).context["rows"] == []
    assert not DealScore.objects.exists()
    with time_machine.travel(tournament.ends_at, tick=False):
        tasks.tournament_unseal.enqueue(tournament.pk)
        rows = client.get(url).context["rows"]
    assert [figures.percent for _seat, figures in rows] == [100.0]


def test_another_players_sealed_score_moves_no_rank_on_a_final_page(
    play_rounds: Callable[[Game, int], Game], client: Client
) -> None:
    tournament = cup()
    played(tournament, UserFactory(), 16, play_rounds)
    ben = UserFactory()
    game = play_rounds(game_create_solo(user=ben, seed=tournament.deals.get().deal.seed), 4)
    game = seat_resign(game=game, user=ben)
    client.force_login(ben)
    # Second would tell ben that the sealed score beats his.
    assert client.get(reverse("games:detail", args=[game.pk])).context["standing"]["rank"] == 1


def rows_of_the_boards(user: User) -> dict[str, Any]:
    return {
        "results": sorted(
            PlayerResult.objects.filter(user=user).values_list("game_id", "hidden", "deal_id")
        ),
        "totals": sorted(
            PlayerTotals.objects.filter(user=user).values_list("mode", "games", "score_sum", "best")
        ),
        "standing": list(
            SoloStanding.objects.filter(user=user).values_list("games", "best_score", "best_game")
        ),
        "weekly": list(WeeklyBest.objects.filter(user=user).values_list("week", "score", "game")),
        "deals": sorted(DealScore.objects.values_list("deal_id", "score", "count")),
    }


def test_rebuilding_the_statistics_agrees_with_the_seal_before_and_after_it_lifts(
    play_rounds: Callable[[Game, int], Game],
) -> None:
    tournament = cup()
    ana, ben = UserFactory(), UserFactory()
    sealed_game = played(tournament, ana, 16, play_rounds)
    played(tournament, ben, 4, play_rounds)
    # Then the same score again outside the tournament, a second later.
    score = sealed_game.seats.get().score
    assert score is not None
    (again,) = solo_results(ana, [score], at=timezone.now() + datetime.timedelta(seconds=1))
    sealed = rows_of_the_boards(ana)
    assert sealed["standing"] == [(1, score, again.game_id)]
    assert sealed["deals"] == []
    services.player_stats_rebuild(user=ana)
    services.duplicate_rebuild()
    assert rows_of_the_boards(ana) == sealed
    with time_machine.travel(tournament.ends_at, tick=False):
        tasks.tournament_unseal.enqueue(tournament.pk)
        counted = rows_of_the_boards(ana)
        # Equal scores: the best is the earlier achievement, the tournament's game.
        assert counted["standing"][0][0] == 2
        assert counted["standing"][0][2] == sealed_game.pk
        assert counted["weekly"][0][2] == sealed_game.pk
        assert len(counted["deals"]) == 2
        services.player_stats_rebuild(user=ana)
        services.player_stats_rebuild(user=ben)
        services.duplicate_rebuild()
        assert rows_of_the_boards(ana) == counted
        # Asked again (the daily catch-up), nothing is counted twice.
        assert tournament_services.tournaments_unseal_due() == 0
        assert rows_of_the_boards(ana) == counted


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_unseals_at_once_count_a_result_once(race: Race) -> None:
    if connection.vendor != "postgresql":
        pytest.fail("row locks are tested on PostgreSQL: set DATABASE_URL")
    services.deal_register(seed=31, ruleset="standard")
    ana = UserFactory()
    finished_on_deal([ana], [47], seed=31, sealed=True)
    with time_machine.travel(timezone.now() + 25 * HOUR, tick=False):
        counted = race(services.results_unseal, services.results_unseal)
    assert sorted(counted) == [0, 1]
    assert list(DealScore.objects.values_list("score", "count")) == [(47, 1)]
    assert SoloStanding.objects.get(user=ana).games == 1
    assert PlayerTotals.objects.get(user=ana).games == 1
