"""Running standings tell nobody a sealed deal's result: an entrant who has not played a
deal learns no one's score or matchpoints on it, from the page, its fragment, the profile's
record or the API; a deal nobody else has finished scores no matchpoints yet."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from types import SimpleNamespace

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from api.services import token_create
from games import services as game_services
from games.models import Game
from tests.factories import UserFactory
from tests.pages import HTMX
from tournaments import services
from tournaments.models import Play, Tournament

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def cup(monkeypatch: pytest.MonkeyPatch) -> Tournament:
    # The deals' secret seeds pinned: the same scores on every run.
    seeds = iter([7, 11])
    monkeypatch.setattr(services, "secrets", SimpleNamespace(randbits=lambda _bits: next(seeds)))
    now = timezone.now()
    return services.tournament_create(
        name="Spring cup",
        ruleset="standard",
        deal_count=2,
        starts_at=now - HOUR,
        ends_at=now + 24 * HOUR,
    )


def play(
    tournament: Tournament,
    user: User,
    number: int,
    rounds: int,
    play_rounds: Callable[[Game, int], Game],
) -> Game:
    """Play ``rounds`` rounds of deal ``number`` with the reference player, then give up."""
    game = services.deal_play(tournament=tournament, user=user, number=number)
    game = play_rounds(game, rounds)
    if not game.is_finished:
        game = game_services.seat_resign(game=game, user=user)
    return game


def table(html: str) -> list[list[str]]:
    """The standings table's rows as the eye reads them: rank, player, total, played, deals."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = []
    for row in re.findall(r"<tr.*?</tr>", body, flags=re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        rows.append([re.sub(r"<[^>]+>", "", cell).strip() for cell in cells])
    return rows


def page_of(client: Client, tournament: Tournament, **extra: str) -> str:
    url = reverse("tournaments:detail", args=[tournament.pk])
    return client.get(url, **extra).content.decode()  # type: ignore[arg-type]


def test_an_entrant_who_has_not_played_deal_2_learns_nothing_of_it(
    cup: Tournament, play_rounds: Callable[[Game, int], Game]
) -> None:
    ana, ben, cy = (UserFactory(username=name) for name in ("ana", "ben", "cy"))
    for player in (ana, ben, cy):
        services.tournament_join(tournament=cup, user=player)
    # Deal 1: ana beats ben beats cy. Deal 2, played by ana and ben only: ben beats ana,
    # which would put ben level with ana if deal 2 counted for cy.
    for player, rounds in ((ana, 16), (ben, 8), (cy, 2)):
        play(cup, player, 1, rounds, play_rounds)
    for player, rounds in ((ana, 2), (ben, 16)):
        play(cup, player, 2, rounds, play_rounds)
    deal_2_scores = Play.objects.filter(deal__number=2).values_list("score", flat=True)
    assert all(score is not None for score in deal_2_scores)

    attacker = Client()
    attacker.force_login(cy)
    # The page, and the fragment its polls and pushes ask for: deal 1 only counts for cy.
    for html in (page_of(attacker, cup), page_of(attacker, cup, **HTMX)):
        assert table(html) == [
            ["1", "ana", "100.0%", "2", "100%", "·"],
            ["2", "ben", "50.0%", "2", "50%", "·"],
            ["3", "cy", "0.0%", "1", "0%", "·"],
        ]
        assert "score_sum" not in html
    # Ben, who has played both, sees both deals: the provisional standings are his own.
    ben_client = Client()
    ben_client.force_login(ben)
    assert table(page_of(ben_client, cup)) == [
        ["1", "ben", "150.0%", "2", "50%", "100%"],
        ["2", "ana", "100.0%", "2", "100%", "0%"],
        ["3", "cy", "0.0%", "1", "0%", "—"],
    ]
    # A visitor sees how many deals each has played, and no total.
    assert [row[:4] for row in table(page_of(Client(), cup))] == [
        ["1", "ana", "0.0%", "2"],
        ["1", "ben", "0.0%", "2"],
        ["3", "cy", "0.0%", "1"],
    ]
    # The profile's record gives no place or total while the tournament runs.
    record = attacker.get(reverse("tournaments:record", args=["ben"]), **HTMX).content.decode()
    assert "1 of 3" not in record and "150.0" not in record

    # The API, asked with cy's token or by a visitor: the same, and no sum of scores.
    bearer = {"Authorization": f"Bearer {token_create(user=cy, name='peek').secret}"}
    url = f"/api/v1/tournaments/{cup.pk}/"
    mine = Client().get(url, headers=bearer).json()["standings"]
    assert [(r["player"], r["total"], r["played"]) for r in mine] == [
        ("ana", 100.0, 2),
        ("ben", 50.0, 2),
        ("cy", 0.0, 1),
    ]
    visitor = Client().get(url).json()["standings"]
    assert [(r["rank"], r["total"]) for r in visitor] == [(1, 0.0), (1, 0.0), (3, 0.0)]
    for row in mine + visitor:
        assert row["score_sum"] is None and row["scores"] is None and row["percents"] is None

    # Once the tournament is over, everything shows to everyone.
    with time_machine.travel(cup.ends_at + HOUR, tick=False):
        final = Client().get(url).json()["standings"]
        assert [r["player"] for r in final] == ["ben", "ana", "cy"]
        assert final[0]["score_sum"] is not None and final[0]["percents"] == [50.0, 100.0]
        assert table(page_of(Client(), cup))[0] == ["1", "ben", "150.0%", "2", "50%", "100%"]


def test_a_deal_nobody_else_has_finished_scores_no_matchpoints_yet(
    cup: Tournament, play_rounds: Callable[[Game, int], Game]
) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    for player in (ana, ben):
        services.tournament_join(tournament=cup, user=player)
    play(cup, ana, 1, 4, play_rounds)
    client = Client()
    client.force_login(ana)
    html = page_of(client, cup)
    # Not 100 % and first place for being alone on the deal: pending, and said to be.
    assert table(html)[0] == ["1", "ana", "0.0%", "1", "…", "·"]
    assert "No matchpoints yet: nobody else has finished this deal" in html
    assert "Provisional standings" in html
    assert 'data-testid="provisional-rule"' in html
    play(cup, ben, 1, 2, play_rounds)
    assert table(page_of(client, cup))[0] == ["1", "ana", "100.0%", "1", "100%", "·"]
