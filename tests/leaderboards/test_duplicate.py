"""Duplicate scoring: each result's matchpoints against everyone on the same deal."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from time_machine import TimeMachineFixture

from accounts.models import User
from accounts.services import user_delete
from games.daily import daily_seed
from games.models import Game, SoloResult
from leaderboards import selectors, services
from leaderboards.duplicate import duplicate_of, percent_by_score
from leaderboards.models import Deal, DealScore
from moderation.services import game_hide, game_unhide, result_hide, result_unhide
from tests.factories import (
    GameFactory,
    UserFactory,
    finished_on_deal,
    moderators_group,
    solo_results,
)

pytestmark = pytest.mark.django_db


def tables() -> dict[tuple[int, int], int]:
    return {
        (row.deal.seed, row.score): row.count
        for row in DealScore.objects.select_related("deal").filter(count__gt=0)
    }


def test_a_score_earns_a_point_per_player_beaten_and_half_per_tie() -> None:
    figures = duplicate_of({30: 1, 40: 2, 50: 1}, 40)
    assert figures is not None
    assert figures.matchpoints == 1.5
    assert figures.percent == 50.0
    assert figures.gap == 10
    assert duplicate_of({40: 1}, 40) is None
    assert percent_by_score({30: 1, 40: 2, 50: 1}) == {30: 0.0, 40: 50.0, 50: 100.0}


def test_a_multiplayer_game_ranks_its_seats_on_their_deal() -> None:
    players = [UserFactory() for _ in range(3)]
    game = finished_on_deal(players, [50, 40, 40], seed=7)
    figures = selectors.game_duplicates(game)
    by_user = {seat.user_id: figures[seat.pk] for seat in game.seats.all()}
    assert by_user[players[0].pk].percent == 100.0
    assert by_user[players[1].pk].percent == 25.0
    assert by_user[players[1].pk].gap == 10
    # Another table dealt the same cards joins the comparison.
    finished_on_deal([UserFactory(), UserFactory()], [60, 45], seed=7)
    by_user = {seat.user_id: selectors.game_duplicates(game)[seat.pk] for seat in game.seats.all()}
    assert by_user[players[0].pk].percent == 75.0
    assert by_user[players[0].pk].gap == 10


def test_a_solo_game_on_a_fresh_seed_has_no_deal() -> None:
    user = UserFactory()
    solo_results(user, [40, 42])
    assert not Deal.objects.exists()
    assert selectors.duplicate_history(user) == []


def test_a_sealed_solo_game_on_a_registered_deal_is_compared_once_its_seal_lifts(
    time_machine: TimeMachineFixture,
) -> None:
    deal = services.deal_register(seed=99, ruleset="standard")
    finished_on_deal([UserFactory()], [40], seed=99, sealed=True)
    finished_on_deal([UserFactory()], [44], seed=99, sealed=True)
    finished_on_deal([UserFactory()], [50], seed=99)
    # Sealed: nobody may learn its score, so no table counts it yet.
    assert dict(deal.scores.values_list("score", "count")) == {}
    time_machine.move_to(timezone.now() + datetime.timedelta(days=1, seconds=1))
    assert services.results_unseal() == 2
    assert dict(deal.scores.values_list("score", "count")) == {40: 1, 44: 1}
    # Counted once, however often it is asked.
    assert services.results_unseal() == 0
    assert dict(deal.scores.values_list("score", "count")) == {40: 1, 44: 1}


def test_hiding_a_game_takes_its_results_off_the_deal_and_unhiding_puts_them_back(
    db: None,
) -> None:
    moderator = UserFactory(is_staff=True)
    moderator.groups.add(moderators_group())
    game = finished_on_deal([UserFactory(), UserFactory()], [50, 40], seed=5)
    finished_on_deal([UserFactory(), UserFactory()], [45, 30], seed=5)
    assert tables() == {(5, 50): 1, (5, 45): 1, (5, 40): 1, (5, 30): 1}
    game_hide(moderator=moderator, game=game, reason="cheating")
    assert tables() == {(5, 45): 1, (5, 30): 1}
    game_unhide(moderator=moderator, game=game)
    assert tables() == {(5, 50): 1, (5, 45): 1, (5, 40): 1, (5, 30): 1}


def test_a_deleted_account_leaves_the_deals_it_played() -> None:
    leaving, staying = UserFactory(), UserFactory()
    finished_on_deal([leaving, staying], [50, 40], seed=5)
    user_delete(user=leaving)
    assert tables() == {(5, 40): 1}
    assert services.duplicate_rebuild() == 1
    assert tables() == {(5, 40): 1}


def test_the_daily_board_shows_each_scores_percentage() -> None:
    day = timezone.now().date() - datetime.timedelta(days=1)
    for score in (40, 50, 60):
        finished_on_deal([UserFactory()], [score], seed=daily_seed(day), daily=day)
    page = Client().get(reverse("leaderboards:daily_day", args=[day.isoformat()]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "100%" in text and "50%" in text and "0%" in text


def test_the_profile_charts_recent_duplicate_percentages(client: Client) -> None:
    player = UserFactory()
    for seed in (1, 2, 3):
        finished_on_deal([player, UserFactory()], [50, 40 + seed * 5], seed=seed)
    page = client.get(reverse("accounts:profile", args=[player.username]))
    assert page.status_code == 200
    assert b'data-testid="duplicate-chart"' in page.content
    assert [point.figures.percent for point in selectors.duplicate_history(player)] == [
        100.0,
        50.0,
        0.0,
    ]


# The property: whatever happens in whatever order, the tables kept by differences equal
# those a rebuild counts afresh from the results.
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(
            st.just("multi"),
            st.lists(st.integers(0, 5), min_size=2, max_size=4, unique=True),
            st.lists(st.integers(20, 24), min_size=4, max_size=4),
            st.integers(1, 2),
        ),
        st.tuples(st.just("daily"), st.integers(0, 5), st.integers(20, 24)),
        st.tuples(st.just("hide"), st.integers(0, 20)),
        st.tuples(st.just("unhide"), st.integers(0, 20)),
        st.tuples(st.just("hide_result"), st.integers(0, 20)),
        st.tuples(st.just("delete"), st.integers(0, 5)),
    ),
    max_size=12,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(operations=OPERATIONS)
def test_the_incremental_tables_always_equal_a_rebuild(
    db: None, operations: list[tuple[object, ...]]
) -> None:
    moderator = UserFactory(is_staff=True)
    moderator.groups.add(moderators_group())
    players = [UserFactory() for _ in range(6)]
    day = timezone.now().date()
    played: list[Game] = []
    for operation in operations:
        kind, *args = operation
        if kind == "multi":
            who, scores, seed = args
            assert isinstance(who, list) and isinstance(scores, list) and isinstance(seed, int)
            users = [players[i] for i in who if not players[i].is_deleted]
            if len(users) >= 2:
                played.append(finished_on_deal(users, scores[: len(users)], seed=seed))
        elif kind == "daily":
            index, score = args
            assert isinstance(index, int) and isinstance(score, int)
            player = players[index]
            if not player.is_deleted and not Game.objects.filter(daily=day, created_by=player):
                played.append(finished_on_deal([player], [score], seed=daily_seed(day), daily=day))
        elif kind in ("hide", "unhide", "hide_result") and played:
            index = args[0]
            assert isinstance(index, int)
            game = played[index % len(played)]
            game.refresh_from_db()
            result = SoloResult.objects.filter(game=game).first()
            if kind == "hide" and not game.hidden:
                game_hide(moderator=moderator, game=game, reason="test")
            elif kind == "unhide" and game.hidden:
                game_unhide(moderator=moderator, game=game)
            elif kind == "hide_result" and result is not None:
                if result.hidden:
                    result_unhide(moderator=moderator, result=result)
                else:
                    result_hide(moderator=moderator, result=result, reason="test")
        elif kind == "delete":
            index = args[0]
            assert isinstance(index, int)
            player = players[index]
            if not player.is_deleted:
                user_delete(user=player)
                players[index] = User.objects.get(pk=player.pk)
    kept = tables()
    services.duplicate_rebuild()
    assert tables() == kept


def test_a_finished_games_page_part_shows_each_seats_matchpoints(client: Client) -> None:
    players = [UserFactory(), UserFactory()]
    game = finished_on_deal(players, [50, 40], seed=11)
    finished_on_deal([UserFactory(), UserFactory()], [45, 45], seed=11)
    url = reverse("leaderboards:game_duplicate", args=[game.pk])
    assert url in client.get(reverse("games:detail", args=[game.pk])).content.decode()
    part = client.get(url, HTTP_HX_REQUEST="true")
    text = part.content.decode()
    assert part.status_code == 200
    assert "<html" not in text
    assert "100%" in text and "0%" in text
    assert client.get(url).status_code == 200


def test_the_page_part_of_a_game_in_play_is_not_found(client: Client) -> None:
    game = GameFactory()
    assert client.get(reverse("leaderboards:game_duplicate", args=[game.pk])).status_code == 404
