from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

import rules
from accounts.models import User
from games import rebuild
from games.models import Game, Move
from tests.factories import UserFactory, creator, reference_turn_for
from tests.pages import HTMX, turn_fields

pytestmark = pytest.mark.django_db

Play = Callable[[Game, int], Game]


def detail(game: Game) -> str:
    return reverse("games:detail", kwargs={"pk": game.pk})


def play_url(game: Game) -> str:
    return reverse("games:play", kwargs={"pk": game.pk})


def error_of(response: object) -> str:
    match = re.search(r'data-testid="error">([^<]*)<', response.content.decode())  # type: ignore[attr-defined]
    return match.group(1) if match else ""


def test_the_home_page_invites_visitors_to_sign_up(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert reverse("account_signup") in response.content.decode()


def test_a_signed_in_player_starts_a_solo_game_with_variants(client_logged_in: Client) -> None:
    response = client_logged_in.post(reverse("games:new"), {"diagonal": "on"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == detail(game)
    assert (game.diagonal, game.ferryman) == (True, False)
    page = client_logged_in.get(detail(game)).content.decode()
    assert "Round 1 of 16" in page
    assert f"Card {game.cards[0]}" in page


def test_starting_a_game_requires_signing_in(client: Client) -> None:
    response = client.post(reverse("games:new"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Game.objects.exists()


def test_the_board_is_a_fragment_for_htmx_and_a_whole_page_otherwise(
    client: Client, solo_game: Game
) -> None:
    client.force_login(creator(solo_game))
    url = detail(solo_game) + "?at=0,0&rot=90"
    page = client.get(url).content.decode()
    fragment = client.get(url, **HTMX).content.decode()
    assert "<html" in page and 'id="board"' in page
    assert "<html" not in fragment and fragment.lstrip().startswith('<section id="board"')
    assert "card--draft" in fragment
    # The draft is not stored: nothing is committed until the player commits.
    assert not Move.objects.exists()


def test_the_page_never_shows_a_card_before_it_is_revealed(client: Client, user: User) -> None:
    from games import services

    game = services.game_create_solo(user=user, seed=987_654_321_123)
    client.force_login(user)
    page = client.get(detail(game)).content.decode()
    record = client.get(reverse("games:record", kwargs={"pk": game.pk})).json()
    assert record["cards"] == game.cards[:1]
    assert str(game.seed) not in page
    assert re.findall(r"Card (\d+)", page) == [str(game.cards[0])]


def test_a_tampered_draft_gets_a_clear_message(client: Client, solo_game: Game) -> None:
    client.force_login(creator(solo_game))
    response = client.get(detail(solo_game) + "?rot=45&at=x", **HTMX)
    assert response.status_code == 200
    assert "could not be read" in error_of(response)


def test_committing_a_round_with_htmx_shows_the_next_round(client: Client, solo_game: Game) -> None:
    client.force_login(creator(solo_game))
    round_number, turn = reference_turn_for(solo_game)
    response = client.post(play_url(solo_game), turn_fields(round_number, turn), **HTMX)
    assert response.status_code == 200
    assert "Round 2 of 16" in response.content.decode()
    assert response["HX-Replace-Url"] == detail(solo_game)
    assert Move.objects.filter(seat__game=solo_game).count() == 1


def test_committing_without_htmx_redirects_back_to_the_game(
    client: Client, solo_game: Game
) -> None:
    client.force_login(creator(solo_game))
    round_number, turn = reference_turn_for(solo_game)
    response = client.post(play_url(solo_game), turn_fields(round_number, turn))
    assert response.status_code == 302 and response["Location"] == detail(solo_game)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"round": 1, "at": "3,3"}, "first card defines position [0, 0]"),
        ({"round": 1, "rot": "45", "at": "0,0"}, "could not be read"),
        ({"round": 1, "at": "0,0", "place": "9,9"}, "only be placed on the card placed"),
        ({"round": 1}, "Choose where the card goes"),
        ({"round": "one", "at": "0,0"}, "could not be read"),
        ({"round": 2, "at": "0,0"}, "not the round in play"),
    ],
)
def test_bad_commits_get_a_message_and_change_nothing(
    client: Client, solo_game: Game, fields: dict[str, object], message: str
) -> None:
    client.force_login(creator(solo_game))
    response = client.post(play_url(solo_game), fields, **HTMX)
    assert 400 <= response.status_code < 500
    assert message in response.content.decode()
    assert not Move.objects.exists()
    solo_game.refresh_from_db()
    assert solo_game.round == 1


def test_a_double_clicked_commit_is_applied_once(client: Client, solo_game: Game) -> None:
    client.force_login(creator(solo_game))
    round_number, turn = reference_turn_for(solo_game)
    fields = turn_fields(round_number, turn)
    first = client.post(play_url(solo_game), fields, **HTMX)
    second = client.post(play_url(solo_game), fields, **HTMX)
    assert first.status_code == second.status_code == 200
    assert Move.objects.filter(seat__game=solo_game).count() == 1
    assert "Round 2 of 16" in second.content.decode()


def test_another_players_game_in_play_cannot_be_seen_or_played(
    client: Client, solo_game: Game
) -> None:
    client.force_login(UserFactory())
    assert client.get(detail(solo_game)).status_code == 404
    round_number, turn = reference_turn_for(solo_game)
    response = client.post(play_url(solo_game), turn_fields(round_number, turn))
    assert response.status_code == 403
    assert not Move.objects.exists()


def test_a_finished_game_shows_the_breakdown_and_the_solo_rating(
    client: Client, solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 16)
    score = rebuild.rules_game(game).scores()[creator(game).username]
    rating = rules.solo_rating(score.total).label
    page = client.get(detail(game)).content.decode()  # public once over
    assert f"Final score <strong>{score.total}</strong>: {rating}." in page
    assert page.count('class="score-table"') == 1
    assert reverse("games:replay", kwargs={"pk": game.pk}) in page
    response = client.post(play_url(game), {"round": 17, "at": "0,0"})
    assert response.status_code == 302  # anonymous: sent to sign in, nothing played


def test_a_finished_game_refuses_more_rounds(
    client: Client, solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 16)
    client.force_login(creator(game))
    response = client.post(play_url(game), {"round": 16, "at": "9,9"}, **HTMX)
    assert response.status_code == 409
    assert Move.objects.filter(seat__game=game).count() == 16


def test_the_replay_steps_through_the_rounds(
    client: Client, solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 16)
    url = reverse("games:replay", kwargs={"pk": game.pk})
    page = client.get(url + "?round=3").content.decode()
    assert "After round 3 of 16" in page
    assert page.count('class="card ') + page.count('class="card"') == 3
    fragment = client.get(url + "?round=4", **HTMX).content.decode()
    assert "<html" not in fragment and "After round 4 of 16" in fragment
    assert client.get(reverse("games:replay", kwargs={"pk": solo_game.pk})).status_code == 200


def test_the_replay_of_a_game_in_play_does_not_exist(client: Client, solo_game: Game) -> None:
    client.force_login(creator(solo_game))
    assert client.get(reverse("games:replay", kwargs={"pk": solo_game.pk})).status_code == 404


def test_the_record_download_replays_to_the_stored_score(
    client: Client, solo_game: Game, play_rounds: Play
) -> None:
    game = play_rounds(solo_game, 16)
    response = client.get(reverse("games:record", kwargs={"pk": game.pk}))
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["format"] == "limes-game/1" and record["variants"] == ["diagonal", "ferryman"]
    replayed = rules.game_from_record(record)
    assert replayed.scores()[creator(game).username].total == game.seats.get().score


def test_the_rules_page_draws_every_card(client: Client, db: None) -> None:
    page = client.get(reverse("games:rules")).content.decode()
    assert page.count('class="deck-card"') == 24
    assert "Fisherman as ferryman" in page


def test_the_home_page_lists_running_and_finished_games(
    client: Client, user: User, play_rounds: Play
) -> None:
    from games import services

    running = services.game_create_solo(user=user, seed=1)
    finished = play_rounds(services.game_create_solo(user=user, seed=2), 16)
    client.force_login(user)
    page = client.get("/").content.decode()
    assert detail(running) in page and detail(finished) in page
    assert f"{finished.seats.get().score} points" in page


def test_a_deleted_players_finished_game_stays_shown_as_by_deleted_player(
    client: Client, solo_game: Game, play_rounds: Play
) -> None:
    from accounts.services import user_delete

    game = play_rounds(solo_game, 16)
    user_delete(user=creator(game))
    page = client.get(detail(game)).content.decode()
    assert "deleted player" in page
    assert game.seats.get().score is not None


def test_board_fragment_links_point_at_the_game(client: Client, solo_game: Game) -> None:
    client.force_login(creator(solo_game))
    fragment = client.get(detail(solo_game) + "?at=0,0", **HTMX).content.decode()
    links = re.findall(r'hx-get="([^"]*)"', fragment)
    assert links and all(link.startswith(detail(solo_game) + "?") for link in links)
