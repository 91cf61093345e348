"""Multiplayer pages: lobby, invitations, the table, polling, my games, and a whole game."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from time_machine import TimeMachineFixture

import rules
from accounts.models import User
from core.tokens import poll_token
from games import rebuild, selectors, services, throttle
from games.models import Game, Move, Seat
from games.pollstate import poll_state_key
from tests.factories import PASSWORD, UserFactory, play_turn, reference_turn_of, started_game
from tests.pages import HTMX, turn_fields

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


@pytest.fixture
def players() -> list[User]:
    return [UserFactory(username=name) for name in ("ana", "ben", "cy")]


def detail(game: Game) -> str:
    return reverse("games:detail", kwargs={"pk": game.pk})


def poll(client: Client, game: Game, version: int, status: str = "active", draft: int = 0) -> str:
    """The poll address the game page gives this client's session."""
    cookie = client.cookies.get(settings.SESSION_COOKIE_NAME)
    token = poll_token(game.pk, cookie.value if cookie else "")
    url = reverse("games:poll", kwargs={"pk": game.pk})
    return url + f"?v={version}&s={status}&draft={draft}&t={token}"


def test_lobby_lists_open_games_and_one_click_joins(players: list[User]) -> None:
    ana, ben, _cy = players
    client = client_for(ana)
    response = client.post(
        reverse("games:new_multi"),
        {
            "seats_max": 3,
            "pace": "live",
            "live_seconds": 300,
            "correspondence_seconds": 86400,
            "listed": "on",
            "ferryman": "on",
        },
    )
    game = Game.objects.get()
    assert response["Location"] == detail(game)
    assert (game.seats_max, game.round_seconds, game.ruleset) == (3, 300, "ferryman")
    page = client_for(ben).get(reverse("games:lobby")).content.decode()
    assert f'data-game="{game.pk}"' in page
    assert "Fisherman as ferryman" in page
    client_for(ben).post(reverse("games:join_game", kwargs={"pk": game.pk}))
    assert game.seats.filter(user=ben).exists()


def test_lobby_poll_is_empty_until_something_changes(
    players: list[User], django_assert_num_queries: Callable[..., Any]
) -> None:
    ana, ben, _cy = players
    client = client_for(ben)
    signature = selectors.lobby_signature()
    url = reverse("games:lobby_poll") + "?since=" + signature
    with django_assert_num_queries(1):
        assert client.get(url, **HTMX).status_code == 204
    game = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE)
    response = client.get(url, **HTMX)
    assert response.status_code == 200
    assert f'data-game="{game.pk}"' in response.content.decode()


def test_invitation_only_games_stay_out_of_the_lobby_but_join_by_code(players: list[User]) -> None:
    ana, ben, _cy = players
    game = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE, listed=False)
    ben_client = client_for(ben)
    assert f'data-game="{game.pk}"' not in ben_client.get(reverse("games:lobby")).content.decode()
    assert ben_client.get(detail(game)).status_code == 404
    # The code typed in the lobby form, in lower case with a space, finds the game.
    assert game.invite_code is not None
    typed = game.invite_code.lower()[:4] + " " + game.invite_code.lower()[4:]
    response = ben_client.get(reverse("games:join_code"), {"code": typed})
    invitation = reverse("games:join", kwargs={"code": game.invite_code})
    assert response["Location"] == invitation
    assert "invites you" in ben_client.get(invitation).content.decode()
    ben_client.post(invitation)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_waiting_room_shows_the_invitation_to_players_only(players: list[User]) -> None:
    ana, ben, _cy = players
    game = services.game_create_multi(user=ana, seats_max=3, pace=Game.Pace.LIVE)
    own = client_for(ana).get(detail(game)).content.decode()
    assert game.invite_code is not None
    assert game.invite_code in own
    assert 'data-testid="start"' in own
    other = client_for(ben).get(detail(game)).content.decode()
    assert game.invite_code not in other
    assert 'data-testid="join"' in other


def test_joining_a_full_game_gives_a_clear_message(players: list[User]) -> None:
    ana, ben, cy = players
    game = started_game([ana, ben])
    response = client_for(cy).post(reverse("games:join_game", kwargs={"pk": game.pk}), follow=True)
    assert "This game has already started." in response.content.decode()
    assert game.seats.count() == 2


def test_a_players_choice_stays_hidden_until_the_round_completes(players: list[User]) -> None:
    ana, ben, cy = players
    game = started_game([ana, ben, cy])
    round_number, turn = reference_turn_of(game, ana)
    client_for(ana).post(
        reverse("games:play", kwargs={"pk": game.pk}), turn_fields(round_number, turn)
    )
    ben_page = client_for(ben).get(detail(game)).content.decode()
    # Ben sees Ana has played, but not where: her landscape is still empty.
    assert 'data-player="ana"' in ben_page
    ana_block = ben_page.split('data-player="ana"')[1].split("</article>")[0]
    assert "played" in ana_block
    assert "data-card-at" not in ana_block
    play_turn(game, ben)
    play_turn(game, cy)
    ben_page = client_for(ben).get(detail(game)).content.decode()
    ana_block = ben_page.split('data-player="ana"')[1].split("</article>")[0]
    assert 'data-card-at="0,0"' in ana_block


def test_spectators_see_completed_rounds_only_and_never_the_card(players: list[User]) -> None:
    ana, ben, cy = players
    game = started_game([ana, ben])
    play_turn(game, ana)
    spectator = client_for(cy)
    lobby = spectator.get(reverse("games:lobby")).content.decode()
    assert detail(game) in lobby.split('data-testid="watch-games"')[1]
    page = spectator.get(detail(game)).content.decode()
    assert "You are watching" in page
    assert 'data-testid="round"' not in page  # no draft board, no current card
    assert "data-card-at" not in page
    card = rebuild.rules_game(game).current_card
    assert card is not None
    assert f"Card {card.number}" not in page
    assert spectator.get(reverse("games:record", kwargs={"pk": game.pk})).status_code == 404
    assert Client().get(detail(game)).status_code == 404  # signed out: no


def test_poll_answers_204_without_a_query_while_nothing_changes(
    players: list[User], django_assert_num_queries: Callable[..., Any]
) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben])
    client = client_for(ana)
    version = Game.objects.get(pk=game.pk).version
    # The start published the version to the cache: PostgreSQL is not asked at all.
    with django_assert_num_queries(0):
        response = client.get(poll(client, game, version), **HTMX)
    assert response.status_code == 204


def test_poll_reads_the_database_once_when_the_cache_lost_the_game(
    players: list[User], django_assert_num_queries: Callable[..., Any]
) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben])
    client = client_for(ana)
    version = Game.objects.get(pk=game.pk).version
    cache.clear()  # evicted, or Redis restarted
    with django_assert_num_queries(1):
        assert client.get(poll(client, game, version), **HTMX).status_code == 204
    with django_assert_num_queries(0):
        assert client.get(poll(client, game, version), **HTMX).status_code == 204


def test_poll_never_answers_nothing_new_when_the_cache_is_ahead_of_the_database(
    players: list[User],
) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben])
    version = Game.objects.get(pk=game.pk).version
    # A write that published its version and then failed leaves the cache one ahead.
    cache.set(poll_state_key(game.pk), (version + 1, game.deadline))

    ana_client = client_for(ana)
    response = ana_client.get(poll(ana_client, game, version), **HTMX)

    assert response.status_code == 200
    assert f'data-version="{version}"' in response.content.decode()


def test_poll_redraws_the_table_when_someone_plays_and_the_board_when_the_round_ends(
    players: list[User],
) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben])
    client = client_for(ana)
    play_turn(game, ana)
    version = Game.objects.get(pk=game.pk).version
    play_turn(game, ben)
    response = client.get(poll(client, game, version), **HTMX).content.decode()
    assert 'id="table" class="table-view" aria-live="polite" hx-swap-oob="true"' in response
    # Ana was waiting: her board comes too, now with round 2's card to play.
    assert 'id="board"' in response and "Round 2 of 16" in response


def test_poll_keeps_a_draft_in_progress(players: list[User]) -> None:
    ana, ben, cy = players
    game = started_game([ana, ben, cy])
    version = Game.objects.get(pk=game.pk).version
    play_turn(game, ben)
    ana_client = client_for(ana)
    response = ana_client.get(poll(ana_client, game, version, draft=1), **HTMX).content.decode()
    assert 'id="table"' in response
    assert 'id="board"' not in response


def test_poll_reloads_the_page_when_the_game_starts(players: list[User]) -> None:
    ana, ben, _cy = players
    game = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE)
    version = Game.objects.get(pk=game.pk).version
    services.game_join(game=game, user=ben)
    ana_client = client_for(ana)
    response = ana_client.get(poll(ana_client, game, version, "open"), **HTMX)
    assert response.headers["HX-Refresh"] == "true"


def test_a_waiting_room_s_poll_redraws_the_seats_and_sends_no_board(
    players: list[User],
) -> None:
    """The waiting room has no board: one sent out of band would find no place to go
    (htmx reports oobErrorNoTarget in the console of everyone waiting)."""
    ana, ben, cy = players
    game = services.game_create_multi(user=ana, seats_max=4, pace=Game.Pace.LIVE)
    services.game_join(game=game, user=ben)
    version = Game.objects.get(pk=game.pk).version
    services.game_join(game=game, user=cy)
    ben_client = client_for(ben)
    response = ben_client.get(poll(ben_client, game, version, "open"), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Waiting for players: 3 of 4 seats taken" in html
    assert 'id="board"' not in html


def test_poll_enforces_a_passed_deadline(
    players: list[User], time_machine: TimeMachineFixture
) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben])
    play_turn(game, ana)
    game.refresh_from_db()
    version = game.version
    assert game.deadline is not None
    time_machine.move_to(game.deadline + datetime.timedelta(seconds=1))
    ana_client = client_for(ana)
    response = ana_client.get(poll(ana_client, game, version), **HTMX)
    assert response.status_code == 200
    assert Seat.objects.get(game=game, user=ben).status == Seat.Status.TIMED_OUT


def test_a_poll_without_the_page_s_token_answers_like_a_missing_game(
    players: list[User],
) -> None:
    ana, ben, cy = players
    game = services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE, listed=False)
    services.game_join(game=game, user=ben, code=game.invite_code)
    version = Game.objects.get(pk=game.pk).version
    missing = reverse("games:poll", kwargs={"pk": 999999}) + "?v=0&s=active&draft=0"

    def page_of(response: Any, asked: str) -> tuple[int, bytes]:
        # The page's language menu sends the visitor back where they were: the address
        # they asked for comes back, and it tells them nothing they did not send; nor does
        # the CSRF token, masked afresh for every response.
        content = response.content.replace(escape(asked).encode(), b"URL")
        token = rb'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"'
        return response.status_code, re.sub(token, rb"\1", content)

    for client in (Client(), client_for(cy)):
        expected = page_of(client.get(missing, **HTMX), missing)
        assert expected[0] == 404
        # Every version, the right one included, answers exactly like a missing game.
        for v in range(version + 2):
            url = reverse("games:poll", kwargs={"pk": game.pk}) + f"?v={v}&s=active&draft=0"
            assert page_of(client.get(url, **HTMX), url) == expected
            # Nor does a token of another session, or of another game, open it.
            stolen = poll(client_for(ana), game, v)
            assert page_of(client.get(stolen, **HTMX), stolen) == expected
    # The player, with the address the page gave, still gets the cheap answer.
    ana_client = client_for(ana)
    page = ana_client.get(detail(game)).content.decode()
    address = re.search(r'hx-get="([^"]*/poll/[^"]*)"', page)
    assert address is not None
    assert ana_client.get(address[1].replace("&amp;", "&"), **HTMX).status_code == 204


def test_wrong_invitation_codes_are_throttled_per_player_and_per_address(
    players: list[User],
) -> None:
    ana, ben, cy = players
    game = services.game_create_multi(user=ana, seats_max=4, pace=Game.Pace.LIVE, listed=False)
    right = reverse("games:join", kwargs={"code": game.invite_code})
    guesser = client_for(ben)
    for n in range(throttle.CODE_MISSES_PER_USER):
        wrong = reverse("games:join", kwargs={"code": f"WRONG{n}"})
        assert guesser.get(wrong, REMOTE_ADDR="10.0.0.1").status_code == 302
    # Past the limit, the right code is not looked up either: guessing stops.
    assert guesser.get(right, REMOTE_ADDR="10.0.0.1").status_code == 429
    assert guesser.post(right, REMOTE_ADDR="10.0.0.2").status_code == 429
    assert not game.seats.filter(user=ben).exists()
    # Another player at the same address still may, until the address runs out.
    other = client_for(cy)
    assert other.get(right, REMOTE_ADDR="10.0.0.1").status_code == 200
    # Several players behind one address, none of them past their own limit.
    guessers = [client_for(UserFactory()) for _ in range(5)]
    for n in range(throttle.CODE_MISSES_PER_ADDRESS):
        wrong = reverse("games:join", kwargs={"code": f"MISS{n}"})
        guessers[n % 5].get(wrong, REMOTE_ADDR="10.0.0.9")
    assert other.get(right, REMOTE_ADDR="10.0.0.9").status_code == 429
    assert other.get(right, REMOTE_ADDR="10.0.0.1").status_code == 200


def test_a_bad_poll_is_a_400(players: list[User]) -> None:
    game = started_game(players[:2])
    client = client_for(players[0])
    url = poll(client, game, 0).replace("v=0", "v=x")
    assert client.get(url).status_code == 400


def test_my_games_marks_those_waiting_for_my_move_and_counts_them_in_the_menu(
    players: list[User],
) -> None:
    ana, ben, cy = players
    waiting = started_game([ana, ben])
    played = started_game([ana, cy])
    play_turn(played, ana)
    services.game_create_multi(user=ana, seats_max=3, pace=Game.Pace.LIVE)
    page = client_for(ana).get(reverse("games:mine")).content.decode()
    assert page.count('class="your-move"') == 1
    assert reverse("games:detail", kwargs={"pk": waiting.pk}) in page.split("your-move")[1]
    assert "waiting for players (1/3)" in page
    nav = page.split('data-testid="nav-my-games"')[1].split("</a>")[0]
    assert '<span class="badge"' in nav and ">1</span>" in nav


def test_resign_from_the_page(players: list[User]) -> None:
    ana, ben, cy = players
    game = started_game([ana, ben, cy])
    response = client_for(ben).post(reverse("games:resign", kwargs={"pk": game.pk}), follow=True)
    assert "You have resigned from this game" in response.content.decode()
    assert Seat.objects.get(game=game, user=ben).status == Seat.Status.RESIGNED


def test_three_players_play_a_whole_game_through_the_pages(players: list[User]) -> None:
    clients = {p.username: client_for(p) for p in players}
    ana, ben, cy = players
    clients["ana"].post(
        reverse("games:new_multi"),
        {
            "seats_max": 3,
            "pace": "correspondence",
            "live_seconds": 180,
            "correspondence_seconds": 172800,
            "listed": "on",
            "diagonal": "on",
        },
    )
    game = Game.objects.get()
    for name in ("ben", "cy"):
        clients[name].post(reverse("games:join_game", kwargs={"pk": game.pk}))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    for round_number in range(1, rules.ROUNDS + 1):
        for player in (cy, ana, ben):
            game.refresh_from_db()
            number, turn = reference_turn_of(game, player)
            assert number == round_number
            response = clients[player.username].post(
                reverse("games:play", kwargs={"pk": game.pk}), turn_fields(number, turn), **HTMX
            )
            assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Move.objects.filter(seat__game=game).count() == 48
    page = clients["ben"].get(detail(game)).content.decode()
    assert page.count('data-testid="final-seat"') == 3
    outcome = rebuild.rules_game(game).outcome()
    winner = outcome.standings[0]
    text = " ".join(re.sub(r"<[^>]+>", "", page).split())
    assert f"{winner.player} · winner" in text
    for standing in outcome.standings:
        assert f'<td data-testid="score-total">{standing.score.total}</td>' in page


def test_finished_games_are_public_unless_hidden(players: list[User]) -> None:
    ana, ben, cy = players
    game = started_game([ana, ben])
    services.seat_resign(game=game, user=ana)
    services.seat_resign(game=game, user=ben)
    assert client_for(cy).get(detail(game)).status_code == 200
    Game.objects.filter(pk=game.pk).update(hidden=True, hidden_reason="abuse")
    assert client_for(cy).get(detail(game)).status_code == 404
    assert client_for(cy).get(reverse("games:replay", kwargs={"pk": game.pk})).status_code == 404
    assert client_for(ana).get(detail(game)).status_code == 200  # its players still may
    cy.is_staff = True
    cy.save()
    assert client_for(cy).get(detail(game)).status_code == 200


def test_todays_daily_challenge_is_shown_only_after_ones_own_attempt(players: list[User]) -> None:
    ana, ben, _cy = players
    today = timezone.now().date()
    anas = services.game_create_solo(user=ana, seed=5, daily=today)
    services.seat_resign(game=anas, user=ana)
    url = reverse("games:replay", kwargs={"pk": anas.pk})
    assert client_for(ben).get(url).status_code == 404
    bens = services.game_create_solo(user=ben, seed=5, daily=today)
    assert client_for(ben).get(url).status_code == 404  # started is not finished
    services.seat_resign(game=bens, user=ben)
    assert client_for(ben).get(url).status_code == 200
    # Yesterday's are everyone's.
    Game.objects.filter(pk=anas.pk).update(daily=today - datetime.timedelta(days=1))
    assert client_for(players[2]).get(url).status_code == 200


def test_the_record_of_a_game_in_play_waits_for_its_end(players: list[User]) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben])
    play_turn(game, ben)
    record = reverse("games:record", kwargs={"pk": game.pk})
    # Even a player may not download it: it would show Ben's choice of this round.
    assert client_for(ana).get(record).status_code == 404


def test_a_commit_after_the_deadline_says_so_on_the_board(players: list[User]) -> None:
    ana, ben, _cy = players
    game = started_game([ana, ben])
    play_turn(game, ana)
    round_number, turn = reference_turn_of(game, ben)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - datetime.timedelta(1))
    response = client_for(ben).post(
        reverse("games:play", kwargs={"pk": game.pk}), turn_fields(round_number, turn), **HTMX
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "You ran out of time and have left this game." in page
    assert 'data-testid="left"' in page


def test_the_replay_of_a_game_someone_left_steps_through_every_round(
    players: list[User],
) -> None:
    ana, ben, cy = players
    game = started_game([ana, ben, cy])
    for player in players:
        play_turn(game, player)
    services.seat_resign(game=game, user=ben)
    for _ in range(rules.ROUNDS - 1):
        play_turn(game, ana)
        play_turn(game, cy)
    client = client_for(ben)
    url = reverse("games:replay", kwargs={"pk": game.pk})
    for shown in (1, 2, 9, 16):
        response = client.get(url, {"round": shown})
        assert response.status_code == 200
        assert f"After round {shown} of 16" in response.content.decode()


def test_the_replay_of_an_abandoned_game_shows_no_unplayed_card(
    user: User, solo_game: Game, play_rounds: Callable[[Game, int], Game]
) -> None:
    game = play_rounds(solo_game, 2)
    services.seat_resign(game=game, user=user)
    page = Client()
    page.force_login(user)
    response = page.get(reverse("games:replay", kwargs={"pk": game.pk}), {"round": 16})
    text = response.content.decode()
    assert "After round 2 of 16" in text
    assert f"card {game.cards[2]}<" not in text and "Next round" not in text
