"""Helpers for the boards' tests: results made by factories, boards read through the pages."""

from __future__ import annotations

import datetime

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, Ruleset, Seat
from leaderboards.services import player_stats_rebuild
from tests.factories import FinishedSoloFactory
from tests.games.conftest import play_rounds  # noqa: F401  (a fixture these tests use too)

FLAGS = {
    Ruleset.STANDARD: {"diagonal": False, "ferryman": False},
    Ruleset.DIAGONAL: {"diagonal": True, "ferryman": False},
    Ruleset.FERRYMAN: {"diagonal": False, "ferryman": True},
    Ruleset.BOTH: {"diagonal": True, "ferryman": True},
}


def solo_results(
    user: User,
    scores: list[int],
    *,
    ruleset: str = Ruleset.STANDARD,
    at: datetime.datetime | None = None,
    hidden: bool = False,
) -> list[Seat]:
    """Finished solo games of ``user`` with these scores, a second apart, oldest first;
    then the player's board rows rebuilt, as moderation and a finishing game do."""
    start = at or timezone.now() - datetime.timedelta(seconds=len(scores))
    seats = [
        FinishedSoloFactory(
            game__created_by=user,
            game__ruleset=ruleset,
            game__finished_at=start + datetime.timedelta(seconds=i),
            solo_result__hidden=hidden,
            score=score,
            **{f"game__{flag}": value for flag, value in FLAGS[Ruleset(ruleset)].items()},
        )
        for i, score in enumerate(scores)
    ]
    player_stats_rebuild(user=user)
    return seats


def board_url(ruleset: str, kind: str, page: int | None = None) -> str:
    url = reverse("leaderboards:board", kwargs={"ruleset": ruleset, "kind": kind})
    return url if page is None else f"{url}?page={page}"


def board_names(client: Client, url: str) -> list[str]:
    """The player names of a board page, top to bottom."""
    response = client.get(url)
    assert response.status_code == 200
    return [row.username for row in response.context["board"].rows]


def game_of(seat: Seat) -> Game:
    return seat.game
