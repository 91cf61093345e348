"""Computer players: seating them, their turns through the task queue, and refusals."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

import rules
import rules.bot
from accounts.models import User
from core.errors import ActionRefused
from floor.taskqueue import COMPUTERS
from games import computer, rebuild, services
from games.models import BotLevel, Game, Move, Seat
from leaderboards.models import PlayerRating, PlayerResult
from leaderboards.services import ratings_recompute
from tests.factories import PASSWORD, UserFactory, play_turn

pytestmark = pytest.mark.django_db

Committed = Callable[[], AbstractContextManager[Any]]


def client_for(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def bot_game(user: User, committed: Committed, levels: list[str], **options: Any) -> Game:
    with committed():
        game = services.game_create_multi(
            user=user, seats_max=len(levels) + 1, pace=Game.Pace.LIVE, bots=levels, **options
        )
    game.refresh_from_db()
    return game


def rounds_of(game: Game) -> dict[str, int]:
    return {seat.player_key: seat.moves.count() for seat in game.seats.select_related("user")}


def test_a_game_full_of_bots_starts_and_the_bots_play_the_first_card_at_once(
    user: User, committed: Committed
) -> None:
    game = bot_game(user, committed, ["easy", "strong"])
    assert game.is_active
    names = [seat.display_name for seat in game.seats.order_by("position")]
    assert names == [user.username, "Computer 2 (easy)", "Computer 3 (strong)"]
    assert rounds_of(game) == {
        user.username: 0,
        "Computer 2 (easy)": 1,
        "Computer 3 (strong)": 1,
    }
    state = rebuild.rules_game(game)
    assert state.round == 1 and state.waiting_for() == [user.username]


def test_a_whole_game_against_bots_ends_unrated_and_only_the_person_has_a_result(
    user: User, committed: Committed
) -> None:
    game = bot_game(user, committed, ["reference", "strong"])
    for round_number in range(1, 17):
        with committed():
            game = play_turn(game, user)
        game.refresh_from_db()
        if round_number < 16:
            # The bots played the next card as soon as it was revealed.
            assert set(rounds_of(game).values()) == {round_number, round_number + 1}
    assert game.is_finished
    assert set(rounds_of(game).values()) == {16}
    seats = list(game.seats.all())
    assert all(seat.score is not None and seat.place is not None for seat in seats)
    assert all(seat.rating_after is None for seat in seats)
    assert not PlayerRating.objects.exists()
    assert list(PlayerResult.objects.values_list("user", flat=True)) == [user.pk]
    # Replaying every rated game leaves it out too.
    assert ratings_recompute() == 0
    assert not PlayerRating.objects.exists()


def test_the_last_person_leaving_in_the_last_round_ends_the_game_with_the_computers_in_it(
    user: User, committed: Committed
) -> None:
    game = bot_game(user, committed, ["easy", "easy"])
    for _round in range(15):
        with committed():
            game = play_turn(game, user)
    game.refresh_from_db()
    # The computers have played the 16th card; the person resigns instead of playing it.
    assert set(rounds_of(game).values()) == {15, 16}
    with committed():
        game = services.seat_resign(game=game, user=user)
    game.refresh_from_db()
    assert game.is_finished
    seats = {seat.player_key: seat for seat in game.seats.all()}
    assert seats[user.username].status == Seat.Status.RESIGNED
    assert seats[user.username].place == 3
    # The computers played every round: they finished the game, they did not leave it.
    bots = [seat for key, seat in seats.items() if key != user.username]
    assert all(seat.status == Seat.Status.PLAYING and seat.score is not None for seat in bots)


def test_the_bot_sees_this_rounds_card_and_the_unseen_set_never_the_order(
    user: User, committed: Committed, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, frozenset[int]]] = []
    real = rules.bot.bot_turn

    def spy(board: rules.Board, card: rules.Card, **kwargs: Any) -> rules.Turn:
        seen.append((card.number, frozenset(c.number for c in kwargs["unseen"])))
        return real(board, card, **kwargs)

    monkeypatch.setattr(rules.bot, "bot_turn", spy)
    game = bot_game(user, committed, ["strong"])
    with committed():
        play_turn(game, user)
    deck_numbers = {card.number for card in rebuild.deck()}
    assert [number for number, _unseen in seen] == game.cards[:2]
    for index, (_number, unseen) in enumerate(seen):
        assert unseen == deck_numbers - set(game.cards[: index + 1])


def test_a_computer_seat_thinks_on_the_workers_own_cpu_for_about_a_second(
    user: User, committed: Committed, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The master's budget is the task worker's thread's CPU time, not the wall clock.
    budgets: list[rules.bot.Budget | None] = []
    real = rules.bot.bot_turn

    def spy(board: rules.Board, card: rules.Card, **kwargs: Any) -> rules.Turn:
        budgets.append(kwargs.get("budget"))
        return real(board, card, **kwargs)

    monkeypatch.setattr(rules.bot, "bot_turn", spy)
    bot_game(user, committed, ["strong"])
    assert budgets == [computer.SEAT_BUDGET]
    assert computer.SEAT_BUDGET.clock is time.thread_time
    assert computer.SEAT_BUDGET.seconds is not None and computer.SEAT_BUDGET.seconds <= 1.0


def test_a_bot_task_that_runs_twice_or_late_changes_nothing(
    user: User, committed: Committed
) -> None:
    game = bot_game(user, committed, ["easy"])
    moves = list(Move.objects.order_by("id").values_list("id", "seat", "round"))
    assert computer.bots_play(game_id=game.pk, round_number=1) == 0
    assert list(Move.objects.order_by("id").values_list("id", "seat", "round")) == moves
    with committed():
        play_turn(game, user)
    # Round 1's task arriving after the round moved on plays nothing.
    assert computer.bots_play(game_id=game.pk, round_number=1) == 0
    assert computer.bots_play(game_id=game.pk, round_number=2) == 0
    assert sorted(Move.objects.values_list("round", flat=True)) == [1, 1, 2]


def test_a_bot_seat_added_in_the_waiting_room_fills_it_and_starts_the_game(
    user: User, committed: Committed
) -> None:
    game = services.game_create_multi(user=user, seats_max=3, pace=Game.Pace.LIVE)
    client = client_for(user)
    with committed():
        client.post(reverse("games:add_bot", kwargs={"pk": game.pk}), {"level": "easy"})
    game.refresh_from_db()
    assert game.is_open and game.seats.filter(bot_level="easy").count() == 1
    page = client.get(reverse("games:detail", kwargs={"pk": game.pk})).content.decode()
    assert "Computer 2 (easy)" in page and "not rated" in page
    with committed():
        client.post(reverse("games:add_bot", kwargs={"pk": game.pk}), {"level": "strong"})
    game.refresh_from_db()
    assert game.is_active
    assert Move.objects.filter(seat__game=game).count() == 2


def test_a_bot_seat_for_a_started_game_is_refused_and_nothing_changes(
    user: User, committed: Committed
) -> None:
    rival = UserFactory()
    game = services.game_create_multi(user=user, seats_max=3, pace=Game.Pace.LIVE)
    services.game_join(game=game, user=rival)
    services.game_start(game=game, user=user)
    game.refresh_from_db()
    version = game.version
    response = client_for(user).post(
        reverse("games:add_bot", kwargs={"pk": game.pk}), {"level": "strong"}, follow=True
    )
    assert response.status_code == 200
    assert "This game has already started." in response.content.decode()
    game.refresh_from_db()
    assert (game.seats.count(), game.version) == (2, version)


def test_only_the_creator_adds_bots_and_only_known_levels_up_to_a_full_table(
    user: User,
) -> None:
    rival = UserFactory()
    game = services.game_create_multi(user=user, seats_max=2, pace=Game.Pace.LIVE)
    with pytest.raises(PermissionDenied):
        services.seat_add_bot(game=game, user=rival, level="easy")
    with pytest.raises(ActionRefused):
        services.seat_add_bot(game=game, user=user, level="grandmaster")
    with pytest.raises(ActionRefused):
        services.game_create_multi(
            user=user, seats_max=2, pace=Game.Pace.LIVE, bots=["easy", "easy"]
        )
    response = client_for(user).post(
        reverse("games:add_bot", kwargs={"pk": game.pk}), {"level": "x\x00" * 40}, follow=True
    )
    assert response.status_code == 200
    assert "Choose a level" in response.content.decode()
    assert game.seats.count() == 1


def test_the_creator_can_remove_a_bot_before_the_start(user: User) -> None:
    game = services.game_create_multi(user=user, seats_max=3, pace=Game.Pace.LIVE)
    seat = services.seat_add_bot(game=game, user=user, level="easy")
    client = client_for(user)
    client.post(reverse("games:remove_bot", kwargs={"pk": game.pk, "seat_pk": seat.pk}))
    assert not Seat.objects.filter(pk=seat.pk).exists()
    # Someone else's seat is no bot to remove.
    response = client.post(
        reverse("games:remove_bot", kwargs={"pk": game.pk, "seat_pk": game.seats.get().pk}),
        follow=True,
    )
    assert "No such computer player" in response.content.decode()
    assert game.seats.count() == 1


def test_the_lobby_form_opens_a_game_with_bots(user: User, committed: Committed) -> None:
    with committed():
        response = client_for(user).post(
            reverse("games:new_multi"),
            {
                "seats_max": 3,
                "pace": "live",
                "live_seconds": 300,
                "correspondence_seconds": 86400,
                "bots": 2,
                "bot_level": "strong",
            },
        )
    game = Game.objects.get()
    assert response["Location"] == reverse("games:detail", kwargs={"pk": game.pk})
    assert game.is_active
    assert list(game.seats.values_list("bot_level", flat=True)) == ["", "strong", "strong"]


def test_the_table_names_the_bots_as_computers(user: User, committed: Committed) -> None:
    game = bot_game(user, committed, ["strong"])
    with committed():
        play_turn(game, user)
    page = client_for(user).get(reverse("games:detail", kwargs={"pk": game.pk})).content.decode()
    assert 'data-bot="strong"' in page
    assert "Computer 2 (strong)" in page
    assert "The landscapes after round 1" in page


def test_staff_see_bot_seats_analyses_and_pars_in_the_admin(
    user: User, committed: Committed, client: Client
) -> None:
    game = bot_game(user, committed, ["strong"])
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "strong" in page
    seats = client.get(reverse("admin:games_seat_changelist")).content.decode()
    assert "Computer 2 (strong)" in seats
    for model in ("gameanalysis", "dailypar"):
        assert client.get(reverse(f"admin:games_{model}_changelist")).status_code == 200


def test_the_levels_a_game_seats_are_the_rules_levels_each_with_its_expected_score() -> None:
    offered = [str(level) for level in rules.bot.BotLevel if level not in rules.bot.LAB_LEVELS]
    assert BotLevel.values == offered
    labels = dict(BotLevel.choices_with_scores())
    assert labels["reference"] == "reference (scores about 37)"
    assert labels["strong"].startswith("strong (scores about ")
    # The master says it takes its time.
    assert labels["master"].startswith("master (thinks about a second a move, scores about ")


def test_a_master_seat_plays_its_turns_on_the_computers_queue(
    user: User, committed: Committed, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A small budget of replies: the same search, quick and deterministic in a test.
    monkeypatch.setattr(computer, "SEAT_BUDGET", rules.bot.Budget(seconds=None, replies=8))
    assert computer.bots_play_task.queue_name == COMPUTERS
    game = bot_game(user, committed, ["master"])
    assert [seat.display_name for seat in game.seats.order_by("position")][1] == (
        "Computer 2 (master)"
    )
    with committed():
        play_turn(game, user)
    assert rounds_of(game) == {user.username: 1, "Computer 2 (master)": 2}
