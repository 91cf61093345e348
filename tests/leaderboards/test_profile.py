from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import user_delete
from games import services
from games.models import Game
from tests.factories import PlayerRatingFactory, UserFactory, finished_multi, solo_results

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]


def profile_url(user: User) -> str:
    return reverse("accounts:profile", kwargs={"username": user.username})


def test_a_profile_shows_games_played_and_the_best_solo_score(
    client: Client, user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    finished = play_rounds(services.game_create_solo(user=user, seed=5), 16)
    services.game_create_solo(user=user, seed=6)
    page = client.get(profile_url(user)).content.decode()
    assert user.username in page
    assert 'data-testid="games-played">2<' in page
    assert f'data-testid="best-solo">{finished.seats.get().score}<' in page


def test_hidden_results_do_not_count_as_the_best(client: Client, user: User) -> None:
    solo_results(user, [30])
    solo_results(user, [55], hidden=True)
    page = client.get(profile_url(user)).content.decode()
    assert 'data-testid="best-solo">30<' in page


def test_a_deleted_account_has_no_profile(client: Client) -> None:
    player = UserFactory()
    user_delete(user=player)
    assert client.get(profile_url(player)).status_code == 404


def test_statistics_per_mode_and_ruleset_with_best_average_and_standing(
    client: Client, user: User
) -> None:
    an_hour_ago = timezone.now() - datetime.timedelta(hours=1)
    solo_results(user, [44], ruleset="ferryman", at=an_hour_ago)
    solo_results(user, [20, 30, 40, 50, 45, 36, 36, 36, 36, 36, 36])  # latest ten: mean 38.1
    finished_multi([user, UserFactory()], [1, 2])
    page = client.get(profile_url(user)).content.decode()
    table = page[page.index('data-testid="per-mode"') :]
    assert re.search(r"Solo</td><td>Standard</td><td class=\"num\">11<", table)
    assert re.search(r"Solo</td><td>Fisherman as ferryman</td><td class=\"num\">1<", table)
    assert re.search(r"Multiplayer</td><td>Standard</td><td class=\"num\">1<", table)
    assert 'data-testid="best-solo">50<' in page
    assert 'data-testid="average-solo">37.1<' in page  # 445 / 12 games
    # The mean of the latest ten solo games of each ruleset, in the table's words: the
    # ferryman game (the latest but one) does not pull the standard standing down.
    standing = page[page.index('data-testid="standing-standard"') :][:200]
    assert "<strong>good</strong>" in standing and "38.1" in standing
    ferryman = page[page.index('data-testid="standing-ferryman"') :][:200]
    assert "<strong>very good</strong>" in ferryman and "44.0" in ferryman
    assert page.count('data-testid="score-chart-') == 2


def test_the_score_chart_draws_each_game_over_the_tables_bands(client: Client, user: User) -> None:
    solo_results(user, [25, 33, 41, 48, 52])
    page = client.get(profile_url(user)).content.decode()
    chart = page[page.index('data-testid="score-chart-standard"') :]
    chart = chart[: chart.index("</svg>")]
    for band in ("room-for-improvement", "satisfactory", "good", "very-good", "excellent"):
        assert f'class="band-{band}"' in chart
    assert chart.count("<circle") == 5
    assert "<title>52 · " in chart
    # The x axis is dated: the first and the last game's day at least.
    assert chart.count('class="date-tick"') >= 2
    # Drawn by the server: the page's only scripts are every page's (the service worker's
    # registration, the site's menu, htmx, its server-push extension and hook, the live
    # challenges' title signal, translations); none draws a chart.
    scripts = re.findall(r"<script[^>]*>", page)
    assert [re.search(r'src="([^"]+)"', tag).group(1) for tag in scripts] == [  # type: ignore[union-attr]
        "/static/js/install.js",
        "/static/js/site.js",
        "/static/vendor/htmx.min.js",
        "/static/vendor/sse.min.js",
        "/static/js/push.js",
        "/static/js/alerts.js",
        "/jsi18n/",
    ]


def test_the_band_chart_counts_how_often_each_band_was_reached(client: Client, user: User) -> None:
    solo_results(user, [20, 30, 31, 50])
    page = client.get(profile_url(user)).content.decode()
    chart = page[page.index('data-testid="band-chart"') :]
    chart = chart[: chart.index("</svg>")]
    counts = dict(re.findall(r'data-band="band-([a-z-]+)">(\d+)<', chart))
    assert counts == {
        "excellent": "1",
        "very-good": "0",
        "good": "0",
        "satisfactory": "2",
        "room-for-improvement": "1",
    }


def test_average_points_per_profession(
    client: Client, user: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    play_rounds(services.game_create_solo(user=user, seed=5), 16)
    page = client.get(profile_url(user)).content.decode()
    professions = page[page.index('data-testid="professions"') :]
    professions = professions[: professions.index("</dl>")]
    assert "farmer" in professions and "watchman" in professions


def test_rating_history_chart_after_rated_games(client: Client, user: User) -> None:
    other = UserFactory()
    finished_multi([user, other], [1, 2])
    finished_multi([user, other], [2, 1])
    page = client.get(profile_url(user)).content.decode()
    chart = page[page.index('data-testid="rating-chart"') :]
    chart = chart[: chart.index("</svg>")]
    assert chart.count("<circle") == 2
    assert 'class="series-line series-standard"' in chart
    assert 'class="date-tick"' in chart
    assert 'data-testid="provisional"' in page
    # On the 1500-based scale players know, not as openskill's raw ordinal.
    shown = re.search(r'data-testid="rating">(\d+)<', page)
    assert shown is not None and 1000 < int(shown.group(1)) < 2000


def test_a_player_without_games_has_no_charts(client: Client, user: User) -> None:
    page = client.get(profile_url(user)).content.decode()
    assert "<svg" not in page
    assert 'data-testid="best-solo">none yet<' in page


def test_profile_history_lists_results_with_their_rating(client: Client, user: User) -> None:
    solo_results(user, [27, 49])
    page = client.get(profile_url(user)).content.decode()
    history = page[page.index('data-testid="history"') :]
    assert history.index("excellent") < history.index("room for improvement")


def test_a_banned_players_profile_says_the_account_is_closed(client: Client, user: User) -> None:
    solo_results(user, [44])
    user.banned_until = timezone.now() + datetime.timedelta(days=7)
    user.save()
    page = client.get(profile_url(user)).content.decode()
    assert 'data-testid="account-closed"' in page
    assert 'data-testid="best-solo"' not in page


def test_other_signed_in_players_can_report_the_player(client: Client, user: User) -> None:
    client.force_login(UserFactory())
    page = client.get(profile_url(user)).content.decode()
    assert "report-link" in page
    client.force_login(user)
    assert "report-link" not in client.get(profile_url(user)).content.decode()


def test_profile_queries_do_not_grow_with_the_number_of_games(
    client: Client, user: User, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    solo_results(user, [30 + i % 20 for i in range(40)])
    PlayerRatingFactory(user=user)
    with django_assert_max_num_queries(12):
        client.get(profile_url(user))


def test_a_visitor_gets_no_link_to_a_daily_replay_they_may_not_open_yet(
    user: User, play_rounds: Callable[[Game, int], Game], time_machine: Any
) -> None:
    daily = play_rounds(services.game_create_daily(user=user), 16)
    replay = reverse("games:replay", args=[daily.pk])
    visitor, rival, owner = Client(), Client(), Client()
    rival.force_login(UserFactory())
    owner.force_login(user)
    # Today's cards are secret to whoever has not finished their own attempt at them.
    for someone in (visitor, rival):
        page = someone.get(profile_url(user)).content.decode()
        assert "daily challenge" in page and f'href="{replay}"' not in page
        assert someone.get(replay).status_code == 404
    assert f'href="{replay}"' in owner.get(profile_url(user)).content.decode()
    # Once the day is over the replay is everyone's, and so is the link.
    time_machine.move_to(timezone.now() + datetime.timedelta(days=1))
    page = visitor.get(profile_url(user)).content.decode()
    assert f'href="{replay}"' in page and visitor.get(replay).status_code == 200
