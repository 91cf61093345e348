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
from django.utils import timezone

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
    time_machine.move_to(timezone.now() + datetime.timedelta(days=1))
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
        banned_until=timezone.now() + datetime.timedelta(days=30)
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


def answered(puzzle: Puzzle, user: User) -> Attempt:
    return Attempt.objects.create(
        puzzle=puzzle,
        user=user,
        turn={},
        value=0,
        result="solved",
        rating_before=1,
        rating_after=1,
    )


def test_the_next_puzzle_is_drawn_near_the_rating_among_unanswered_ones_in_a_few_queries(
    client_logged_in: Client,
    user: User,
    puzzles: list[Puzzle],
    django_assert_max_num_queries: Any,
) -> None:
    assert len(puzzles) >= 5
    for offset, puzzle in enumerate(puzzles):
        Puzzle.objects.filter(pk=puzzle.pk).update(rating=1000 + 100 * offset)
    PuzzlePlayer.objects.create(user=user, rating=1190)

    def drawn() -> set[Puzzle | None]:
        return {selectors.next_puzzle(user, 1190, seed=n) for n in range(40)}

    # Some spread: the 1100 and the 1200 (within SPREAD), never the 1000 nor the 1300.
    assert selectors.SPREAD == 100
    assert drawn() == {puzzles[1], puzzles[2]}
    # A draw is the same for the same seed: a reload offers the same puzzle.
    assert len({selectors.next_puzzle(user, 1190, seed=("a", 3)) for _ in range(5)}) == 1
    answered(puzzles[2], user)
    assert drawn() == {puzzles[1]}
    # None left within the spread: the nearest one (the 1300, 110 away, not the 1000).
    answered(puzzles[1], user)
    assert drawn() == {puzzles[3]}
    # Session, user, player, the two walks of the rating index, the menu's badges: no more
    # (the day's puzzle, which the walks leave out, is read once a day, then cached).
    assert client_logged_in.get(reverse("puzzles:index")).status_code == 200
    with django_assert_max_num_queries(6):
        page = client_logged_in.get(reverse("puzzles:index")).content.decode()
    assert f'data-puzzle="{puzzles[3].pk}"' in page
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


def shown_puzzle(page: str) -> int:
    found = re.search(r'data-puzzle="(\d+)"', page)
    assert found is not None
    return int(found.group(1))


def test_a_newcomer_never_spends_the_daily_puzzle_on_the_next_puzzle(
    client: Client,
    user: User,
    puzzles: list[Puzzle],
    time_machine: time_machine.TimeMachineFixture,
) -> None:
    daily_url = reverse("puzzles:daily")
    for day in (10, 11, 12):  # a site younger than the day, then older ones
        time_machine.move_to(datetime.datetime(2026, 6, day, 12, 0, tzinfo=datetime.UTC))
        daily = shown_puzzle(client.get(daily_url).content.decode())
        # A visitor's first puzzle, and every one after it, is another one.
        visitor = Client()
        for _ in puzzles:
            page = visitor.get(reverse("puzzles:index")).content.decode()
            if 'data-testid="no-puzzle"' in page:
                break
            number = shown_puzzle(page)
            assert number != daily
            puzzle = Puzzle.objects.get(pk=number)
            visitor.post(answer_url(puzzle), fields(a_missing_turn(puzzle)[0]))
        # A newcomer signed in answers every puzzle the next puzzle offers: not the daily one.
        newcomer = Client()
        newcomer.force_login(UserFactory())
        offered = []
        for _ in puzzles:
            page = newcomer.get(reverse("puzzles:index")).content.decode()
            if 'data-testid="no-puzzle"' in page:
                break
            puzzle = Puzzle.objects.get(pk=shown_puzzle(page))
            offered.append(puzzle.pk)
            newcomer.post(answer_url(puzzle), fields(a_missing_turn(puzzle)[0]))
        assert offered and daily not in offered
        assert len(offered) == len(puzzles) - 1
        # The day's puzzle still waits, a fresh board, and its own page says what it is.
        page = newcomer.get(daily_url).content.decode()
        assert shown_puzzle(page) == daily
        assert 'data-testid="result"' not in page and 'data-testid="submit-answer"' in page
        own = newcomer.get(reverse("puzzles:detail", kwargs={"pk": daily})).content.decode()
        assert 'data-testid="is-daily"' in own
        other = next(pk for pk in offered if pk != daily)
        other_page = newcomer.get(reverse("puzzles:detail", kwargs={"pk": other}))
        assert 'data-testid="is-daily"' not in other_page.content.decode()


def test_an_answer_redraws_the_status_line_with_the_new_rating(
    client_logged_in: Client, user: User, puzzles: list[Puzzle]
) -> None:
    puzzle = puzzles[0]
    before = client_logged_in.get(reverse("puzzles:detail", kwargs={"pk": puzzle.pk}))
    assert "Answer a puzzle to get a puzzle rating." in before.content.decode()
    best = fields(rules.turn_from_json(puzzle.best_turn))
    page = client_logged_in.post(answer_url(puzzle), best, **HTMX).content.decode()
    rating = round(PuzzlePlayer.objects.get(user=user).rating)
    assert rating > 1500
    # The board's fragment carries the status line out of band, with the new rating...
    line = re.search(
        r'<div id="puzzle-rating-line"[^>]*hx-swap-oob="true"[^>]*>(.*?)</div>', page, re.S
    )
    assert line is not None
    assert f"Your puzzle rating: <strong>{rating}</strong>" in line.group(1)
    assert "streak: 1 solve in a row" in line.group(1)
    # ... and the live region is told it: the grade, then the rating's move.
    announced = re.search(r"<p hidden data-announce>(.*?)</p>", page, re.S)
    assert announced is not None
    assert announced.group(1) == f"Solved! Your puzzle rating: 1500 → {rating}."
    # Drawn whole (no htmx), the page has one status line, not a second one out of band.
    whole = client_logged_in.post(answer_url(puzzle), best).content.decode()
    assert whole.count('id="puzzle-rating-line"') == 1 and "hx-swap-oob" not in whole


def test_a_retry_shows_its_grade_and_rates_nothing(
    client_logged_in: Client, user: User, puzzles: list[Puzzle]
) -> None:
    puzzle = puzzles[0]
    worst, loss = a_missing_turn(puzzle)
    assert loss > NEAR_MISS
    first = client_logged_in.post(answer_url(puzzle), fields(worst)).content.decode()
    assert 'data-grade="missed"' in first and 'data-testid="rating-change"' in first
    retry_url = reverse("puzzles:retry", kwargs={"pk": puzzle.pk})
    assert f'href="{retry_url}"' in first
    player = PuzzlePlayer.objects.get(user=user)
    puzzle.refresh_from_db()
    rated = (puzzle.rating, puzzle.rd, puzzle.attempts, puzzle.solves)
    # The retry page: a fresh board, its answer posted to the retry's own address.
    page = client_logged_in.get(retry_url).content.decode()
    assert 'data-testid="result"' not in page and 'data-testid="is-retry"' in page
    retry_answer_url = reverse("puzzles:retry_answer", kwargs={"pk": puzzle.pk})
    assert f'action="{retry_answer_url}"' in page
    # The second attempt finds the best turn: graded solved, and nothing moves.
    best = fields(rules.turn_from_json(puzzle.best_turn))
    page = client_logged_in.post(retry_answer_url, best, **HTMX).content.decode()
    assert 'data-grade="solved"' in page and 'data-testid="retry-note"' in page
    assert 'data-testid="rating-change"' not in page
    assert "Not rated: your first answer counts." in page
    again = PuzzlePlayer.objects.get(user=user)
    assert (again.rating, again.rd, again.streak, again.attempts) == (
        player.rating,
        player.rd,
        0,
        1,
    )
    puzzle.refresh_from_db()
    assert (puzzle.rating, puzzle.rd, puzzle.attempts, puzzle.solves) == rated
    assert list(Attempt.objects.filter(user=user).values_list("result", flat=True)) == ["missed"]
    # The puzzle's page still shows the first answer: the one that counts.
    shown = client_logged_in.get(reverse("puzzles:detail", kwargs={"pk": puzzle.pk}))
    assert 'data-grade="missed"' in shown.content.decode()


def test_a_retry_needs_a_first_answer(client: Client, user: User, puzzles: list[Puzzle]) -> None:
    puzzle = puzzles[0]
    retry_url = reverse("puzzles:retry", kwargs={"pk": puzzle.pk})
    retry_answer_url = reverse("puzzles:retry_answer", kwargs={"pk": puzzle.pk})
    best = fields(rules.turn_from_json(puzzle.best_turn))
    # A visitor is sent to sign in.
    assert client.get(retry_url)["Location"].startswith(reverse("account_login"))
    assert client.post(retry_answer_url, best)["Location"].startswith(reverse("account_login"))
    # A player who has not answered it: the puzzle's own page, whose answer is rated; a
    # retry's answer is refused and shows nothing of the computer's turn.
    client.force_login(user)
    response = client.get(retry_url)
    assert response.status_code == 302
    assert response["Location"] == reverse("puzzles:detail", kwargs={"pk": puzzle.pk})
    refused = client.post(retry_answer_url, fields(a_missing_turn(puzzle)[0]))
    assert refused.status_code == 400
    assert 'data-testid="error"' in refused.content.decode()
    assert 'data-testid="best-board"' not in refused.content.decode()
    assert not Attempt.objects.exists() and not PuzzlePlayer.objects.exists()
    # Its first answer is rated as ever.
    page = client.post(answer_url(puzzle), best).content.decode()
    assert 'data-testid="rating-change"' in page


def test_the_history_lists_ones_answers_a_page_at_a_time(
    client_logged_in: Client,
    user: User,
    puzzles: list[Puzzle],
    monkeypatch: pytest.MonkeyPatch,
    time_machine: time_machine.TimeMachineFixture,
) -> None:
    from puzzles import views

    monkeypatch.setattr(views, "HISTORY_PAGE", 2)
    url = reverse("puzzles:history")
    empty = client_logged_in.get(url).content.decode()
    assert 'data-testid="no-answers"' in empty
    # Linked from the puzzle page of a signed-in player.
    puzzle_page = client_logged_in.get(reverse("puzzles:index")).content.decode()
    assert f'href="{url}"' in puzzle_page
    solved, missed, seen = puzzles[0], puzzles[1], puzzles[2]
    client_logged_in.post(answer_url(solved), fields(rules.turn_from_json(solved.best_turn)))
    time_machine.move_to(timezone.now() + datetime.timedelta(hours=1))
    client_logged_in.post(answer_url(missed), fields(a_missing_turn(missed)[0]))
    time_machine.move_to(timezone.now() + datetime.timedelta(hours=1))
    Attempt.objects.create(
        puzzle=seen,
        user=user,
        turn={},
        value=0,
        result="near",
        rating_before=1480,
        rating_after=1480,
        rated=False,
    )
    # Someone else's answers are theirs.
    other = UserFactory()
    Attempt.objects.create(
        puzzle=puzzles[3],
        user=other,
        turn={},
        value=0,
        result="solved",
        rating_before=1500,
        rating_after=1600,
    )
    attempts = {a.puzzle_id: a for a in Attempt.objects.filter(user=user)}
    gain = round(attempts[solved.pk].rating_change)
    drop = round(attempts[missed.pk].rating_change)
    assert gain > 0 > drop

    def rows(page: str) -> list[tuple[int, str]]:
        found = re.findall(
            r'<tr data-testid="attempt" data-puzzle="(\d+)">.*?<td>(\w[\w ]*)</td>\s*'
            r'<td class="change" data-testid="change">(.*?)</td>',
            page,
            re.S,
        )
        return [(int(n), f"{grade}: {change}") for n, grade, change in found]

    first = client_logged_in.get(url).content.decode()
    # The latest first: the unrated one, then the miss; two a page.
    assert rows(first) == [
        (seen.pk, "Near miss: not rated"),
        (missed.pk, f"Missed: {drop} ({round(attempts[missed.pk].rating_after)})"),
    ]
    assert "Page 1 of 2" in first and 'href="?page=2"' in first
    second = client_logged_in.get(url, {"page": "2"}).content.decode()
    assert rows(second) == [
        (solved.pk, f"Solved: +{gain} ({round(attempts[solved.pk].rating_after)})")
    ]
    assert f'href="{reverse("puzzles:detail", kwargs={"pk": solved.pk})}"' in second
    assert f'data-puzzle="{puzzles[3].pk}"' not in first + second
    # A visitor has no history: signing in comes first.
    assert Client().get(url)["Location"].startswith(reverse("account_login"))


@pytest.mark.parametrize(
    "page", ["0", "-1", "3", "abc", "\x00", "1.5", "", "99999999999999999999999", "٢"]
)
def test_a_history_page_that_does_not_exist_is_a_404(
    client_logged_in: Client, user: User, puzzles: list[Puzzle], page: str
) -> None:
    for puzzle in puzzles[:3]:
        answered(puzzle, user)
    response = client_logged_in.get(reverse("puzzles:history"), {"page": page})
    assert response.status_code == 404


@pytest.mark.parametrize(
    "data",
    [
        {"rot": "\x00", "at": "0,1"},
        {"rot": "0", "at": "0,99999999999999999999999"},
        {"rot": "0"},
        {"rot": "0", "at": "9,9"},
    ],
)
def test_a_retry_that_cannot_be_read_or_played_is_refused(
    client_logged_in: Client, user: User, puzzles: list[Puzzle], data: dict[str, str]
) -> None:
    puzzle = puzzles[0]
    client_logged_in.post(answer_url(puzzle), fields(a_missing_turn(puzzle)[0]))
    rating = PuzzlePlayer.objects.get(user=user).rating
    shown = client_logged_in.get(reverse("puzzles:retry", kwargs={"pk": puzzle.pk}), data)
    refused = client_logged_in.post(reverse("puzzles:retry_answer", kwargs={"pk": puzzle.pk}), data)
    assert refused.status_code == 400 and 'data-testid="error"' in refused.content.decode()
    assert shown.status_code in (200, 400)
    assert PuzzlePlayer.objects.get(user=user).rating == rating
    assert Attempt.objects.count() == 1
    for address in (
        "/puzzles/99999999999999999999999/retry/",
        "/puzzles/99999999999999999999999/retry/answer/",
    ):
        assert client_logged_in.get(address).status_code in (404, 405)


@pytest.mark.parametrize(
    ("language", "history", "retry"),
    [
        ("cs", "Vaše odpovědi na úlohy", "Zkusit úlohu znovu"),
        ("de", "Deine Antworten auf Aufgaben", "Diese Aufgabe noch einmal versuchen"),
        ("fr", "Vos réponses aux problèmes", "Retenter ce problème"),
    ],
)
def test_the_history_and_the_retry_speak_the_players_language(
    client_logged_in: Client, puzzles: list[Puzzle], language: str, history: str, retry: str
) -> None:
    puzzle = puzzles[0]
    client_logged_in.post(answer_url(puzzle), fields(a_missing_turn(puzzle)[0]))
    page = client_logged_in.get(reverse("puzzles:history"), HTTP_ACCEPT_LANGUAGE=language)
    assert history in page.content.decode()
    shown = client_logged_in.get(
        reverse("puzzles:detail", kwargs={"pk": puzzle.pk}), HTTP_ACCEPT_LANGUAGE=language
    )
    assert retry in shown.content.decode()
