"""A finish counted into the cached standings equals the standings counted in full."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.models import Game, Seat
from tests.factories import GameFactory, SeatFactory, UserFactory
from tournaments import selectors, services
from tournaments.models import Entrant, Play, Tournament

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)

Capture = Callable[..., AbstractContextManager[Any]]

# The full count itself, whatever a test puts in its place to watch for it.
_count_in_full = selectors._standings


def counted_in_full(tournament: Tournament) -> list[selectors.StandingRow]:
    """The standings as a page finding no cached copy counts them."""
    return _count_in_full(tournament, timezone.now()).rows


def watch_full_counts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the tournaments whose standings are counted in full from now on."""
    counts: list[int] = []

    def counting(tournament: Tournament, now: datetime.datetime) -> selectors.Standings:
        counts.append(tournament.pk)
        return _count_in_full(tournament, now)

    monkeypatch.setattr(selectors, "_standings", counting)
    return counts


def running(deal_count: int) -> Tournament:
    now = timezone.now()
    return services.tournament_create(
        name="Spring cup",
        ruleset="standard",
        deal_count=deal_count,
        starts_at=now - 2 * HOUR,
        ends_at=now + 24 * HOUR,
    )


def entered(tournament: Tournament, count: int) -> list[Entrant]:
    # Two by two at the same moment: the order of entry then falls back on the entry's id.
    return [
        Entrant.objects.create(
            tournament=tournament,
            user=UserFactory(),
            joined_at=tournament.starts_at + (i // 2) * datetime.timedelta(minutes=5),
        )
        for i in range(count)
    ]


def finishing(
    tournament: Tournament,
    entrant: Entrant,
    number: int,
    *,
    score: int,
    finished_at: datetime.datetime,
    assisted: bool = False,
) -> tuple[Game, list[Seat]]:
    """An entrant's game of deal ``number`` as it finishes, its play started."""
    game = GameFactory(
        created_by=entrant.user,
        status=Game.Status.FINISHED,
        round=17,
        finished_at=finished_at,
        sealed_until=tournament.ends_at,
        assisted=assisted,
    )
    seat = SeatFactory(game=game, score=score, place=1)
    deal = tournament.deals.get(number=number)
    Play.objects.create(tournament=tournament, entrant=entrant, deal=deal, game=game)
    return game, [seat]


def current(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


# One finish: entrant, deal, score, which of a few moments it finished at, assisted (it
# does not count). Few scores and moments, so that totals, sums and moments tie often.
finishes = st.lists(
    st.tuples(
        st.integers(0, 5),
        st.integers(1, 3),
        st.integers(20, 23),
        st.integers(0, 2),
        st.sampled_from([False, False, False, True]),
    ),
    max_size=14,
)


@settings(
    max_examples=40,
    deadline=None,
    # Each example makes its own tournament and players: the shared database is no harm.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    entrant_count=st.integers(2, 6),
    deal_count=st.integers(1, 3),
    sequence=finishes,
    disqualify_at=st.integers(0, 20),
    banned=st.booleans(),
)
# Two entrants tied on everything but the order of entry, the later one ahead before.
@example(
    entrant_count=2,
    deal_count=1,
    sequence=[(1, 1, 21, 0, False), (0, 1, 21, 0, False)],
    disqualify_at=20,
    banned=False,
)
def test_finishes_counted_one_by_one_give_the_standings_counted_in_full(
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
    entrant_count: int,
    deal_count: int,
    sequence: list[tuple[int, int, int, int, bool]],
    disqualify_at: int,
    banned: bool,
) -> None:
    tournament = running(deal_count)
    players = entered(tournament, entrant_count)
    if banned:
        # A banned entrant's finishes count for nobody while the ban is in force.
        user = players[-1].user
        user.banned_until = timezone.now() + 48 * HOUR
        user.save(update_fields=["banned_until"])
    moments = [
        tournament.starts_at + minutes * datetime.timedelta(minutes=1) for minutes in (10, 20, 30)
    ]
    selectors.standings(current(tournament))
    full_counts = watch_full_counts(monkeypatch)
    played: set[tuple[int, int]] = set()
    for step, (who, number, score, moment, assisted) in enumerate(sequence):
        entrant = players[who % entrant_count]
        number = min(number, deal_count)
        if (entrant.pk, number) in played:
            continue
        played.add((entrant.pk, number))
        if step == disqualify_at:
            # Any other change is counted in full; the finishes after it count from that.
            with django_capture_on_commit_callbacks(execute=True):
                services.entrant_disqualify(entrant=players[0], reason="two accounts")
            assert full_counts == [tournament.pk]
            full_counts.clear()
        game, seats = finishing(
            tournament,
            entrant,
            number,
            score=score,
            finished_at=moments[moment],
            assisted=assisted,
        )
        with django_capture_on_commit_callbacks(execute=True):
            services.game_finished(game=game, seats=seats)
        # Counted from the previous version's standings, not from every result again.
        assert full_counts == []
        rows = selectors.standings(current(tournament))
        assert full_counts == []
        assert rows == counted_in_full(tournament)


def test_a_finish_reads_no_result_of_the_others(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    tournament = running(2)
    players = entered(tournament, 30)
    moment = tournament.starts_at + HOUR
    for i, entrant in enumerate(players[1:]):
        for number in (1, 2):
            game, seats = finishing(
                tournament, entrant, number, score=20 + (i * number) % 17, finished_at=moment
            )
            services.game_finished(game=game, seats=seats)
    selectors.standings(current(tournament))
    game, seats = finishing(tournament, players[0], 1, score=30, finished_at=moment)
    with django_capture_on_commit_callbacks() as after_commit:
        services.game_finished(game=game, seats=seats)
    with CaptureQueriesContext(connection) as queries:
        for callback in after_commit:
            callback()
    # The new standings were counted (they are cached) without a query.
    assert queries.captured_queries == []
    with CaptureQueriesContext(connection) as queries:
        rows = selectors.standings(current(tournament))
    assert not any("tournaments_play" in query["sql"] for query in queries.captured_queries)
    assert rows == counted_in_full(tournament)
    assert [row.scores for row in rows if row.user_id == players[0].user_id] == [(30, None)]


def test_without_the_previous_standings_cached_a_finish_counts_them_in_full(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Capture
) -> None:
    tournament = running(1)
    ana, ben = entered(tournament, 2)
    full_counts = watch_full_counts(monkeypatch)
    game, seats = finishing(tournament, ana, 1, score=30, finished_at=tournament.starts_at)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_finished(game=game, seats=seats)
    assert full_counts == [tournament.pk]
    rows = selectors.standings(current(tournament))
    assert [(row.username, row.total) for row in rows] == [
        (ana.user.username, 100.0),
        (ben.user.username, 0.0),
    ]


def test_a_finish_the_previous_standings_already_count_is_not_counted_twice(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Capture
) -> None:
    tournament = running(1)
    ana, ben = entered(tournament, 2)
    moment = tournament.starts_at + HOUR
    game, seats = finishing(tournament, ana, 1, score=30, finished_at=moment)
    services.game_finished(game=game, seats=seats)
    before = current(tournament)
    game, seats = finishing(tournament, ben, 1, score=25, finished_at=moment)
    with django_capture_on_commit_callbacks() as after_commit:
        services.game_finished(game=game, seats=seats)
    # A page that read the version before ben's finish, and his result after it committed:
    # the standings cached under that version already count it.
    assert selectors.standings(before)[1].scores == (25,)
    full_counts = watch_full_counts(monkeypatch)
    for callback in after_commit:
        callback()
    assert full_counts == [tournament.pk]
    rows = selectors.standings(current(tournament))
    assert rows == counted_in_full(tournament)
    assert [(row.username, row.total, row.score_sum) for row in rows] == [
        (ana.user.username, 100.0, 30),
        (ben.user.username, 0.0, 25),
    ]
