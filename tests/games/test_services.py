from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection

import rules
from accounts.models import User
from games import rebuild, services
from games.models import Game, Move, SoloResult
from games.signals import game_finished
from tests.factories import UserFactory, creator, reference_turn_for

if TYPE_CHECKING:
    from tests.conftest import Race

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]

Play = Callable[[Game, int], Game]


def snapshot(game: Game) -> tuple[object, ...]:
    game.refresh_from_db()
    moves = list(Move.objects.filter(seat__game=game).values_list("round", "card", "worker"))
    return (game.round, game.status, moves, SoloResult.objects.filter(game=game).count())


def test_a_new_solo_game_deals_sixteen_distinct_cards_from_its_seed(user: User) -> None:
    game = services.game_create_solo(user=user, seed=42)
    assert game.cards == list(rebuild.deck().deal(random.Random(42)))
    assert len(set(game.cards)) == 16
    assert game.ruleset == "standard"
    assert [seat.user for seat in game.seats.all()] == [user]


def test_a_new_game_without_a_seed_gets_a_fresh_one(user: User) -> None:
    first = services.game_create_solo(user=user)
    second = services.game_create_solo(user=user)
    assert first.seed != second.seed


def test_a_legal_round_is_stored_and_the_next_card_revealed(solo_game: Game) -> None:
    round_number, turn = reference_turn_for(solo_game)
    game = services.move_submit(
        game_id=solo_game.pk, user=creator(solo_game), round_number=round_number, turn=turn
    ).game
    move = Move.objects.get(seat__game=game)
    assert (move.round, move.card) == (1, game.cards[0])
    assert (move.card_row, move.card_col) == turn.placement.card_at
    assert move.rotation == turn.placement.rotation
    assert game.round == 2
    assert rebuild.rules_game(game).current_card == rebuild.deck().card(game.cards[1])


def test_an_illegal_round_names_the_rule_and_changes_nothing(
    solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 3)
    before = snapshot(game)
    turn = rules.Turn(rules.Placement((5, 5), 0))
    with pytest.raises(services.MoveRejected, match="would touch no placed card"):
        services.move_submit(game_id=game.pk, user=creator(game), round_number=4, turn=turn)
    assert snapshot(game) == before


def test_an_illegal_worker_action_rejects_the_whole_round(
    solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 2)
    before = snapshot(game)
    _round, legal = reference_turn_for(game)
    turn = rules.Turn(legal.placement, rules.PlaceWorker((40, 40)))
    with pytest.raises(services.MoveRejected, match="only be placed on the card placed"):
        services.move_submit(game_id=game.pk, user=creator(game), round_number=3, turn=turn)
    assert snapshot(game) == before


def test_a_round_that_is_not_current_is_refused(solo_game: Game, play_rounds: Play) -> None:
    game = play_rounds(solo_game, 2)
    _round, turn = reference_turn_for(game)
    before = snapshot(game)
    with pytest.raises(services.MoveRejected, match="not the round in play") as caught:
        services.move_submit(game_id=game.pk, user=creator(game), round_number=5, turn=turn)
    assert caught.value.status == 409
    assert snapshot(game) == before


def test_a_stranger_cannot_play_in_someone_elses_game(solo_game: Game) -> None:
    round_number, turn = reference_turn_for(solo_game)
    with pytest.raises(PermissionDenied):
        services.move_submit(
            game_id=solo_game.pk, user=UserFactory(), round_number=round_number, turn=turn
        )
    assert not Move.objects.exists()


def test_the_same_round_submitted_twice_is_applied_once(solo_game: Game) -> None:
    round_number, turn = reference_turn_for(solo_game)
    for _ in range(2):
        game = services.move_submit(
            game_id=solo_game.pk, user=creator(solo_game), round_number=round_number, turn=turn
        ).game
    assert Move.objects.filter(seat__game=game).count() == 1
    assert game.round == 2


def test_a_different_move_for_a_played_round_is_refused(solo_game: Game) -> None:
    round_number, turn = reference_turn_for(solo_game)
    services.move_submit(
        game_id=solo_game.pk, user=creator(solo_game), round_number=round_number, turn=turn
    )
    other = rules.Turn(rules.Placement((0, 0), (turn.placement.rotation + 90) % 360))
    with pytest.raises(services.MoveRejected, match="already played round 1"):
        services.move_submit(
            game_id=solo_game.pk, user=creator(solo_game), round_number=1, turn=other
        )
    assert Move.objects.filter(seat__game=solo_game).count() == 1


def test_a_finished_game_stores_the_score_the_rules_compute(
    solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 16)
    assert game.is_finished and game.round == 17 and game.finished_at is not None
    record = rules.game_to_record(rebuild.rules_game(game))
    replayed = rules.game_from_record(record).scores()[creator(game).username]
    seat = game.seats.get()
    assert seat.score == replayed.total
    assert seat.tiebreak == list(replayed.tiebreak)
    assert seat.place == 1
    result = SoloResult.objects.get(game=game)
    assert result.score == replayed.total
    assert result.rating == rules.solo_rating(replayed.total).value
    assert result.ruleset == "both"


def test_a_finished_game_takes_no_more_rounds(solo_game: Game, play_rounds: Play) -> None:
    game = play_rounds(solo_game, 16)
    before = snapshot(game)
    with pytest.raises(services.MoveRejected, match="over"):
        services.move_submit(
            game_id=game.pk,
            user=creator(game),
            round_number=17,
            turn=rules.Turn(rules.Placement((9, 9))),
        )
    assert snapshot(game) == before


def test_a_round_commit_takes_at_most_twelve_queries(
    solo_game: Game, play_rounds: Play, django_assert_max_num_queries: Callable[..., object]
) -> None:
    game = play_rounds(solo_game, 5)
    round_number, turn = reference_turn_for(game)
    with django_assert_max_num_queries(12):  # type: ignore[attr-defined]
        services.move_submit(
            game_id=game.pk, user=creator(game), round_number=round_number, turn=turn
        )


def test_the_final_round_commit_takes_a_bounded_number_of_queries(
    solo_game: Game, play_rounds: Play, django_assert_max_num_queries: Callable[..., object]
) -> None:
    game = play_rounds(solo_game, 15)
    round_number, turn = reference_turn_for(game)
    # 11 for the game itself, 1 for its analysis row; the rest writes the boards' tables in
    # the same transaction (a player's first result creates their rows: the most it costs).
    with django_assert_max_num_queries(27):  # type: ignore[attr-defined]
        game = services.move_submit(
            game_id=game.pk, user=creator(game), round_number=round_number, turn=turn
        ).game
    assert game.is_finished


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_submissions_of_a_round_apply_it_once(race: Race) -> None:
    player = UserFactory()
    game = services.game_create_solo(user=player, seed=3)
    round_number, turn = reference_turn_for(game)
    other = rules.Turn(rules.Placement((0, 0), (turn.placement.rotation + 90) % 360))

    def submit(chosen: rules.Turn) -> Callable[[], str]:
        def action() -> str:
            services.move_submit(
                game_id=game.pk, user=player, round_number=round_number, turn=chosen
            )
            return "applied"

        return action

    results = race(submit(turn), submit(other), refusals=(services.MoveRejected,))
    outcomes = ["rejected" if isinstance(r, services.MoveRejected) else r for r in results]
    assert sorted(outcomes) == ["applied", "rejected"]
    assert Move.objects.filter(seat__game=game).count() == 1
    game.refresh_from_db()
    assert game.round == 2


def test_finishing_a_game_sends_game_finished_once_with_the_final_seats(
    solo_game: Game, play_rounds: Play
) -> None:
    heard: list[dict[str, object]] = []

    def listen(sender: type[Game], **event: object) -> None:
        # Inside the finishing transaction: the result is there before it commits.
        assert connection.in_atomic_block
        heard.append(event)

    game_finished.connect(listen)
    try:
        game = play_rounds(solo_game, 16)
    finally:
        game_finished.disconnect(listen)
    assert len(heard) == 1
    event = heard[0]
    assert event["game"] == game and game.is_finished
    seats = event["seats"]
    assert [seat.score for seat in seats] == [SoloResult.objects.get(game=game).score]  # type: ignore[attr-defined]
    assert event["state"].is_over  # type: ignore[attr-defined]


def test_a_receiver_that_fails_undoes_the_finish(solo_game: Game, play_rounds: Play) -> None:
    game = play_rounds(solo_game, 15)
    before = snapshot(game)

    def fail(sender: type[Game], **event: object) -> None:
        raise RuntimeError("the boards could not be written")

    game_finished.connect(fail)
    try:
        round_number, turn = reference_turn_for(game)
        with pytest.raises(RuntimeError):
            services.move_submit(
                game_id=game.pk, user=creator(game), round_number=round_number, turn=turn
            )
    finally:
        game_finished.disconnect(fail)
    assert snapshot(game) == before
