"""The daily challenge's par: the strong bot's score and the hindsight best, once a day."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

import rules
import rules.bot
from accounts.models import User
from games import computer, services
from games.daily import today
from games.models import DailyPar, Game
from tests.factories import FinishedSoloFactory, UserFactory

pytestmark = pytest.mark.django_db

Committed = Callable[[], Any]


def test_the_first_attempt_of_the_day_computes_the_par_once(
    user: User, committed: Committed, monkeypatch: pytest.MonkeyPatch
) -> None:
    searches: list[tuple[int, ...]] = []
    real = rules.bot.hindsight_best

    def counted(cards: Any, **kwargs: Any) -> Any:
        searches.append(tuple(card.number for card in cards))
        return real(cards, **kwargs)

    monkeypatch.setattr(rules.bot, "hindsight_best", counted)
    with committed():
        game = services.game_create_daily(user=user)
    with committed():
        services.game_create_daily(user=UserFactory())
    par = DailyPar.objects.get()
    assert (par.day, par.ruleset, par.status) == (today(), "standard", DailyPar.Status.DONE)
    # The search saw the very cards of the attempts, all 16 in order.
    assert searches == [tuple(game.cards)]
    assert par.bot_score is not None and par.best_score is not None
    assert 0 < par.bot_score <= par.best_score


def test_the_par_shows_after_ones_attempt_with_a_verdict(
    client_logged_in: Client, user: User, committed: Committed, play_rounds: Any
) -> None:
    with committed():
        game = services.game_create_daily(user=user)
    page = client_logged_in.get(reverse("leaderboards:daily")).content.decode()
    assert 'data-testid="daily-par"' not in page
    fragment = reverse("leaderboards:daily_par", args=[today().isoformat()])
    assert client_logged_in.get(fragment).status_code == 404
    play_rounds(game, 16)
    par = DailyPar.objects.get()
    score = Game.objects.get(pk=game.pk).solo_result.score
    page = client_logged_in.get(reverse("leaderboards:daily")).content.decode()
    assert f'data-testid="par-bot">{par.bot_score}<' in page
    assert f'data-testid="par-best">{par.best_score}<' in page
    verdict = (
        "You beat the bot!"
        if score > (par.bot_score or 0)
        else "You tied with the bot."
        if score == par.bot_score
        else "The bot did better this time."
    )
    assert verdict in page
    final = client_logged_in.get(reverse("games:detail", kwargs={"pk": game.pk})).content.decode()
    assert f"the strong computer player scored {par.bot_score};" in final


def test_while_the_par_is_computed_the_page_says_so_and_polls(client: Client) -> None:
    yesterday = today() - datetime.timedelta(days=1)
    DailyPar.objects.create(day=yesterday)
    page = client.get(reverse("leaderboards:daily_day", args=[yesterday.isoformat()]))
    html = page.content.decode()
    fragment = reverse("leaderboards:daily_par", args=[yesterday.isoformat()])
    assert 'data-testid="par-pending"' in html and f'hx-get="{fragment}"' in html
    computer.daily_par_compute(day=yesterday)
    done = client.get(fragment, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-testid="par-bot"' in done and "hx-get" not in done


def test_the_daily_board_badges_those_who_beat_the_bot(client: Client) -> None:
    yesterday = today() - datetime.timedelta(days=1)
    DailyPar.objects.create(day=yesterday, status=DailyPar.Status.DONE, bot_score=40, best_score=55)
    FinishedSoloFactory(game__daily=yesterday, score=41, game__created_by__username="ana")
    FinishedSoloFactory(game__daily=yesterday, score=40, game__created_by__username="ben")
    page = client.get(reverse("leaderboards:daily_day", args=[yesterday.isoformat()]))
    rows = page.content.decode().split("<tr")
    ana = next(row for row in rows if ">ana<" in row)
    ben = next(row for row in rows if ">ben<" in row)
    assert 'data-testid="beat-bot"' in ana and 'data-testid="beat-bot"' not in ben


def test_the_command_computes_a_days_par_and_keeps_a_done_one() -> None:
    call_command("compute_daily_par", "--day", "2026-06-01")
    par = DailyPar.objects.get(day=datetime.date(2026, 6, 1))
    assert par.is_done
    par.bot_score = 1
    par.save()
    call_command("compute_daily_par", "--day", "2026-06-01")
    par.refresh_from_db()
    assert par.bot_score == 1


def test_bad_days_are_refused() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("compute_daily_par", "--day", "yesterday\x00")
    client = Client()
    assert client.get("/daily/2026-13-40/par/").status_code == 404
    assert client.get("/daily/2999-01-01/par/").status_code == 404
    assert not DailyPar.objects.exists()
