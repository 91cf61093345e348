"""Puzzles: made only from games anyone may see, graded by the rules' own valuation,
rated (Glicko-2) once per player and puzzle, chosen near the player's rating, daily."""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
import time_machine
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

import rules
import rules.bot
from accounts.models import User
from games import services as game_services
from games.models import Game
from puzzles import selectors, services
from puzzles.models import Attempt, Puzzle, PuzzlePlayer
from puzzles.positions import MIN_GAP, NEAR_MISS, Grade, find, grade, positions_of
from tests.factories import PASSWORD, UserFactory, play_turn
from tests.pages import HTMX

pytestmark = pytest.mark.django_db

Committed = Callable[[], Any]


def finish(game: Game, user: User, committed: Committed, rounds: int = 16) -> Game:
    for _ in range(rounds):
        if game.is_finished:
            break
        with committed():
            game = play_turn(game, user)
        game.refresh_from_db()
    return game


def fields(turn: rules.Turn) -> dict[str, str]:
    data = {"rot": str(turn.placement.rotation), "at": "{},{}".format(*turn.placement.card_at)}
    if isinstance(turn.worker, rules.PlaceWorker):
        data["place"] = "{},{}".format(*turn.worker.zone)
    elif isinstance(turn.worker, rules.MoveWorker):
        data["from"] = "{},{}".format(*turn.worker.source)
        data["to"] = "{},{}".format(*turn.worker.target)
    return data


def answer_url(puzzle: Puzzle) -> str:
    return reverse("puzzles:answer", kwargs={"pk": puzzle.pk})


def a_missing_turn(puzzle: Puzzle) -> tuple[rules.Turn, float]:
    """The turn of the puzzle worth least, and the points it gives away."""
    valued = selectors.position_of(puzzle).valued()
    return valued[-1][1], valued[0][0] - valued[-1][0]


@pytest.fixture
def puzzles() -> list[Puzzle]:
    assert services.puzzle_make_from_computer(games=2, seed=5) > 1
    return list(Puzzle.objects.order_by("pk"))


def test_an_analysed_game_makes_puzzles_that_show_nothing_of_its_later_cards(
    user: User, committed: Committed, client: Client
) -> None:
    game = finish(game_services.game_create_solo(user=user, seed=11), user, committed)
    # The analysis queued the puzzles' task when it was done (the immediate backend ran it).
    made = list(Puzzle.objects.filter(seat__game=game))
    assert made and all(p.origin == Puzzle.Origin.GAME for p in made)
    puzzle = made[-1]
    assert puzzle.cards == game.cards[: puzzle.round]
    later = set(game.cards[puzzle.round :])
    page = client.get(reverse("puzzles:detail", kwargs={"pk": puzzle.pk})).content.decode()
    # The hand shows the position's card; the landscape its earlier cards, no more.
    assert {int(n) for n in re.findall(r"Card (\d+)", page)} == {game.cards[puzzle.round - 1]}
    assert page.count("data-card-at=") == puzzle.round - 1
    assert f"/games/{game.pk}/" not in page
    # The answer draws the landscape after the best turn: the position's cards and its own.
    best = rules.turn_from_json(puzzle.best_turn)
    answered = client.post(answer_url(puzzle), fields(best)).content.decode()
    assert 'data-grade="solved"' in answered
    assert answered.count("data-card-at=") == puzzle.round
    assert not {int(n) for n in re.findall(r"Card (\d+)", answered)} & later
    assert f"/games/{game.pk}/" not in answered
    # Made again (the task runs twice): nothing new.
    assert services.puzzle_make_from_game(game_id=game.pk) == 0


def test_a_game_in_play_a_hidden_game_and_todays_daily_deal_make_no_puzzle(
    user: User, committed: Committed, time_machine: time_machine.TimeMachineFixture
) -> None:
    in_play = finish(game_services.game_create_solo(user=user, seed=3), user, committed, rounds=8)
    assert in_play.is_active
    assert services.puzzle_make_from_game(game_id=in_play.pk) == 0
    daily = finish(game_services.game_create_daily(user=user), user, committed)
    assert daily.is_finished and daily.daily is not None
    assert not Puzzle.objects.exists()
    assert services.puzzle_make_from_game(game_id=daily.pk) == 0
    # Once the day is over, its deal is everyone's: its positions may become puzzles.
    time_machine.move_to(datetime.datetime(2026, 6, 11, 12, 0, tzinfo=datetime.UTC))
    assert services.puzzle_make_from_game(game_id=daily.pk) > 0
    hidden = finish(game_services.game_create_solo(user=user, seed=11), user, committed)
    Puzzle.objects.all().delete()
    assert services.puzzle_make_from_game(game_id=hidden.pk) > 0
    Puzzle.objects.all().delete()
    Game.objects.filter(pk=hidden.pk).update(hidden=True)
    assert services.puzzle_make_from_game(game_id=hidden.pk) == 0
    # A banned player's games make none either.
    Game.objects.filter(pk=hidden.pk).update(hidden=False)
    User.objects.filter(pk=user.pk).update(
        banned_until=datetime.datetime(2027, 1, 1, tzinfo=datetime.UTC)
    )
    assert services.puzzle_make_from_game(game_id=hidden.pk) == 0


def test_a_puzzle_is_clear_and_graded_as_the_analysis_values_turns() -> None:
    the_deck = rules.load_deck(rules.DEFAULT_DECK_PATH)
    cards = [the_deck.card(n) for n in range(1, 17)]
    board, turns = rules.Board(), []
    for card in cards:
        turn = rules.reference_turn(board, card, rules.Variants())
        turns.append(turn)
        board = board.play(card, turn)
    found = [f for p in positions_of(cards, turns, rules.Variants(), the_deck) if (f := find(p))]
    assert found
    for puzzle in found:
        position = puzzle.position
        assert puzzle.gap >= MIN_GAP
        # The rules' own assessment (what the post-game analysis stores) agrees.
        assessed = rules.bot.assess_turn(
            position.board, position.card, puzzle.best, unseen=position.unseen
        )
        assert assessed.best_value == pytest.approx(puzzle.best_value)
        worst = position.valued()[-1][1]
        assessed = rules.bot.assess_turn(
            position.board, position.card, worst, unseen=position.unseen
        )
        assert position.value_of(worst) == pytest.approx(assessed.played_value)
    assert grade(0.0) == Grade.SOLVED
    assert grade(NEAR_MISS) == Grade.NEAR
    assert grade(NEAR_MISS + 0.01) == Grade.MISSED


def test_a_solve_raises_the_rating_a_miss_lowers_it_and_a_second_submit_changes_nothing(
    client_logged_in: Client, user: User, puzzles: list[Puzzle]
) -> None:
    first, second = puzzles[0], puzzles[1]
    best = rules.turn_from_json(first.best_turn)
    response = client_logged_in.post(answer_url(first), fields(best), **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-grade="solved"' in page and 'data-testid="best-board"' in page
    assert "<html" not in page  # the board's fragment for htmx
    player = PuzzlePlayer.objects.get(user=user)
    assert player.rating > 1500 and player.streak == 1
    first.refresh_from_db()
    assert first.rating < 1500 and first.attempts == 1 and first.solves == 1
    # A double submit of another turn: the first answer stands, nothing moves.
    worst, loss = a_missing_turn(first)
    again = client_logged_in.post(answer_url(first), fields(worst))
    assert 'data-grade="solved"' in again.content.decode()
    assert "your first answer counts" in again.content.decode()
    assert Attempt.objects.filter(user=user).count() == 1
    player_again = PuzzlePlayer.objects.get(user=user)
    assert (player_again.rating, player_again.streak) == (player.rating, 1)
    # A miss: down it goes, and the streak starts again.
    worst, loss = a_missing_turn(second)
    assert loss > NEAR_MISS
    page = client_logged_in.post(answer_url(second), fields(worst)).content.decode()
    assert 'data-grade="missed"' in page and 'data-testid="own-board"' in page
    after = PuzzlePlayer.objects.get(user=user)
    assert after.rating < player.rating and after.streak == 0 and after.best_streak == 1
    # The puzzle page shows the answer given, not a fresh board.
    shown = client_logged_in.get(reverse("puzzles:detail", kwargs={"pk": second.pk}))
    assert 'data-grade="missed"' in shown.content.decode()


def test_a_visitor_is_graded_but_not_rated_and_gets_another_puzzle_next(
    client: Client, puzzles: list[Puzzle]
) -> None:
    first = client.get(reverse("puzzles:index"))
    number = int(re.findall(r'data-puzzle="(\d+)"', first.content.decode())[0])
    puzzle = Puzzle.objects.get(pk=number)
    response = client.post(answer_url(puzzle), fields(rules.turn_from_json(puzzle.best_turn)))
    assert 'data-grade="solved"' in response.content.decode()
    assert not Attempt.objects.exists() and not PuzzlePlayer.objects.exists()
    assert "sign in to have your answers rated" in response.content.decode()
    following = client.get(reverse("puzzles:index")).content.decode()
    assert f'data-puzzle="{number}"' not in following


def test_a_solution_seen_signed_out_is_not_rated_once_signed_in(
    client: Client, user: User, puzzles: list[Puzzle]
) -> None:
    farmed, fresh = puzzles[0], puzzles[1]
    # Signed out, a solve shows the computer's turn (the visitor's own).
    shown = client.post(answer_url(farmed), fields(rules.turn_from_json(farmed.best_turn)))
    assert 'data-testid="best-board"' in shown.content.decode()
    signed_in = client.post(
        reverse("account_login"), {"login": user.username, "password": PASSWORD}, follow=True
    )
    assert signed_in.context["user"] == user
    best = fields(rules.turn_from_json(farmed.best_turn))
    page = client.post(answer_url(farmed), best).content.decode()
    assert 'data-grade="solved"' in page
    assert 'data-testid="not-rated"' in page and 'data-testid="rating-change"' not in page
    player = PuzzlePlayer.objects.get(user=user)
    assert (player.rating, player.streak, player.attempts) == (1500, 0, 0)
    farmed.refresh_from_db()
    assert (farmed.rating, farmed.attempts) == (1500, 0)
    # Nor later, in a session that never saw it: the unrated answer is the player's one.
    client.logout()
    client.force_login(user)
    client.post(answer_url(farmed), best)
    assert PuzzlePlayer.objects.get(user=user).rating == 1500
    # The next puzzle is one not seen; a puzzle not seen signed out is rated as ever.
    page = client.post(answer_url(fresh), fields(a_missing_turn(fresh)[0])).content.decode()
    assert 'data-testid="rating-change"' in page
    assert PuzzlePlayer.objects.get(user=user).rating < 1500


def test_a_signed_out_miss_hands_no_account_the_computers_turn(
    client: Client, user: User, puzzles: list[Puzzle]
) -> None:
    # The farm: answer anything signed out (any session), read the best turn, then answer
    # it rated. A visitor's miss shows how much it gave away, never the turn that beats it.
    puzzle = puzzles[0]
    page = client.post(answer_url(puzzle), fields(a_missing_turn(puzzle)[0])).content.decode()
    assert 'data-grade="' in page and 'data-grade="solved"' not in page
    assert 'data-testid="best-board"' not in page
    assert "The better turn" not in page
    assert 'data-testid="sign-in-for-solution"' in page
    # A signed-in player's miss is rated, and then shows it.
    player = Client()
    player.force_login(user)
    page = player.post(answer_url(puzzle), fields(a_missing_turn(puzzle)[0])).content.decode()
    assert 'data-testid="rating-change"' in page
    assert 'data-testid="best-board"' in page


@pytest.mark.parametrize(
    "data",
    [
        {"rot": "\x00", "at": "0,1"},
        {"rot": "99999999999999999999999", "at": "0,1"},
        {"rot": "0", "at": "١,٢"},
        {"rot": "0", "at": "0,99999999999999999999999"},
        {"rot": "0"},
        {"rot": "0", "at": "9,9"},
        {"rot": "0", "at": "0,1", "place": "40,40"},
    ],
)
def test_a_turn_that_cannot_be_read_or_played_is_refused_and_changes_nothing(
    client_logged_in: Client, puzzles: list[Puzzle], data: dict[str, str]
) -> None:
    puzzle = puzzles[0]
    response = client_logged_in.post(answer_url(puzzle), data)
    assert response.status_code == 400
    assert 'data-testid="error"' in response.content.decode()
    assert not Attempt.objects.exists() and not PuzzlePlayer.objects.exists()
    puzzle.refresh_from_db()
    assert puzzle.attempts == 0 and puzzle.rating == 1500


def test_the_next_puzzle_is_the_nearest_unanswered_one_in_a_few_queries(
    client_logged_in: Client,
    user: User,
    puzzles: list[Puzzle],
    django_assert_max_num_queries: Any,
) -> None:
    for offset, puzzle in enumerate(puzzles):
        Puzzle.objects.filter(pk=puzzle.pk).update(rating=1000 + 100 * offset)
    PuzzlePlayer.objects.create(user=user, rating=1190)
    nearest = puzzles[2]  # 1200
    assert selectors.next_puzzle(user, 1190) == nearest
    Attempt.objects.create(
        puzzle=nearest,
        user=user,
        turn={},
        value=0,
        result="solved",
        rating_before=1,
        rating_after=1,
    )
    assert selectors.next_puzzle(user, 1190) == puzzles[1]  # 1100 beats 1300
    # Session, user, player, the two walks of the rating index, the menu's badges: no more.
    with django_assert_max_num_queries(6):
        page = client_logged_in.get(reverse("puzzles:index")).content.decode()
    assert f'data-puzzle="{puzzles[1].pk}"' in page
    assert "Your puzzle rating: <strong>1190</strong>" in page


def test_the_daily_puzzle_is_the_same_for_everyone_all_day(
    client: Client, puzzles: list[Puzzle], time_machine: time_machine.TimeMachineFixture
) -> None:
    other = Client()
    other.force_login(UserFactory())
    url = reverse("puzzles:daily")

    def shown(who: Client) -> str:
        found = re.search(r'data-puzzle="(\d+)"', who.get(url).content.decode())
        assert found is not None
        return found.group(1)

    morning = shown(client)
    assert shown(other) == morning
    time_machine.move_to(datetime.datetime(2026, 6, 10, 23, 0, tzinfo=datetime.UTC))
    services.puzzle_make_from_computer(games=2, seed=6)  # made during the day
    assert shown(client) == morning == shown(other)
    days = set()
    for day in range(11, 18):
        time_machine.move_to(datetime.datetime(2026, 6, day, 12, 0, tzinfo=datetime.UTC))
        days.add(shown(client))
    assert len(days) > 1


def test_make_puzzles_makes_them_from_computer_games_once(puzzles: list[Puzzle]) -> None:
    out = io.StringIO()
    call_command("make_puzzles", "--from-computer-games", "2", "--seed", "5", stdout=out)
    # The fixture made these very games' puzzles: nothing new.
    assert out.getvalue().strip() == "0 new puzzles."
    assert Puzzle.objects.count() == len(puzzles)


def test_the_demo_puzzles_load_once(puzzles: list[Puzzle]) -> None:
    call_command("load_demo_puzzles", stdout=io.StringIO())
    count = Puzzle.objects.count()
    assert count >= len(puzzles) + 20
    call_command("load_demo_puzzles", stdout=io.StringIO())
    assert Puzzle.objects.count() == count


def test_cookieless_signed_out_answers_add_no_session_row(puzzles: list[Puzzle]) -> None:
    puzzle = puzzles[0]
    best = fields(rules.turn_from_json(puzzle.best_turn))
    before = Session.objects.count()
    for _ in range(10):
        response = Client().post(answer_url(puzzle), best)
        assert 'data-grade="solved"' in response.content.decode()
    assert Session.objects.count() == before
    assert response.cookies["puzzles_seen"]["samesite"] == "Lax"


def test_a_tampered_seen_cookie_is_ignored(
    client: Client, user: User, puzzles: list[Puzzle]
) -> None:
    seen = puzzles[0]
    client.cookies["puzzles_seen"] = f"{seen.pk}:forged:signature"
    assert client.get(reverse("puzzles:index")).status_code == 200
    client.force_login(user)
    page = client.post(answer_url(seen), fields(rules.turn_from_json(seen.best_turn)))
    assert page.status_code == 200
    assert 'data-testid="rating-change"' in page.content.decode()
    assert PuzzlePlayer.objects.get(user=user).rating > 1500
