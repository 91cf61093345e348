"""Hints in solo games, the post-game analysis, and their refusals."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import rules
from accounts.models import User
from games import computer, rebuild, services
from games.models import Game, GameAnalysis, SeatAnalysis
from leaderboards.models import PlayerResult, SoloStanding
from tests.factories import PASSWORD, UserFactory, creator, play_turn, started_game
from tests.pages import HTMX

pytestmark = pytest.mark.django_db

Committed = Callable[[], Any]


def detail(game: Game) -> str:
    return reverse("games:detail", kwargs={"pk": game.pk})


def hint_url(game: Game) -> str:
    return reverse("games:hint", kwargs={"pk": game.pk})


def finish_solo(game: Game, user: User, committed: Committed) -> Game:
    while not game.is_finished:
        with committed():
            game = play_turn(game, user)
        game.refresh_from_db()
    return game


def test_a_hint_shows_the_strong_bots_turn_as_a_draft_that_commits(
    client_logged_in: Client, user: User, solo_game: Game
) -> None:
    page = client_logged_in.get(detail(solo_game)).content.decode()
    assert 'data-key="hint"' in page and 'aria-keyshortcuts="H"' in page
    response = client_logged_in.post(hint_url(solo_game), **HTMX)
    assert response.status_code == 200
    pushed = response["HX-Replace-Url"]
    assert pushed.startswith(detail(solo_game) + "?") and "at=" in pushed
    body = response.content.decode()
    assert "Commit: place card" in body and 'name="at"' in body
    assert 'data-testid="assisted-round"' in body
    solo_game.refresh_from_db()
    assert solo_game.assisted
    # The player accepts the draft as it is: the hinted turn is the round committed.
    state = rebuild.rules_game(solo_game)
    query = pushed.split("?", 1)[1]
    fields = dict(pair.split("=") for pair in query.split("&"))
    fields = {k: v.replace("%2C", ",") for k, v in fields.items()}
    client_logged_in.post(
        reverse("games:play", kwargs={"pk": solo_game.pk}), {"round": 1, **fields}
    )
    assert rebuild.rules_game(solo_game).round == state.round + 1
    page = client_logged_in.get(detail(solo_game)).content.decode()
    assert 'data-testid="assisted"' in page


def test_without_htmx_a_hint_redirects_to_the_draft(
    client_logged_in: Client, solo_game: Game
) -> None:
    response = client_logged_in.post(hint_url(solo_game))
    assert response.status_code == 302 and "at=" in response["Location"]


def test_an_assisted_game_stays_off_the_boards(
    user: User, solo_game: Game, committed: Committed, client_logged_in: Client
) -> None:
    client_logged_in.post(hint_url(solo_game))
    game = finish_solo(solo_game, user, committed)
    assert game.assisted
    assert PlayerResult.objects.get(user=user).hidden
    assert not SoloStanding.objects.filter(user=user).exists()
    page = client_logged_in.get(reverse("games:replay", kwargs={"pk": game.pk})).content.decode()
    assert 'data-testid="assisted"' in page
    final = client_logged_in.get(detail(game)).content.decode()
    assert 'data-testid="assisted-note"' in final


@pytest.mark.parametrize("case", ["finished", "daily", "other_person", "not_a_player"])
def test_a_hint_that_cannot_be_given_is_refused_and_changes_nothing(
    case: str, user: User, committed: Committed, play_rounds: Any
) -> None:
    client = Client()
    client.login(username=user.username, password=PASSWORD)
    expected = {
        "finished": (409, "This game is over."),
        "daily": (409, "The daily challenge is played without hints."),
        "other_person": (409, "Hints are only for games without other people."),
        "not_a_player": (403, "You do not play in this game."),
    }[case]
    if case == "finished":
        game = finish_solo(services.game_create_solo(user=user, seed=3), user, committed)
    elif case == "daily":
        game = services.game_create_daily(user=user)
    elif case == "other_person":
        game = started_game([user, UserFactory()])
    else:
        game = services.game_create_solo(user=UserFactory(), seed=3)
    game.refresh_from_db()
    version = game.version
    # Someone else's game answers in plain text: they have no board to show it on.
    headers = {} if case == "not_a_player" else HTMX
    response = client.post(hint_url(game), **headers)
    assert response.status_code == expected[0]
    assert expected[1] in response.content.decode()
    game.refresh_from_db()
    assert (game.assisted, game.version) == (False, version)


def test_a_hint_by_get_or_signed_out_is_refused(client: Client, solo_game: Game) -> None:
    assert client.post(hint_url(solo_game)).status_code == 302  # to the sign-in page
    client.force_login(creator(solo_game))
    assert client.get(hint_url(solo_game)).status_code == 405
    solo_game.refresh_from_db()
    assert not solo_game.assisted


def test_every_finished_game_is_analysed_once_and_shown(
    user: User, committed: Committed, client_logged_in: Client
) -> None:
    game = finish_solo(services.game_create_solo(user=user, seed=11), user, committed)
    analysis = GameAnalysis.objects.get(game=game)
    assert analysis.status == GameAnalysis.Status.DONE
    seat_analysis = SeatAnalysis.objects.get(analysis=analysis)
    assert [r["round"] for r in seat_analysis.rounds] == list(range(1, 17))
    assert all(r["best"] >= r["played"] for r in seat_analysis.rounds)
    assert 0 <= seat_analysis.accuracy <= 100
    # Stored once: running the task again computes nothing new.
    computer.game_analyse(game_id=game.pk)
    assert SeatAnalysis.objects.count() == 1
    page = client_logged_in.get(detail(game)).content.decode()
    assert 'data-testid="analysis-seat"' in page and 'data-testid="loss-chart"' in page
    assert f"accuracy {seat_analysis.accuracy:.0f}%" in page
    replay = client_logged_in.get(reverse("games:replay", kwargs={"pk": game.pk}))
    assert 'data-testid="analysis-seat"' in replay.content.decode()


def test_the_costliest_rounds_are_named_in_the_analysis_and_the_replay(
    user: User, client_logged_in: Client
) -> None:
    game = services.game_create_solo(user=user, seed=5)
    game.status, game.round = Game.Status.FINISHED, 17
    game.save()
    seat = game.seats.get()
    analysis = GameAnalysis.objects.create(game=game, status=GameAnalysis.Status.DONE)
    turn = {"card_at": [0, 0], "rotation": 0, "worker": {"place": [0, 0]}}
    better = {"card_at": [0, 0], "rotation": 0, "worker": None}
    rounds = [
        {"round": n, "played": 40.0, "best": 40.0 + loss, "played_turn": turn, "best_turn": better}
        for n, loss in [(1, 0.0), (2, 1.0), (3, 4.0), (4, 2.0), (5, 0.3)]
    ]
    SeatAnalysis.objects.create(analysis=analysis, seat=seat, rounds=rounds, accuracy=71.2)
    page = client_logged_in.get(detail(game)).content.decode()
    assert "Round 3: keeping the worker would have been worth +4.0" in page
    german = client_logged_in.get(detail(game), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Runde 3: den Arbeiter im Vorrat zu behalten hätte +4,0 gebracht" in german
    assert page.index("Round 3:") < page.index("Round 4:") < page.index("Round 2:")
    assert "Round 5: keeping" not in page and "Round 1: keeping" not in page
    assert page.count("loss-bar--costly") == 3
    replay = client_logged_in.get(reverse("games:replay", kwargs={"pk": game.pk}) + "?round=3")
    assert "Round 3: keeping the worker" in replay.content.decode()


def test_a_pending_analysis_shows_progress_and_polls_until_it_is_ready(
    user: User, client_logged_in: Client, play_rounds: Any
) -> None:
    # Three rounds played, then over (as if abandoned), with the analysis still to come.
    game = play_rounds(services.game_create_solo(user=user, seed=5), 3)
    game.status, game.round = Game.Status.FINISHED, 17
    game.save()
    GameAnalysis.objects.create(game=game)
    url = reverse("games:analysis", kwargs={"pk": game.pk})
    page = client_logged_in.get(detail(game)).content.decode()
    assert 'data-testid="analysis-pending"' in page
    assert f'hx-get="{url}"' in page and 'hx-trigger="every 2s"' in page
    computer.game_analyse(game_id=game.pk)
    fragment = client_logged_in.get(url, **HTMX).content.decode()
    assert "analysis-pending" not in fragment and "hx-trigger" not in fragment
    assert 'data-testid="analysis-seat"' in fragment


def test_the_analysis_of_a_hidden_game_is_refused_to_others_but_not_to_moderators(
    user: User, client: Client
) -> None:
    game = services.game_create_solo(user=user, seed=5)
    game.status, game.round, game.hidden = Game.Status.FINISHED, 17, True
    game.save()
    url = reverse("games:analysis", kwargs={"pk": game.pk})
    client.force_login(UserFactory())
    response = client.get(url)
    assert response.status_code == 404
    assert not GameAnalysis.objects.exists()
    client.force_login(UserFactory(is_staff=True))
    assert client.get(url).status_code == 200
    assert not GameAnalysis.objects.exists()


def test_a_game_in_play_has_no_analysis_to_show(client_logged_in: Client, solo_game: Game) -> None:
    url = reverse("games:analysis", kwargs={"pk": solo_game.pk})
    assert client_logged_in.get(url).status_code == 404
    assert client_logged_in.get("/games/99999999/analysis/").status_code == 404


def test_the_replay_of_a_costly_round_draws_the_computers_choice(
    user: User, client_logged_in: Client, play_rounds: Any
) -> None:
    game = play_rounds(services.game_create_solo(user=user, seed=5), 16)
    moves = list(game.seats.get().moves.order_by("round"))
    before = rebuild.rules_game(game, moves=moves[:2])
    card = before.current_card
    assert card is not None
    played = rebuild.move_to_turn(moves[2])
    other = next(
        p
        for p in before.boards[user.username].legal_placements(before.variants)
        if p != played.placement
    )
    better = rules.Turn(other, None)
    analysis = GameAnalysis.objects.get(game=game)
    analysis.status = GameAnalysis.Status.DONE
    analysis.save()
    rounds = [
        {
            "round": move.round,
            "played": 40.0,
            "best": 44.0 if move.round == 3 else 40.0,
            "played_turn": rules.turn_to_json(rebuild.move_to_turn(move)),
            "best_turn": rules.turn_to_json(better if move.round == 3 else played),
        }
        for move in moves
    ]
    SeatAnalysis.objects.create(
        analysis=analysis, seat=game.seats.get(), rounds=rounds, accuracy=95.0
    )
    replay = reverse("games:replay", kwargs={"pk": game.pk})
    page = client_logged_in.get(replay + "?round=3").content.decode()
    assert 'data-testid="replay-mistake"' in page
    assert "Round 3: placing the card elsewhere" in page
    choice = page.split('data-testid="better-turn"', 1)[1].split("</details>", 1)[0]
    # The computer's landscape: the two earlier cards and its own third one, marked.
    assert choice.count('class="card') == 3 and "card--draft" in choice
    quiet = client_logged_in.get(replay + "?round=4").content.decode()
    assert 'data-testid="replay-mistake"' not in quiet and 'data-testid="better-turn"' not in quiet


def test_the_keyboard_shortcuts_list_h_only_where_a_hint_is_offered(
    client_logged_in: Client, user: User, solo_game: Game
) -> None:
    def shortcuts(game: Game) -> str:
        page = client_logged_in.get(detail(game)).content.decode()
        return page.split('data-testid="shortcuts"')[1].split("</details>")[0]

    assert "<kbd>H</kbd>" in shortcuts(solo_game)
    daily = services.game_create_daily(user=user)
    assert "<kbd>H</kbd>" not in shortcuts(daily)
    # The list drawn once per language is drawn in each.
    user.language = "de"
    user.save()
    assert "<kbd>H</kbd>" in shortcuts(solo_game) and "Tastenkürzel" in shortcuts(solo_game)


class _Inherited(HTMLParser):
    """The htmx attributes in force on the element with ``id`` (htmx inherits them)."""

    VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"})

    def __init__(self, id_: str) -> None:
        super().__init__()
        self.id = id_
        self.stack: list[dict[str, str | None]] = []
        self.found: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        own = dict(attrs)
        merged = {**(self.stack[-1] if self.stack else {}), **own}
        self.stack.append(merged)
        if own.get("id") == self.id and self.found is None:
            self.found = merged

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()


def test_the_pending_analysis_refreshes_only_its_own_section(
    user: User, client_logged_in: Client, play_rounds: Any
) -> None:
    # The final board, Play again and Replay stay on screen while the analysis comes in.
    game = play_rounds(services.game_create_solo(user=user, seed=5), 3)
    game.status, game.round = Game.Status.FINISHED, 17
    game.save()
    GameAnalysis.objects.create(game=game)
    page = client_logged_in.get(detail(game)).content.decode()
    parser = _Inherited("analysis")
    parser.feed(page)
    assert parser.found is not None
    assert parser.found.get("hx-trigger") == "every 2s"
    assert parser.found.get("hx-target") in ("this", "#analysis")
    assert parser.found.get("hx-swap") == "outerHTML"
    # The address stays the game's: the fragment's URL is not pushed into the history.
    assert parser.found.get("hx-push-url") in (None, "false")
    assert parser.found.get("hx-replace-url") in (None, "false")
    # So does the comparison with everyone who played these cards, loaded beside it.
    duplicate = _Inherited("duplicate")
    duplicate.feed(page)
    if duplicate.found is not None:
        assert duplicate.found.get("hx-target") in ("this", "#duplicate")
        assert duplicate.found.get("hx-replace-url") in (None, "false")
