"""Deleting an account takes the player out of their games, as a ban does, all at once."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import user_delete
from games import services
from games.models import Game, Seat
from tests.factories import PASSWORD, UserFactory, play_turn, started_game

pytestmark = pytest.mark.django_db


def _games_of(user: User) -> dict[str, Game]:
    """A solo game, a game the player opened, one they joined, one in play (played once)."""
    rival, host = UserFactory(), UserFactory()
    active = started_game([user, rival])
    play_turn(active, user)
    joined = services.game_create_multi(user=host, seats_max=3, pace=Game.Pace.LIVE)
    services.game_join(game=joined, user=user)
    return {
        "solo": services.game_create_solo(user=user),
        "opened": services.game_create_multi(user=user, seats_max=3, pace=Game.Pace.LIVE),
        "joined": joined,
        "active": active,
    }


def test_deleting_an_account_resigns_leaves_and_cancels_its_games(
    client: Client, user: User
) -> None:
    games = _games_of(user)
    client.force_login(user)
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    response = client.post(reverse("accounts:delete"), {"confirm_username": user.username})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.is_deleted
    for game in games.values():
        game.refresh_from_db()
    # The solo game ends with its score; nothing is left waiting for the player.
    assert games["solo"].status == Game.Status.FINISHED
    assert games["opened"].status == Game.Status.CANCELLED
    assert not games["joined"].seats.filter(user=user).exists()
    assert games["joined"].status == Game.Status.OPEN
    seat = games["active"].seats.get(user=user)
    assert seat.status == Seat.Status.RESIGNED
    # The other player of the game in play is not kept waiting for a deleted account.
    assert games["active"].deadline is None
    assert not Seat.objects.filter(
        user=user, status=Seat.Status.PLAYING, game__status__in=["open", "active"]
    ).exists()


def test_a_deletion_that_fails_leaves_the_games_as_they_were(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = _games_of(user)

    def refuse(self: User, *args: object, **kwargs: object) -> None:
        raise ValidationError("refused")

    monkeypatch.setattr(User, "full_clean", refuse)
    with pytest.raises(ValidationError):
        user_delete(user=user)
    for name, game in games.items():
        again = Game.objects.get(pk=game.pk)
        assert again.status == game.status, name
        assert again.seats.filter(user=user, status=Seat.Status.PLAYING).exists(), name
