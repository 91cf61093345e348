"""The solo and rating boards: order, rulesets, trust, own rank, pages, query counts."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from time_machine import TimeMachineFixture

from accounts.models import User
from games.models import Ruleset
from leaderboards.models import SoloStanding
from leaderboards.selectors import PAGE_SIZE
from tests.factories import (
    GameFactory,
    PlayerRatingFactory,
    SoloStandingFactory,
    UserFactory,
    WeeklyBestFactory,
    solo_results,
)
from tests.pages import board_names, board_url

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]

RULESETS = list(Ruleset)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_best_score_board_of_each_ruleset_ranks_each_players_best(
    client: Client, ruleset: Ruleset
) -> None:
    ana, ben, cy = (UserFactory(username=name) for name in ("ana", "ben", "cy"))
    solo_results(ana, [30, 44, 31], ruleset=ruleset)
    solo_results(ben, [50], ruleset=ruleset)
    solo_results(cy, [40], ruleset=ruleset)
    other = next(r for r in RULESETS if r != ruleset)
    solo_results(UserFactory(username="elsewhere"), [60], ruleset=other)

    assert board_names(client, board_url(ruleset, "best")) == ["ben", "ana", "cy"]
    page = client.get(board_url(ruleset, "best")).content.decode()
    best_game = SoloStanding.objects.get(user=ana, ruleset=ruleset).best_game_id
    assert reverse("games:replay", args=[best_game]) in page
    assert reverse("accounts:profile", args=["ana"]) in page


# The weekly board's edges (weeks start on Monday, 00:00 UTC), the turn of a year among them.
WEEK_EDGES = {
    "monday-00:30": datetime.datetime(2026, 6, 8, 0, 30, tzinfo=datetime.UTC),
    "sunday-23:30": datetime.datetime(2026, 6, 14, 23, 30, tzinfo=datetime.UTC),
    "new-year-monday-00:30": datetime.datetime(2029, 1, 1, 0, 30, tzinfo=datetime.UTC),
    "new-year-sunday-23:30": datetime.datetime(2028, 12, 31, 23, 30, tzinfo=datetime.UTC),
}


@pytest.fixture(params=[None, *WEEK_EDGES], ids=["wednesday", *WEEK_EDGES])
def week_edge(request: pytest.FixtureRequest, time_machine: TimeMachineFixture) -> None:
    """Runs the test on the suite's pinned Wednesday, then at each edge of a week."""
    if request.param is not None:
        time_machine.move_to(WEEK_EDGES[request.param], tick=True)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.usefixtures("week_edge")
def test_week_board_counts_only_games_since_monday(client: Client, ruleset: Ruleset) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    now = timezone.now()
    monday = (now - datetime.timedelta(days=now.weekday())).replace(hour=0, minute=0, second=1)
    solo_results(ana, [55], ruleset=ruleset, at=monday - datetime.timedelta(days=1))
    solo_results(ana, [33], ruleset=ruleset, at=monday)
    solo_results(ben, [40], ruleset=ruleset, at=monday)

    assert board_names(client, board_url(ruleset, "week")) == ["ben", "ana"]
    assert board_names(client, board_url(ruleset, "best")) == ["ana", "ben"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_average_board_needs_ten_games_and_averages_the_latest_ten(
    client: Client, ruleset: Ruleset
) -> None:
    ana, ben, cy = (UserFactory(username=name) for name in ("ana", "ben", "cy"))
    # ana's first game (a poor one) falls out of her latest ten.
    solo_results(ana, [10] + [40] * 10, ruleset=ruleset)
    solo_results(ben, [39] * 10, ruleset=ruleset)
    solo_results(cy, [60] * 9, ruleset=ruleset)

    response = client.get(board_url(ruleset, "average"))
    assert [(r.username, r.value) for r in response.context["board"].rows] == [
        ("ana", 40.0),
        ("ben", 39.0),
    ]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rating_board_of_each_ruleset(client: Client, ruleset: Ruleset) -> None:
    PlayerRatingFactory(user__username="ana", ruleset=ruleset, mu=30)
    PlayerRatingFactory(user__username="ben", ruleset=ruleset, mu=35)
    PlayerRatingFactory(user__username="cy", ruleset=next(r for r in RULESETS if r != ruleset))
    assert board_names(client, board_url(ruleset, "rating")) == ["ben", "ana"]


def test_equal_scores_rank_the_earlier_achievement_first_then_the_older_row(
    client: Client,
) -> None:
    early, late, same = UserFactory(username="early"), UserFactory(username="late"), None
    at = timezone.now() - datetime.timedelta(hours=1)
    solo_results(late, [42], at=at + datetime.timedelta(minutes=5))
    solo_results(early, [42], at=at)
    same = UserFactory(username="same-time")
    solo_results(same, [42], at=at)  # same score, same moment as "early", newer row
    solo_results(UserFactory(username="top"), [43], at=at + datetime.timedelta(hours=1))

    assert board_names(client, board_url("standard", "best")) == [
        "top",
        "early",
        "same-time",
        "late",
    ]


def test_equal_ratings_rank_the_earlier_achievement_first(client: Client) -> None:
    now = timezone.now()
    PlayerRatingFactory(user__username="later", last_game_at=now - datetime.timedelta(days=1))
    PlayerRatingFactory(user__username="sooner", last_game_at=now - datetime.timedelta(days=2))
    assert board_names(client, board_url("standard", "rating")) == ["sooner", "later"]


def test_hidden_results_never_reach_a_board(client: Client) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    solo_results(ana, [35])
    solo_results(ana, [59], hidden=True)
    solo_results(ben, [58], hidden=True)

    page = client.get(board_url("standard", "best"))
    assert [(r.username, r.value) for r in page.context["board"].rows] == [("ana", 35)]
    assert board_names(client, board_url("standard", "week")) == ["ana"]


def test_banned_players_are_off_every_board_until_the_ban_ends(client: Client) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    solo_results(ana, [40] * 10)
    solo_results(ben, [30] * 10)
    PlayerRatingFactory(user=ana)
    PlayerRatingFactory(user=ben)
    ana.banned_until = timezone.now() + datetime.timedelta(days=3)
    ana.save()

    for kind in ("best", "week", "average", "rating"):
        assert board_names(client, board_url("standard", kind)) == ["ben"], kind

    ana.banned_until = timezone.now() - datetime.timedelta(minutes=1)
    ana.save()
    assert board_names(client, board_url("standard", "best")) == ["ana", "ben"]


def test_deleted_accounts_are_off_the_boards(client: Client) -> None:
    from accounts.services import user_delete

    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    solo_results(ana, [40])
    solo_results(ben, [30])
    user_delete(user=ana)
    assert board_names(client, board_url("standard", "best")) == ["ben"]


def make_ranked(count: int, *, ruleset: str = "standard") -> list[User]:
    """``count`` players with best scores 100, 99, … (created directly: only order matters)."""
    users = UserFactory.create_batch(count)
    for i, user in enumerate(users):
        SoloStandingFactory(user=user, ruleset=ruleset, best_score=100 - i)
    return users


def test_boards_are_paginated_fifty_a_page(client: Client) -> None:
    users = make_ranked(PAGE_SIZE + 3)
    first = client.get(board_url("standard", "best"))
    assert len(first.context["board"].rows) == PAGE_SIZE
    assert 'rel="next"' in first.content.decode()
    second = client.get(board_url("standard", "best", page=2))
    rows = second.context["board"].rows
    assert [(r.rank, r.username) for r in rows] == [
        (PAGE_SIZE + i + 1, users[PAGE_SIZE + i].username) for i in range(3)
    ]
    assert 'rel="prev"' in second.content.decode()
    assert 'rel="next"' not in second.content.decode()


def test_htmx_page_request_gets_just_the_table(client: Client) -> None:
    make_ranked(PAGE_SIZE + 1)
    response = client.get(board_url("standard", "best", page=2), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="board-table"')
    assert "<html" not in body


def test_a_signed_in_player_sees_their_rank_outside_the_top_fifty(client: Client) -> None:
    users = make_ranked(PAGE_SIZE + 10)
    me = users[PAGE_SIZE + 6]  # 57th
    client.force_login(me)
    response = client.get(board_url("standard", "best"))
    assert response.context["board"].own.rank == PAGE_SIZE + 7
    own = response.content.decode()
    assert 'data-testid="own-rank"' in own
    assert "<strong>57</strong>" in own


def test_own_rank_line_is_not_repeated_when_the_player_is_on_the_page(client: Client) -> None:
    users = make_ranked(5)
    client.force_login(users[2])
    page = client.get(board_url("standard", "best")).content.decode()
    assert 'data-testid="own-rank"' not in page
    assert "board-table__own" in page


def test_own_rank_counts_only_visible_players(client: Client) -> None:
    users = make_ranked(60)
    users[0].banned_until = timezone.now() + datetime.timedelta(days=1)
    users[0].save()
    client.force_login(users[55])
    assert client.get(board_url("standard", "best")).context["board"].own.rank == 55


def test_unknown_ruleset_or_board_is_not_found(client: Client) -> None:
    assert client.get(board_url("chess", "best")).status_code == 404
    assert client.get(board_url("standard", "fastest")).status_code == 404


def test_leaderboards_start_at_the_standard_best_scores(client: Client) -> None:
    response = client.get(reverse("leaderboards:index"))
    assert response.status_code == 302
    assert response["Location"] == board_url("standard", "best")


def fill_boards(players: int) -> User:
    """``players`` players on every standard board; returns one of them to sign in with.

    The board rows are made directly: the query count concerns reading them.
    """
    users = UserFactory.create_batch(players)
    game = GameFactory(status="finished", round=17)
    # Now, not an hour ago: an hour before Monday 00:30 is last week, off the weekly board.
    at = timezone.now()
    for user in users:
        SoloStandingFactory(
            user=user, games=10, best_game=game, best_at=at, recent_average=35.5, recent_at=at
        )
        WeeklyBestFactory(user=user, game=game, achieved_at=at)
    for user in users:
        PlayerRatingFactory(user=user)
    return users[-1]


@pytest.mark.parametrize("kind", ["best", "week", "average", "rating"])
@pytest.mark.usefixtures("week_edge")
def test_each_board_costs_the_same_queries_with_3_or_30_rows(client: Client, kind: str) -> None:
    def queries_for(viewer: User) -> int:
        client.force_login(viewer)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(board_url("standard", kind))
        assert response.status_code == 200
        return len(captured)

    few = queries_for(fill_boards(3))
    assert len(client.get(board_url("standard", kind)).context["board"].rows) == 3
    many = queries_for(fill_boards(27))
    assert len(client.get(board_url("standard", kind)).context["board"].rows) == 30
    assert few == many


def test_row_links_reach_the_players_profile_whatever_their_name(client: Client) -> None:
    odd = UserFactory(username="ana.b+c@d-e_f")
    solo_results(odd, [40])
    page = client.get(board_url("standard", "best")).content.decode()
    profile = reverse("accounts:profile", args=[odd.username])
    assert f'href="{profile}"' in page
    assert client.get(profile).status_code == 200
