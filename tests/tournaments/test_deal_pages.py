"""A tournament's deals on their own pages: titled as the tournament's, leading back to it and
on to the next deal; a finished live deal's page says at once that the next one runs."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services as game_services
from games.models import Game
from tests.factories import UserFactory, play_turn
from tests.pages import HTMX
from tournaments import services
from tournaments.models import Play, Tournament

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)
MINUTE = datetime.timedelta(minutes=1)


def html_time(when: datetime.datetime) -> str:
    """A time as the pages write it in ``<time datetime>``: to the millisecond, as HTML
    allows (a countdown read to the second only would end up to a second early)."""
    return f"{when:%Y-%m-%dT%H:%M:%S}.{when.microsecond // 1000:03d}{when:%z}"


def entered(tournament: Tournament, *names: str) -> list[User]:
    players = [UserFactory(username=name) for name in names]
    for player in players:
        services.tournament_join(tournament=tournament, user=player)
    return players


def game_of(tournament: Tournament, user: User, number: int) -> Game:
    return Play.objects.get(tournament=tournament, entrant__user=user, deal__number=number).game


def test_an_asynchronous_deal_is_the_tournaments_and_ends_with_the_next_deal(
    play_rounds: Callable[[Game, int], Game],
) -> None:
    now = timezone.now()
    cup = services.tournament_create(
        name="Spring cup",
        ruleset="standard",
        deal_count=2,
        starts_at=now - HOUR,
        ends_at=now + HOUR,
    )
    (ana,) = entered(cup, "ana")
    client = Client()
    client.force_login(ana)
    back = reverse("tournaments:detail", args=[cup.pk])
    play = reverse("tournaments:play", args=[cup.pk, 1])
    first = client.post(play)
    game = Play.objects.get(deal__number=1).game
    page = client.get(first["Location"]).content.decode()
    assert "<title>Spring cup, deal 1 of 2 ·" in page
    assert 'data-testid="game-title">Spring cup, deal 1 of 2' in page
    assert "Solo game #" not in page
    assert f'href="{back}" data-testid="frame-back"' in page
    # Before its first card the tournament's page offers to play the deal, not to go on.
    assert 'data-testid="play-1">Play<' in client.get(back).content.decode()

    game = play_rounds(game, 16)
    assert game.is_finished
    final = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-testid="play-again"' not in final
    assert "Play again with the same rules" not in final
    assert f'action="{reverse("tournaments:play", args=[cup.pk, 2])}"' in final
    assert 'data-testid="next-deal">Next deal<' in final
    # "Next deal" starts the second deal, whose end leads to the standings.
    second = client.post(reverse("tournaments:play", args=[cup.pk, 2]))
    last = play_rounds(Play.objects.get(deal__number=2).game, 16)
    assert second["Location"] == reverse("games:detail", args=[last.pk])
    final = client.get(second["Location"]).content.decode()
    assert "Spring cup, deal 2 of 2" in final
    assert f'href="{back}" data-testid="standings-link">See the standings<' in final
    assert 'data-testid="next-deal"' not in final
    # A game of one's own keeps its title and Play again.
    own = game_services.game_create_solo(user=ana, diagonal=False, ferryman=False)
    own = play_rounds(own, 16)
    page = client.get(reverse("games:detail", args=[own.pk])).content.decode()
    assert f"Solo game #{own.pk}" in page and 'data-testid="play-again"' in page


def friday_night_live() -> Tournament:
    """A live tournament of two deals, 30 s a card, starting in a minute."""
    return services.tournament_create(
        name="Friday night live",
        ruleset="standard",
        deal_count=2,
        starts_at=timezone.now() + MINUTE,
        format=Tournament.Format.LIVE,
        round_seconds=30,
    )


def first_deal_played(
    tournament: Tournament, players: list[User], committed: Callable[[], Any]
) -> None:
    """Deal the first deal and have everyone play its 16 cards, card by card together."""
    with committed():
        services.live_advance(tournament=tournament)
    for _round in range(16):
        with committed():
            for player in players:
                play_turn(game_of(tournament, player, 1), player)


def test_a_finished_live_deal_shows_the_next_deal_its_clock_and_the_way_there(
    committed: Callable[[], Any],
) -> None:
    tournament = friday_night_live()
    ana, ben = entered(tournament, "ana", "ben")
    with time_machine.travel(tournament.starts_at + datetime.timedelta(seconds=1), tick=False):
        first_deal_played(tournament, [ana, ben], committed)
        first, second = game_of(tournament, ana, 1), game_of(tournament, ana, 2)
        assert first.is_finished and second.is_active
        client = Client()
        client.force_login(ana)
        final = client.get(reverse("games:detail", args=[first.pk])).content.decode()
        assert "Friday night live, deal 1 of 2" in final
        follow = f"{reverse('tournaments:live_next', args=[tournament.pk])}?after={first.pk}"
        assert f'hx-get="{follow}"' in final
        fragment = client.get(follow, **HTMX).content.decode()
        assert "Deal 2 of 2 is running." in fragment
        assert f'href="{reverse("games:detail", args=[second.pk])}"' in fragment
        table = second.lockstep
        assert table is not None and table.deadline is not None
        # The break before the first card is the player's to read the deal just played:
        # the page goes to the next game when it is over, with the card's whole clock.
        go_at = table.deadline - datetime.timedelta(seconds=30)
        assert f'data-go-at="{html_time(go_at)}"' in fragment
        # Until then the page counts down the break, not a card's clock that includes it,
        # and its link says it goes now (issue #51).
        assert f'datetime="{html_time(go_at)}" data-countdown data-testid="break"' in fragment
        assert "data-deadline" not in fragment
        assert "Go to deal 2 now" in fragment
        with time_machine.travel(go_at + datetime.timedelta(seconds=1), tick=False):
            after = client.get(follow, **HTMX).content.decode()
        assert f'datetime="{html_time(table.deadline)}" data-deadline' in after
        assert 'data-testid="break"' not in after and "Go to deal 2 now" not in after
        # Asked from the next game's own page, or by a visitor: no way to a game.
        from_second = f"{reverse('tournaments:live_next', args=[tournament.pk])}?after={second.pk}"
        assert "data-go-game" not in client.get(from_second).content.decode()
        assert "data-go-game" not in Client().get(follow).content.decode()
        for hostile in ("x" * 5000, "\x00", "-1"):
            url = reverse("tournaments:live_next", args=[tournament.pk])
            assert client.get(url, {"after": hostile}).status_code == 200
        assert Client().get(reverse("tournaments:live_next", args=[0])).status_code == 404


def test_an_upcoming_live_tournament_counts_down_and_listens_for_its_start() -> None:
    tournament = services.tournament_create(
        name="Friday night live",
        ruleset="standard",
        deal_count=1,
        starts_at=timezone.now() + HOUR,
        format=Tournament.Format.LIVE,
        round_seconds=30,
    )
    (ana,) = entered(tournament, "ana")
    client = Client()
    client.force_login(ana)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    stream = reverse("tournaments:stream", args=[tournament.pk])
    assert f'sse-connect="{stream}?v=' in page
    assert 'hx-trigger="every 15s, sse:standings"' in page
    assert f'datetime="{html_time(tournament.starts_at)}" data-countdown' in page
    assert "js/tournament.js" in page
    # Times say their zone once, without a full stop doubled after "p.m.".
    window = page.split('data-testid="window">', 1)[1].split("</li>", 1)[0]
    assert "UTC" in window and ".." not in window and "p.m." not in window
    assert 'data-local-times data-testid="local-times"' in page
    listed = client.get(reverse("tournaments:index")).content.decode()
    assert f"from {tournament.starts_at:%Y-%m-%d %H:%M} UTC" in listed
    assert f'<time datetime="{html_time(tournament.starts_at)}" data-local>' in listed


def test_the_tournament_list_writes_its_times_as_html_reads_them() -> None:
    # A start taken from the clock has microseconds, which no <time datetime> may carry
    # (the Nu HTML checker's one error on /tournaments/).
    starts_at = timezone.now() + HOUR + datetime.timedelta(microseconds=123456)
    services.tournament_create(
        name="Friday night live",
        ruleset="standard",
        deal_count=1,
        starts_at=starts_at,
        format=Tournament.Format.LIVE,
        round_seconds=30,
    )
    listed = Client().get(reverse("tournaments:index")).content.decode()
    assert f'<time datetime="{html_time(starts_at)}" data-local>' in listed
    assert ".123456" not in listed


def test_a_finished_live_deal_compares_its_players_with_their_table_during_the_break(
    committed: Callable[[], Any],
) -> None:
    # Issue #51: the table played these cards together; its panel said "No one else has
    # played these cards yet" until the tournament's results were counted.
    tournament = friday_night_live()
    ana, ben = entered(tournament, "ana", "ben")
    with time_machine.travel(tournament.starts_at + datetime.timedelta(seconds=1), tick=False):
        first_deal_played(tournament, [ana, ben], committed)
        first = game_of(tournament, ana, 1)
        assert first.is_finished and game_of(tournament, ana, 2).is_active
        client = Client()
        client.force_login(ana)
        panel = client.get(reverse("leaderboards:game_duplicate", args=[first.pk]), **HTMX)
        page = panel.content.decode()
    assert "Against your table" in page
    assert 'data-testid="duplicate-at-table"' in page
    assert "No one else has played these cards yet" not in page
    # ana's row, compared with the one other player at the table.
    assert page.count('data-testid="duplicate-row"') == 1
    assert "<td>ana</td>" in page and '<td class="num">2</td>' in page
