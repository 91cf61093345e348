"""Live duplicate tournaments: every entrant on the same card at once, deal after deal."""

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
from core.errors import ActionRefused
from games.models import Game, Seat
from moderation.services import entrant_disqualify
from tests.factories import UserFactory, moderators_group, play_turn
from tournaments import selectors, services
from tournaments.models import Entrant, Play, Tournament, TournamentDeal

pytestmark = pytest.mark.django_db

MINUTE = datetime.timedelta(minutes=1)


def live(*, deals: int = 2, round_seconds: int = 30, **options: object) -> Tournament:
    values: dict[str, object] = {
        "name": "Friday night live",
        "ruleset": "standard",
        "deal_count": deals,
        "starts_at": timezone.now() + MINUTE,
        "format": Tournament.Format.LIVE,
        "round_seconds": round_seconds,
    }
    values.update(options)
    return services.tournament_create(**values)  # type: ignore[arg-type]


def entered(tournament: Tournament, count: int) -> list[User]:
    players = [UserFactory() for _ in range(count)]
    for player in players:
        services.tournament_join(tournament=tournament, user=player)
    return players


def game_of(tournament: Tournament, user: User, number: int) -> Game:
    return Play.objects.get(tournament=tournament, entrant__user=user, deal__number=number).game


def test_a_live_tournament_lasts_as_long_as_its_clocks_can_run() -> None:
    tournament = live(deals=3, round_seconds=45)
    assert tournament.ends_at - tournament.starts_at == services.live_length(3, 45)
    # Sixteen cards a deal at most 45 s each, the grace and breaks, and a margin.
    assert services.live_length(3, 45) >= datetime.timedelta(seconds=3 * 16 * 45)


@pytest.mark.parametrize("seconds", [None, 5, 10_000])
def test_a_live_tournament_needs_a_sensible_round_clock(seconds: int | None) -> None:
    with pytest.raises(ActionRefused):
        live(round_seconds=seconds)  # type: ignore[arg-type]
    assert not Tournament.objects.exists()
    assert not TournamentDeal.objects.exists()


def test_entries_close_when_a_live_tournament_starts() -> None:
    tournament = live()
    ana = entered(tournament, 1)[0]
    assert Entrant.objects.filter(user=ana).exists()
    with (
        time_machine.travel(tournament.starts_at + MINUTE, tick=False),
        pytest.raises(ActionRefused, match="entries closed"),
    ):
        services.tournament_join(tournament=tournament, user=UserFactory())
    assert Entrant.objects.count() == 1


def test_the_first_look_after_the_start_deals_the_first_deal_to_everyone(
    committed: Callable[[], Any],
) -> None:
    tournament = live()
    ana, ben, cy = entered(tournament, 3)
    client = Client()
    client.force_login(ana)
    before = client.get(reverse("tournaments:detail", args=[tournament.pk]))
    assert 'data-testid="live-rules"' in before.content.decode()
    assert not Play.objects.exists()
    with time_machine.travel(tournament.starts_at + datetime.timedelta(seconds=5), tick=False):
        with committed():
            page = client.get(reverse("tournaments:detail", args=[tournament.pk]))
        body = page.content.decode()
        games = [game_of(tournament, player, 1) for player in (ana, ben, cy)]
        assert len({game.lockstep_id for game in games}) == 1
        assert len({tuple(game.cards) for game in games}) == 1
        assert all(game.sealed_until == tournament.ends_at for game in games)
        assert 'data-testid="live-status"' in body
        assert reverse("games:detail", args=[games[0].pk]) in body
        # The deal's button leads to the game; the next deal is not dealt yet.
        assert services.deal_play(tournament=tournament, user=ana, number=1) == games[0]
        with pytest.raises(ActionRefused):
            services.deal_play(tournament=tournament, user=ana, number=2)
        # Looking again deals nothing more.
        client.get(reverse("tournaments:detail", args=[tournament.pk]))
        assert Play.objects.count() == 3


def test_deals_follow_one_another_and_the_tournament_ends_with_the_last_card(
    committed: Callable[[], Any],
) -> None:
    tournament = live(deals=2)
    ana, ben = entered(tournament, 2)
    now = tournament.starts_at + datetime.timedelta(seconds=1)
    with time_machine.travel(now, tick=True):
        with committed():
            assert services.live_advance(tournament=tournament)
        for number in (1, 2):
            for _round in range(16):
                with committed():
                    play_turn(game_of(tournament, ana, number), ana)
                    play_turn(game_of(tournament, ben, number), ben)
            assert game_of(tournament, ana, number).is_finished
        tournament.refresh_from_db()
        # Over with its last card, long before its window would have closed.
        assert tournament.is_over
        assert tournament.ends_at <= timezone.now()
        games = [game_of(tournament, player, n) for player in (ana, ben) for n in (1, 2)]
        assert all(game.sealed_until == tournament.ends_at for game in games)
        rows = selectors.standings(tournament)
        assert sorted(row.user_id for row in rows) == sorted([ana.pk, ben.pk])
        # Same cards, same reference player: a tie on both deals, 50 % each.
        assert [row.total for row in rows] == [100.0, 100.0]
        assert all(None not in row.scores for row in rows)
        # Its page says it is over, no longer when it will be.
        client = Client()
        client.force_login(ana)
        page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
        window = page.split('data-testid="window">', 1)[1].split("</li>", 1)[0]
        assert f"over since {tournament.ends_at:%Y-%m-%d %H:%M} UTC" in window
        assert "when the last card is played" not in page
        # The total is a sum of the deals' percentages, and says so (issue #51).
        assert page.count('<td class="num" data-testid="total">100.0%</td>') == 2
        assert page.count('<td class="num">50%</td>') == 4


def test_a_player_who_misses_the_clock_leaves_the_deal_but_plays_the_next(
    committed: Callable[[], Any],
) -> None:
    tournament = live(deals=2)
    ana, ben = entered(tournament, 2)
    with time_machine.travel(tournament.starts_at, tick=False) as traveller:
        with committed():
            services.live_advance(tournament=tournament)
        with committed():
            play_turn(game_of(tournament, ana, 1), ana)
        table = game_of(tournament, ana, 1).lockstep
        assert table is not None and table.deadline is not None
        traveller.move_to(table.deadline + datetime.timedelta(seconds=1))
        client = Client()
        client.force_login(ana)
        with committed():
            client.get(reverse("games:detail", args=[game_of(tournament, ana, 1).pk]))
        missed = game_of(tournament, ben, 1)
        assert missed.is_finished
        assert missed.seats.get().status == Seat.Status.TIMED_OUT
        # Its final page leads back to the tournament (not to a new game of one's own).
        mine = Client()
        mine.force_login(ben)
        final = mine.get(reverse("games:detail", args=[missed.pk])).content.decode()
        assert 'data-testid="standings-link"' in final
        assert reverse("tournaments:detail", args=[tournament.pk]) in final
        # ... and follows the tournament, to say when the next deal is dealt.
        assert reverse("tournaments:live_next", args=[tournament.pk]) in final
        assert 'data-testid="play-again"' not in final
        # Ana plays the deal out alone; then both get the second deal.
        for _round in range(15):
            with committed():
                play_turn(game_of(tournament, ana, 1), ana)
        second = game_of(tournament, ben, 2)
        assert second.is_active and second.round == 1


def test_a_disqualified_entrant_leaves_the_table_at_once(committed: Callable[[], Any]) -> None:
    tournament = live()
    ana, ben = entered(tournament, 2)
    moderator = UserFactory(is_staff=True)
    moderator.groups.add(moderators_group())
    with time_machine.travel(tournament.starts_at, tick=False):
        with committed():
            services.live_advance(tournament=tournament)
        with committed():
            play_turn(game_of(tournament, ana, 1), ana)
        entrant = Entrant.objects.get(tournament=tournament, user=ben)
        with committed():
            entrant_disqualify(moderator=moderator, entrant=entrant, reason="Two accounts")
        assert game_of(tournament, ben, 1).is_finished
        # Nobody is left to wait for: ana has the next card without waiting for the clock.
        assert game_of(tournament, ana, 1).round == 2


def test_a_live_deal_cannot_be_started_by_hand_nor_twice() -> None:
    tournament = live()
    ana = entered(tournament, 1)[0]
    with time_machine.travel(tournament.starts_at, tick=False):
        with pytest.raises(ActionRefused):
            services.deal_play(tournament=tournament, user=ana, number=1)
        assert not Game.objects.exists()


def test_moderators_create_a_live_tournament_whose_window_follows_from_its_clock() -> None:
    moderator = UserFactory(is_staff=True)
    moderator.groups.add(moderators_group())
    client = Client()
    client.force_login(moderator)
    starts = timezone.now() + datetime.timedelta(days=1)
    form = {
        "name": "Club live",
        "ruleset": "standard",
        "format": "live",
        "round_seconds": "40",
        "deal_count": "3",
        "starts_at_0": starts.date().isoformat(),
        "starts_at_1": "20:00:00",
        "ends_at_0": "",
        "ends_at_1": "",
        "entry": "open",
        "max_entrants": "",
        "invitations-TOTAL_FORMS": "0",
        "invitations-INITIAL_FORMS": "0",
    }
    response = client.post(reverse("admin:tournaments_tournament_add"), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Club live")
    assert tournament.is_live and tournament.round_seconds == 40
    assert tournament.ends_at - tournament.starts_at == services.live_length(3, 40)
    # Without a clock a live tournament is refused, and nothing is made.
    refused = client.post(
        reverse("admin:tournaments_tournament_add"),
        {**form, "name": "No clock", "round_seconds": ""},
    )
    assert refused.status_code == 200
    assert "seconds a round" in refused.content.decode()
    assert not Tournament.objects.filter(name="No clock").exists()


def test_the_api_says_a_tournament_is_live_and_how_long_each_card_has() -> None:
    tournament = live(round_seconds=45)
    listed = Client().get("/api/v1/tournaments/").json()
    shown = next(item for item in listed if item["id"] == tournament.pk)
    assert (shown["format"], shown["round_seconds"]) == ("live", 45)


def test_a_live_tournament_nobody_entered_is_over_when_it_starts() -> None:
    tournament = live()
    with time_machine.travel(tournament.starts_at, tick=False):
        assert services.live_advance(tournament=tournament)
        tournament.refresh_from_db()
        assert not Play.objects.exists()
        assert tournament.ends_at > tournament.starts_at
    with time_machine.travel(tournament.starts_at + datetime.timedelta(seconds=1), tick=False):
        assert tournament.is_over
