"""Winter ratings: a finished game of two or more people updates theirs (openskill)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

import winter
from accounts.models import User
from leaderboards import services
from leaderboards.models import PlayerRating, WinterRating
from leaderboards.rating import INITIAL
from tests.factories import UserFactory
from wintergames import services as winter_services
from wintergames.models import WinterGame, WinterSeat
from wintergames.rebuild import winter_game
from wintergames.signals import winter_game_finished

pytestmark = pytest.mark.django_db


def _finished(
    people: list[User], *, computers: int = 0, resigned: tuple[int, ...] = ()
) -> tuple[WinterGame, list[WinterSeat]]:
    game = WinterGame.objects.create(
        seed=1, status=WinterGame.Status.FINISHED, finished_at=timezone.now()
    )
    seats = [
        WinterSeat(game=game, position=i, user=u, resigned=i in resigned)
        for i, u in enumerate(people)
    ]
    seats += [
        WinterSeat(game=game, position=len(people) + i, bot_level="easy") for i in range(computers)
    ]
    for place, seat in enumerate(seats, 1):
        seat.place, seat.score = place, 50 - place
    WinterSeat.objects.bulk_create(seats)
    return game, list(game.seats.select_related("user").order_by("position"))


def _send(game: WinterGame, seats: list[WinterSeat]) -> None:
    winter_game_finished.send(sender=WinterGame, game=game, seats=seats, state=None)


def test_the_signal_rates_the_people_winner_up() -> None:
    first, second, third = UserFactory(), UserFactory(), UserFactory()
    _send(*_finished([first, second, third]))
    ratings = {r.user_id: r for r in WinterRating.objects.all()}
    assert ratings[first.pk].ordinal > ratings[second.pk].ordinal > ratings[third.pk].ordinal
    assert all(r.games == 1 and r.last_game_at is not None for r in ratings.values())
    # Limes ratings are untouched: a rating per game.
    assert not PlayerRating.objects.exists()


def test_ratings_accumulate_over_games() -> None:
    a, b = UserFactory(), UserFactory()
    _send(*_finished([a, b]))
    once = WinterRating.objects.get(user=a).ordinal
    _send(*_finished([a, b]))
    rating = WinterRating.objects.get(user=a)
    assert rating.games == 2 and rating.ordinal > once


@pytest.mark.parametrize(
    ("people", "computers", "resigned"),
    [
        (1, 3, ()),  # one person against computers
        (1, 0, ()),  # alone
        (0, 2, ()),  # nobody but computers
        (2, 1, (0, 1)),  # every person resigned: computers played it out
    ],
)
def test_a_game_without_two_people_playing_is_not_rated(
    people: int, computers: int, resigned: tuple[int, ...]
) -> None:
    _send(
        *_finished([UserFactory() for _ in range(people)], computers=computers, resigned=resigned)
    )
    assert not WinterRating.objects.exists()


def test_people_beside_computers_are_rated_among_themselves() -> None:
    a, b = UserFactory(), UserFactory()
    game, seats = _finished([a, b], computers=2, resigned=(1,))
    assert [s.user_id for s in services.winter_rated_seats(seats)] == [a.pk, b.pk]
    _send(game, seats)
    assert WinterRating.objects.get(user=a).ordinal > INITIAL.ordinal
    assert WinterRating.objects.get(user=b).ordinal < WinterRating.objects.get(user=a).ordinal
    assert WinterRating.objects.count() == 2


def _state(game: WinterGame) -> winter.Game:
    game.refresh_from_db()
    return winter_game(game, list(game.seats.select_related("user").order_by("position")))


def test_a_game_of_two_people_played_to_its_end_rates_both(
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
        state = _state(game)
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
    winner, loser = WinterRating.objects.get(user=other), WinterRating.objects.get(user=user)
    assert winner.games == loser.games == 1
    assert winner.ordinal > loser.ordinal


def test_a_game_every_person_resigned_is_not_rated(
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
    with committed():
        winter_services.game_resign(game_id=game.pk, user=other)
    game.refresh_from_db()
    assert game.is_finished
    assert not WinterRating.objects.exists()


def _rated(user: User, *, games: int, ordinal: float) -> WinterRating:
    return WinterRating.objects.create(
        user=user, mu=25, sigma=8, ordinal=ordinal, games=games, last_game_at=timezone.now()
    )


def test_the_winter_board_lists_established_ratings_best_first(client: Any) -> None:
    best, second = UserFactory(username="best"), UserFactory(username="second")
    _rated(second, games=5, ordinal=1.0)
    _rated(best, games=9, ordinal=4.0)
    _rated(UserFactory(username="newcomer"), games=4, ordinal=9.0)  # provisional: off
    page = client.get("/leaderboards/winter/rating/").content.decode()
    assert page.index(">best<") < page.index(">second<")
    assert "newcomer" not in page
    assert "1596" in page  # 1500 + 24 × 4.0


def test_the_leaderboards_link_the_winter_board(client: Any) -> None:
    page = client.get("/leaderboards/standard/best/").content.decode()
    assert 'href="/leaderboards/winter/rating/"' in page


@pytest.mark.parametrize(
    "query", ["?page=0", "?page=-1", "?page=abc", "?page=%00", "?page=99999999999", "?page=2"]
)
def test_the_winter_board_takes_hostile_pages(client: Any, query: str) -> None:
    _rated(UserFactory(), games=5, ordinal=1.0)
    assert client.get(f"/leaderboards/winter/rating/{query}").status_code in (200, 404)


def test_the_winter_board_answers_htmx_with_the_table(client: Any) -> None:
    answer = client.get("/leaderboards/winter/rating/", headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert b'id="board-table"' in answer.content and b"<h1>" not in answer.content


def test_the_profile_shows_the_winter_rating(client: Any, user: User) -> None:
    assert (
        'data-testid="winter-rating"'
        not in client.get(f"/players/{user.username}/").content.decode()
    )
    _rated(user, games=2, ordinal=1.0)
    page = client.get(f"/players/{user.username}/").content.decode()
    assert 'data-testid="winter-rating-value">1524<' in page
    assert "2 rated games" in page


def test_a_receiver_that_fails_undoes_the_finish(user: User, committed: Callable[[], Any]) -> None:
    other = UserFactory()
    game = winter_services.game_create(
        user=user, players=2, computers=0, level="easy", farmers=True, pace="untimed", seed=3
    )
    winter_services.game_join(game_id=game.pk, user=other)

    def refuse(**_: object) -> None:
        raise RuntimeError("no")

    winter_game_finished.connect(refuse, dispatch_uid="test.refuse")
    try:
        with committed():
            winter_services.game_resign(game_id=game.pk, user=user)
        # The computer plays the game out in its task, whose transaction the refusal
        # undoes (the task backend records the failure).
        with committed():
            winter_services.game_resign(game_id=game.pk, user=other)
    finally:
        winter_game_finished.disconnect(dispatch_uid="test.refuse")
    game.refresh_from_db()
    assert not game.is_finished
    assert not WinterRating.objects.exists()
    assert not WinterSeat.objects.filter(game=game, place__isnull=False).exists()
