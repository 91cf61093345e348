"""Challenging a friend to Carcassonne: Winter Edition: its options, accepted once, refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Notification, User
from accounts.services import user_delete
from core.errors import ActionRefused
from core.tokens import inbox_token
from games.models import Game
from social import services
from social.models import Challenge, GameKind
from tests.factories import UserFactory
from tests.pages import HTMX, client_for
from wintergames import selectors as winter_selectors
from wintergames.models import WinterGame

if TYPE_CHECKING:
    from tests.conftest import Race

pytestmark = pytest.mark.django_db

WINTER = {"kind": "winter", "winter_pace": "correspondence", "aids": "on"}


def _befriend(first: User, second: User) -> None:
    services.friend_request_send(user=first, other=second)
    services.friend_request_accept(user=second, other=first)


@pytest.fixture
def friends(ana: User, ben: User) -> None:
    _befriend(ana, ben)


def _challenge(client: Client, other: User, **data: Any) -> Any:
    url = reverse("social:challenge_new", kwargs={"username": other.username})
    return client.post(url, data)


def _answer(client: Client, challenge: Challenge, answer: str) -> Any:
    url = reverse("social:challenge_answer", kwargs={"pk": challenge.pk, "answer": answer})
    return client.post(url)


@pytest.mark.usefixtures("friends")
def test_a_friend_accepts_a_winter_challenge_and_both_sit_at_a_running_game(
    ana: User, ben: User, committed: Callable[[], Any]
) -> None:
    # Farmers unticked (a checkbox sends nothing), table aids ticked.
    with committed():
        response = _challenge(client_for(ana), ben, **WINTER)
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.kind, challenge.pace, challenge.farmers, challenge.aids) == (
        "winter",
        "correspondence",
        False,
        True,
    )
    assert challenge.round_seconds is None
    notices = Notification.objects.filter(user=ben).values_list("text", flat=True)
    assert "ana challenges you to a game of Carcassonne: Winter Edition." in notices
    page = client_for(ben).get(reverse("social:friends")).content.decode()
    assert "Carcassonne: Winter Edition, correspondence" in page
    assert "without farmers" in page
    response = _answer(client_for(ben), challenge, "accept")
    game = WinterGame.objects.get()
    assert response["Location"] == f"/winter/games/{game.pk}/"
    assert game.status == WinterGame.Status.RUNNING
    assert (game.pace, game.farmers, game.aids) == ("correspondence", False, True)
    seated = [seat.user for seat in game.seats.order_by("position")]
    assert seated == [ana, ben]
    assert not Game.objects.exists()
    challenge.refresh_from_db()
    assert (challenge.status, challenge.winter_game, challenge.game) == (
        Challenge.Status.ACCEPTED,
        game,
        None,
    )
    # The challenger's page, hearing of it, goes to the Winter game.
    status = client_for(ana).get(reverse("social:challenge", kwargs={"pk": challenge.pk}), **HTMX)
    assert status["HX-Redirect"] == f"/winter/games/{game.pk}/"
    # The game's page is where both play: a board for ana to move on, and its chat.
    board = client_for(ana).get(response["Location"]).content.decode()
    assert 'data-testid="winter-board"' in board
    assert reverse("social:winter_chat", kwargs={"pk": game.pk}) in board


@pytest.mark.usefixtures("friends")
def test_a_winter_challenge_is_applied_once(ana: User, ben: User) -> None:
    challenge = services.challenge_create(
        user=ana, other=ben, terms=services.ChallengeTerms(kind=GameKind.WINTER, pace="untimed")
    )
    client = client_for(ben)
    assert _answer(client, challenge, "accept").status_code == 302
    again = _answer(client, challenge, "accept")
    assert again.status_code == 404
    assert WinterGame.objects.count() == 1
    with pytest.raises(ActionRefused):
        services.challenge_accept(user=ben, challenge_id=challenge.pk)
    assert WinterGame.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_accepts_at_once_start_one_game(race: Race) -> None:
    ana, ben = UserFactory(), UserFactory()
    _befriend(ana, ben)
    challenge = services.challenge_create(
        user=ana, other=ben, terms=services.ChallengeTerms(kind=GameKind.WINTER, pace="live")
    )

    def accept() -> str:
        services.challenge_accept(user=ben, challenge_id=challenge.pk)
        return "accepted"

    outcomes = race(accept, accept, refusals=(ActionRefused,))
    assert sorted(str(o) if isinstance(o, str) else "refused" for o in outcomes) == [
        "accepted",
        "refused",
    ]
    assert WinterGame.objects.count() == 1


@pytest.mark.usefixtures("friends")
def test_the_challenged_player_s_waiting_list_names_the_game(ana: User, ben: User) -> None:
    services.challenge_create(
        user=ana,
        other=ben,
        terms=services.ChallengeTerms(kind=GameKind.WINTER, pace="live", farmers=True, aids=False),
    )
    page = client_for(ben).get(reverse("social:friends")).content.decode()
    assert "Carcassonne: Winter Edition, live" in page
    assert "with farmers" in page and "without table aids" in page
    # A live one shows on every page of theirs, with the game it is to.
    client = client_for(ben)
    client.get(reverse("games:home"))
    session = client.cookies["sessionid"].value
    query = f"u={ben.pk}&t={inbox_token(ben.pk, session)}"
    alerts = client.get(f"{reverse('social:challenge_alerts')}?{query}").content.decode()
    assert "ana challenges you to a live game of Carcassonne: Winter Edition." in alerts


def test_a_blocked_player_cannot_challenge(ana: User, ben: User) -> None:
    _befriend(ana, ben)
    services.block(user=ben, other=ana)
    response = _challenge(client_for(ana), ben, **WINTER)
    assert response.status_code == 403
    with pytest.raises(ActionRefused):
        services.challenge_create(
            user=ana, other=ben, terms=services.ChallengeTerms(kind=GameKind.WINTER, pace="live")
        )
    assert not Challenge.objects.exists()


def test_only_friends_can_be_challenged_to_winter(ana: User, ben: User) -> None:
    assert _challenge(client_for(ana), ben, **WINTER).status_code == 403
    assert not Challenge.objects.exists()


@pytest.mark.usefixtures("friends")
@pytest.mark.parametrize(
    "data",
    [
        {"kind": "chess"},
        {"kind": "winter", "winter_pace": "blitz"},
        {"kind": "winter", "winter_pace": ""},
        {"kind": "winter\x00", "winter_pace": "live"},
        {"kind": "winter", "winter_pace": "x" * 3000},
        {"kind": "limes"},
        {"kind": "limes", "round_seconds": "7"},
    ],
)
def test_hostile_challenge_forms_get_a_4xx_and_store_nothing(
    ana: User, ben: User, data: dict[str, Any]
) -> None:
    response = _challenge(client_for(ana), ben, **data)
    assert 400 <= response.status_code < 500
    assert not Challenge.objects.exists()


@pytest.mark.usefixtures("friends")
def test_a_service_refuses_a_pace_winter_does_not_offer(ana: User, ben: User) -> None:
    with pytest.raises(ActionRefused):
        services.challenge_create(
            user=ana, other=ben, terms=services.ChallengeTerms(kind=GameKind.WINTER, pace="blitz")
        )
    assert not Challenge.objects.exists()


@pytest.mark.usefixtures("friends")
def test_a_form_without_a_game_is_still_a_limes_challenge(ana: User, ben: User) -> None:
    assert _challenge(client_for(ana), ben, round_seconds="180").status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.kind, challenge.round_seconds) == ("limes", 180)
    response = _answer(client_for(ben), challenge, "accept")
    assert response["Location"] == reverse("games:detail", kwargs={"pk": Game.objects.get().pk})
    assert not WinterGame.objects.exists()


@pytest.mark.usefixtures("friends")
def test_the_friends_page_offers_both_games(ana: User) -> None:
    page = client_for(ana).get(reverse("social:friends")).content.decode()
    assert '<option value="limes">Limes</option>' in page
    assert '<option value="winter">Carcassonne: Winter Edition</option>' in page
    assert 'name="winter_pace"' in page and 'name="farmers" checked' in page


@pytest.mark.usefixtures("friends")
def test_the_chat_of_a_challenge_s_winter_game_is_its_players_alone(
    ana: User, ben: User, outsider: User
) -> None:
    challenge = services.challenge_create(
        user=ana, other=ben, terms=services.ChallengeTerms(kind=GameKind.WINTER, pace="untimed")
    )
    game = services.challenge_accept(user=ben, challenge_id=challenge.pk)
    services.chat_post(game=game, user=ben, text="between us")
    chat = reverse("social:winter_chat", kwargs={"pk": game.pk})
    assert b"between us" not in client_for(outsider).get(chat, **HTMX).content
    panel = client_for(ana).get(chat, **HTMX).content.decode()
    assert "between us" in panel
    assert "Only the players of this game read this chat." in panel
    # Nor is it in the lobby; and it stays theirs when one of them leaves the site.
    assert game.pk not in [g.pk for g in winter_selectors.games_open()]
    user_delete(user=ana)
    assert b"between us" not in client_for(outsider).get(chat, **HTMX).content


@pytest.mark.usefixtures("friends")
def test_the_challenger_is_called_to_the_winter_game_once_accepted(ana: User, ben: User) -> None:
    challenge = services.challenge_create(
        user=ana, other=ben, terms=services.ChallengeTerms(kind=GameKind.WINTER, pace="live")
    )
    game = services.challenge_accept(user=ben, challenge_id=challenge.pk)
    client = client_for(ana)
    client.get(reverse("games:home"))
    query = f"u={ana.pk}&t={inbox_token(ana.pk, client.cookies['sessionid'].value)}"
    alerts = client.get(f"{reverse('social:challenge_alerts')}?{query}").content.decode()
    assert "ben accepted your challenge" in alerts
    assert f'href="/winter/games/{game.pk}/"' in alerts
    assert f"Winter game {game.pk}" in alerts
