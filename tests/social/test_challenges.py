"""Challenging a friend to a game: the rules and pace chosen, accepted, declined, expired."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import games.services
import wintergames.services
from accounts.models import Notification, User
from core.errors import ActionRefused
from floor import limits
from games.models import Game
from social import services
from social.models import Challenge, GameKind
from social.services import ChallengeTerms
from tests.pages import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def friends(ana: User, ben: User) -> None:
    services.friend_request_send(user=ana, other=ben)
    services.friend_request_accept(user=ben, other=ana)


def _challenge(client: Client, other: User, **data: Any) -> Any:
    url = reverse("social:challenge_new", kwargs={"username": other.username})
    return client.post(url, data)


def _answer(client: Client, challenge: Challenge, answer: str) -> Any:
    url = reverse("social:challenge_answer", kwargs={"pk": challenge.pk, "answer": answer})
    return client.post(url)


@pytest.mark.usefixtures("friends")
def test_a_friend_accepts_a_challenge_and_the_game_starts_with_its_rules(
    ana: User, ben: User, mailoutbox: list[Any], committed: Callable[[], Any]
) -> None:
    with committed():
        response = _challenge(client_for(ana), ben, round_seconds="86400", ferryman="on")
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.pace, challenge.round_seconds, challenge.ferryman) == (
        "correspondence",
        86400,
        True,
    )
    assert Notification.objects.filter(user=ben).first().text == (  # type: ignore[union-attr]
        "ana challenges you to a game of Limes."
    )
    assert [m.to for m in mailoutbox] == [[ben.email]]
    page = client_for(ben).get(reverse("social:friends")).content.decode()
    assert 'data-testid="challenge-received"' in page
    response = _answer(client_for(ben), challenge, "accept")
    game = Game.objects.get()
    assert response["Location"] == reverse("games:detail", kwargs={"pk": game.pk})
    assert game.status == Game.Status.ACTIVE
    assert (game.pace, game.round_seconds, game.ferryman, game.diagonal) == (
        "correspondence",
        86400,
        True,
        False,
    )
    assert not game.listed
    assert sorted(s.user.username for s in game.seats.all() if s.user) == ["ana", "ben"]
    challenge.refresh_from_db()
    assert (challenge.status, challenge.game) == (Challenge.Status.ACCEPTED, game)


def test_only_friends_can_be_challenged(ana: User, ben: User) -> None:
    response = _challenge(client_for(ana), ben, round_seconds="180")
    assert response.status_code == 403
    assert not Challenge.objects.exists()


@pytest.mark.usefixtures("friends")
@pytest.mark.parametrize("seconds", ["7", "", "１８０", "9" * 40, "180\x00"])
def test_a_time_not_offered_is_a_400_and_stores_nothing(ana: User, ben: User, seconds: str) -> None:
    assert _challenge(client_for(ana), ben, round_seconds=seconds).status_code == 400
    assert not Challenge.objects.exists()


@pytest.mark.usefixtures("friends")
def test_one_challenge_waits_at_a_time(ana: User, ben: User) -> None:
    assert _challenge(client_for(ana), ben, round_seconds="180").status_code == 302
    assert _challenge(client_for(ana), ben, round_seconds="300").status_code == 409
    assert Challenge.objects.count() == 1


@pytest.mark.usefixtures("friends")
def test_an_expired_challenge_cannot_be_accepted(ana: User, ben: User, time_machine: Any) -> None:
    services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    challenge = Challenge.objects.get()
    time_machine.move_to(timezone.now() + datetime.timedelta(days=4))
    assert (
        "challenge-received" not in client_for(ben).get(reverse("social:friends")).content.decode()
    )
    assert _answer(client_for(ben), challenge, "accept").status_code == 409
    assert not Game.objects.exists()
    assert services.challenges_expire() == 1
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.EXPIRED


@pytest.mark.usefixtures("friends")
def test_declined_withdrawn_and_other_peoples_challenges(
    ana: User, ben: User, outsider: User
) -> None:
    challenge = services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    # Nobody else answers it, not even its sender by accepting.
    assert _answer(client_for(outsider), challenge, "accept").status_code == 404
    assert _answer(client_for(ana), challenge, "accept").status_code == 404
    assert _answer(client_for(ben), challenge, "maybe").status_code == 404
    assert _answer(client_for(ben), challenge, "decline").status_code == 302
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.DECLINED
    again = services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    assert _answer(client_for(ana), again, "decline").status_code == 302
    again.refresh_from_db()
    assert again.status == Challenge.Status.CANCELLED
    assert not Game.objects.exists()


@pytest.mark.usefixtures("friends")
def test_blocking_withdraws_challenges_and_stops_new_ones(ana: User, ben: User) -> None:
    challenge = services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    services.block(user=ben, other=ana)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.CANCELLED
    assert _challenge(client_for(ana), ben, round_seconds="180").status_code == 403


@pytest.mark.parametrize("kind", ["limes", "winter"])
@pytest.mark.usefixtures("friends")
def test_a_challenge_is_accepted_whatever_games_the_challenger_has_waiting(
    ana: User, ben: User, kind: str
) -> None:
    # The challenge's game never waits (both sit down at once), so the cap on games
    # waiting for players is not the accepter's problem.
    for _ in range(limits.MAX_OPEN_GAMES):
        games.services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE)
        wintergames.services.game_create(
            user=ana, players=2, computers=0, level="", farmers=True, pace="live"
        )
    if kind == "winter":
        terms = ChallengeTerms(kind=GameKind.WINTER, pace="live")
    else:
        terms = ChallengeTerms(pace="live", round_seconds=180)
    challenge = services.challenge_create(user=ana, other=ben, terms=terms)
    game = services.challenge_accept(user=ben, challenge_id=challenge.pk)
    assert game.seats.filter(user=ben).exists()
    assert not game.seats.filter(user__isnull=True, bot_level="").exists()
    # Games of the challenger's own waiting for players stay capped.
    with pytest.raises(ActionRefused, match="waiting for players"):
        games.services.game_create_multi(user=ana, seats_max=2, pace=Game.Pace.LIVE)
    with pytest.raises(ActionRefused, match="waiting for players"):
        wintergames.services.game_create(
            user=ana, players=2, computers=0, level="", farmers=True, pace="live"
        )
