"""Two players asking for the rematch at the same instant open one game and both sit in it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from accounts.models import User
from core.errors import ActionRefused
from games import services
from games.models import Game
from tests.factories import UserFactory, started_game

if TYPE_CHECKING:
    from tests.conftest import Race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_players_asking_at_once_open_one_rematch(race: Race) -> None:
    ana, ben, cy = (UserFactory(username=name) for name in ("ana", "ben", "cy"))
    game = started_game([ana, ben, cy], pace=Game.Pace.CORRESPONDENCE)
    # Over as far as the rematch cares: finished, with its seats.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, round=17)

    def ask(user: User) -> Callable[[], int]:
        return lambda: services.game_rematch(game=game, user=user).pk

    outcomes = race(ask(ana), ask(ben), refusals=(ActionRefused,))
    rematch = Game.objects.get(rematch_of=game)
    assert outcomes == [rematch.pk, rematch.pk]
    assert sorted(s.user.username for s in rematch.seats.all() if s.user) == ["ana", "ben"]
    assert rematch.is_open
