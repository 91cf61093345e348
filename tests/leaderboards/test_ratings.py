"""Multiplayer ratings: the update after a game, provisional players, inactivity, recompute."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import services as game_services
from games.models import Game, Seat
from leaderboards.models import PROVISIONAL_GAMES, PlayerRating
from leaderboards.rating import INITIAL
from tests.factories import (
    PlayerRatingFactory,
    UserFactory,
    finished_multi,
    play_turn,
    seat_user,
    started_game,
)
from tests.pages import board_names, board_url

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]


def rating_gain(seat: Seat) -> float:
    """How much the game moved the seat's rating (both figures are set once it is rated)."""
    assert seat.rating_before is not None and seat.rating_after is not None
    return seat.rating_after - seat.rating_before


def test_three_players_with_a_shared_first_place() -> None:
    ana, ben, cy = UserFactory.create_batch(3)
    game = finished_multi([ana, ben, cy], [1, 1, 3])

    seats = {seat.user_id: seat for seat in game.seats.all()}
    for user in (ana, ben, cy):
        assert seats[user.pk].rating_before == pytest.approx(INITIAL.ordinal)
    # The shared winners gain exactly alike; the last loses.
    assert seats[ana.pk].rating_after == seats[ben.pk].rating_after
    assert rating_gain(seats[ana.pk]) > 0
    assert rating_gain(seats[cy.pk]) < 0
    ratings = {r.user_id: r for r in PlayerRating.objects.all()}
    assert ratings[ana.pk].mu == ratings[ben.pk].mu > INITIAL.mu > ratings[cy.pk].mu
    assert ratings[cy.pk].ordinal == seats[cy.pk].rating_after
    assert {r.games for r in ratings.values()} == {1}


def test_a_second_game_starts_from_the_first_games_rating() -> None:
    ana, ben = UserFactory.create_batch(2)
    first = finished_multi([ana, ben], [1, 2])
    second = finished_multi([ana, ben], [2, 1])
    after_first = first.seats.get(user=ana).rating_after
    assert second.seats.get(user=ana).rating_before == after_first
    assert PlayerRating.objects.get(user=ana).games == 2


def test_ratings_are_kept_per_ruleset() -> None:
    ana, ben = UserFactory.create_batch(2)
    finished_multi([ana, ben], [1, 2], ruleset="ferryman")
    assert set(PlayerRating.objects.values_list("ruleset", flat=True)) == {"ferryman"}


def test_a_real_game_resigning_counts_as_last_and_equal_landscapes_share_first() -> None:
    ana, ben, cy = (UserFactory(username=name) for name in ("ana", "ben", "cy"))
    game = started_game([ana, ben, cy])
    play_turn(game, ana)
    play_turn(game, ben)
    game_services.seat_resign(game=game, user=cy)
    # ana and ben play the same cards the same way: equal landscapes, a shared first place.
    game.refresh_from_db()
    while not game.is_finished:
        play_turn(game, ana)
        game = play_turn(game, ben)
        game.refresh_from_db()

    seats = {seat_user(seat).username: seat for seat in game.seats.select_related("user")}
    assert seats["ana"].place == seats["ben"].place == 1
    assert seats["cy"].place == 3
    assert seats["ana"].rating_after == seats["ben"].rating_after
    assert rating_gain(seats["ana"]) > 0
    assert rating_gain(seats["cy"]) < 0
    assert PlayerRating.objects.filter(games=1).count() == 3


def test_a_player_is_provisional_and_off_the_board_until_five_rated_games(client: Client) -> None:
    PlayerRatingFactory(user__username="newcomer", games=PROVISIONAL_GAMES - 1, mu=40)
    PlayerRatingFactory(user__username="regular", games=PROVISIONAL_GAMES, mu=30)
    assert board_names(client, board_url("standard", "rating")) == ["regular"]


def test_provisional_rating_is_marked_on_the_profile(client: Client) -> None:
    rating = PlayerRatingFactory(games=PROVISIONAL_GAMES - 1)
    page = client.get(f"/players/{rating.user.username}/").content.decode()
    assert 'data-testid="provisional"' in page
    rating.games = PROVISIONAL_GAMES
    rating.save()
    assert (
        'data-testid="provisional"'
        not in client.get(f"/players/{rating.user.username}/").content.decode()
    )


def test_players_inactive_for_90_days_drop_off_but_keep_their_rating(client: Client) -> None:
    now = timezone.now()
    PlayerRatingFactory(user__username="away", last_game_at=now - datetime.timedelta(days=91))
    PlayerRatingFactory(user__username="back", last_game_at=now - datetime.timedelta(days=89))
    assert board_names(client, board_url("standard", "rating")) == ["back"]
    assert PlayerRating.objects.get(user__username="away").games == 5


def ratings_now() -> dict[int, tuple[float, float, int]]:
    return {
        r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.games) for r in PlayerRating.objects.all()
    }


def test_recompute_replays_games_in_order_and_skips_hidden_ones() -> None:
    ana, ben, cy = UserFactory.create_batch(3)
    finished_multi([ana, ben, cy], [1, 2, 3])
    hidden = finished_multi([ana, ben], [2, 1])
    finished_multi([cy, ben], [1, 1])
    incremental = ratings_now()

    call_command("recompute_ratings", verbosity=0)
    assert ratings_now() == incremental

    Game.objects.filter(pk=hidden.pk).update(hidden=True)
    call_command("recompute_ratings", verbosity=0)
    assert PlayerRating.objects.get(user=ana).games == 1
    assert PlayerRating.objects.get(user=ben).games == 2
    assert list(hidden.seats.values_list("rating_before", "rating_after")) == [(None, None)] * 2


def test_solo_games_are_not_rated(play_rounds: Callable[[Game, int], Game], user: User) -> None:
    play_rounds(game_services.game_create_solo(user=user, seed=3), 16)
    assert not PlayerRating.objects.exists()
    assert Seat.objects.get(user=user).rating_after is None


def test_a_game_nobody_played_a_card_of_is_not_rated(time_machine: Any) -> None:
    # Accepted, then left to the clock by both: rated, it would farm points (issue #51).
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = started_game([ana, ben])
    assert game.deadline is not None
    time_machine.move_to(game.deadline + datetime.timedelta(seconds=1))
    game_services.deadlines_enforce(game=game)
    game.refresh_from_db()
    assert game.is_finished
    assert list(game.seats.values_list("rating_before", "rating_after")) == [(None, None)] * 2
    assert not PlayerRating.objects.filter(games__gt=0).exists()
    call_command("recompute_ratings", verbosity=0)
    assert not PlayerRating.objects.filter(games__gt=0).exists()
    assert list(game.seats.values_list("rating_before", "rating_after")) == [(None, None)] * 2


def test_a_game_one_player_left_to_the_clock_is_rated(time_machine: Any) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = started_game([ana, ben])
    play_turn(game, ana)
    game.refresh_from_db()
    assert game.deadline is not None
    time_machine.move_to(game.deadline + datetime.timedelta(seconds=1))
    game_services.deadlines_enforce(game=game)
    game.refresh_from_db()
    while not game.is_finished:  # Ana plays on alone
        game = play_turn(game, ana)
    seats = {seat_user(seat).username: seat for seat in game.seats.select_related("user")}
    assert rating_gain(seats["ana"]) > 0 > rating_gain(seats["ben"])
    incremental = ratings_now()
    call_command("recompute_ratings", verbosity=0)
    assert ratings_now() == incremental
