"""A finished Winter game records and shows what it did to each person's rating."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from leaderboards import services
from leaderboards.models import WinterRating, WinterRatingChange
from leaderboards.rating import INITIAL, display_rating
from tests.factories import UserFactory
from wintergames import services as winter_services
from wintergames.models import WinterGame, WinterSeat
from wintergames.rebuild import winter_game
from wintergames.signals import winter_game_finished

pytestmark = pytest.mark.django_db

CHANGE = re.compile(r'data-testid="winter-rating-change">([^<]*)<')


def _finished(people: list[User], *, computers: int = 0) -> tuple[WinterGame, list[WinterSeat]]:
    """A finished game whose seats take places in order (people first), and its signal."""
    game = WinterGame.objects.create(
        seed=1, status=WinterGame.Status.FINISHED, finished_at=timezone.now()
    )
    seats = [WinterSeat(game=game, position=i, user=u) for i, u in enumerate(people)]
    seats += [
        WinterSeat(game=game, position=len(people) + i, bot_level="easy") for i in range(computers)
    ]
    for place, seat in enumerate(seats, 1):
        seat.place, seat.score = place, 50 - place
    WinterSeat.objects.bulk_create(seats)
    loaded = list(game.seats.select_related("user").order_by("position"))
    winter_game_finished.send(sender=WinterGame, game=game, seats=loaded, state=None)
    return game, loaded


def _shown(client: Client, game: WinterGame) -> list[str]:
    answer = client.get(f"/winter/games/{game.pk}/")
    assert answer.status_code == 200
    return [" ".join(line.split()) for line in CHANGE.findall(answer.content.decode())]


def test_a_finish_records_each_persons_rating_before_and_after() -> None:
    ana, ben = UserFactory(), UserFactory()
    game, seats = _finished([ana, ben], computers=1)
    changes = {c.user_id: c for c in WinterRatingChange.objects.filter(game=game)}
    assert set(changes) == {ana.pk, ben.pk}  # the computer has no rating
    for seat in seats[:2]:
        change = changes[seat.user_id or 0]
        assert change.seat_id == seat.pk and change.finished_at == game.finished_at
        assert change.rating_before == pytest.approx(INITIAL.ordinal)
        assert change.rating_after == pytest.approx(
            WinterRating.objects.get(user=seat.user).ordinal
        )
    assert changes[ana.pk].rating_after > changes[ben.pk].rating_after


def test_the_next_game_starts_from_the_last_ones_rating() -> None:
    ana, ben = UserFactory(), UserFactory()
    first, _ = _finished([ana, ben])
    second, _ = _finished([ben, ana])
    before = WinterRatingChange.objects.get(game=second, user=ana).rating_before
    assert before == pytest.approx(
        WinterRatingChange.objects.get(game=first, user=ana).rating_after
    )


def test_an_unrated_game_records_no_change() -> None:
    game, _ = _finished([UserFactory()], computers=2)
    assert not WinterRatingChange.objects.filter(game=game).exists()


def test_the_writer_replaces_the_named_games_records_or_all() -> None:
    ana, ben = UserFactory(), UserFactory()
    first, seats = _finished([ana, ben])
    second, _ = _finished([ana, ben])
    replayed = WinterRatingChange(
        seat_id=seats[0].pk,
        game_id=first.pk,
        user_id=ana.pk,
        rating_before=1.0,
        rating_after=2.0,
        finished_at=timezone.now(),
    )
    assert services.winter_rating_changes_write(changes=[replayed], game_ids=[first.pk]) == 1
    assert WinterRatingChange.objects.filter(game=first).count() == 1
    assert WinterRatingChange.objects.filter(game=second).count() == 2  # untouched
    # A replay of every game: what it no longer rates (a hidden game) keeps no record.
    services.winter_rating_changes_write(changes=[], game_ids=None)
    assert not WinterRatingChange.objects.exists()


def test_the_game_page_shows_each_rating_before_and_after_by_place(client: Client) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game, _ = _finished([ana, ben], computers=1)
    shown = _shown(client, game)
    expected = []
    for user in (ana, ben):
        change = WinterRatingChange.objects.get(game=game, user=user)
        before, after = display_rating(change.rating_before), display_rating(change.rating_after)
        assert before == 1500
        sign = f"{after - before:+d}" if after != before else "±0"
        expected.append(f"{user.username}: {before} → {after} ({sign})")
    assert shown == expected
    assert shown[0].endswith(")") and "(+" in shown[0] and "(-" in shown[1]


def test_the_game_page_of_an_unrated_or_hidden_game_shows_no_change(client: Client) -> None:
    alone, _ = _finished([UserFactory()], computers=1)
    assert _shown(client, alone) == []
    hidden, _ = _finished([UserFactory(), UserFactory()])
    WinterGame.objects.filter(pk=hidden.pk).update(hidden=True)
    assert _shown(client, hidden) == []


def test_a_game_in_play_reads_no_change(client: Client, django_assert_num_queries: Any) -> None:
    from leaderboards import gamelists

    game = WinterGame.objects.create(seed=1, status=WinterGame.Status.RUNNING)
    with django_assert_num_queries(0):
        assert gamelists.winter_rating_changes(game) == []


def test_the_game_page_reads_the_changes_in_one_query(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    two, _ = _finished([UserFactory(), UserFactory()])
    with django_assert_max_num_queries(10_000) as few:
        client.get(f"/winter/games/{two.pk}/")
    baseline = len(few.captured_queries)
    four, _ = _finished([UserFactory() for _ in range(4)])
    with django_assert_max_num_queries(baseline):
        assert len(_shown(client, four)) == 4


def test_a_game_played_to_its_end_shows_the_changes_on_its_page(
    user: User, committed: Callable[[], Any]
) -> None:
    other = UserFactory()
    with committed():
        game = winter_services.game_create(
            user=user, players=2, computers=0, level="easy", farmers=True, pace="untimed", seed=3
        )
        winter_services.game_join(game_id=game.pk, user=other)
    with committed():
        winter_services.game_resign(game_id=game.pk, user=user)
    while True:
        game.refresh_from_db()
        if game.is_finished:
            break
        state = winter_game(game, list(game.seats.select_related("user").order_by("position")))
        assert state.drawn is not None
        move = next(state.iter_placements(state.drawn))
        with committed():
            winter_services.turn_play(
                game_id=game.pk,
                user=other,
                at=move.at,
                rotation=move.rotation,
                follower=move.follower,
            )
    rating = WinterRating.objects.get(user=other)
    shown = _shown(Client(), game)
    assert len(shown) == 2
    assert shown[0].startswith(f"{other.username}: 1500 → {rating.display} (+")
