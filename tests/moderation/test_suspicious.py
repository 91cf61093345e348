"""Results that stand out: far above the player's usual band, or far above the reference."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import SoloResult
from moderation.selectors import ABOVE_REFERENCE, reference_score, suspicious_results
from moderation.services import result_checks_fill
from tests.factories import SoloResultFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]


def history(user: User, scores: list[int]) -> list[SoloResult]:
    """Results of ``user`` with these scores, a day apart, oldest first."""
    start = timezone.now() - datetime.timedelta(days=len(scores))
    return [
        SoloResultFactory(
            game__created_by=user, score=score, finished_at=start + datetime.timedelta(days=i)
        )
        for i, score in enumerate(scores)
    ]


def reference_of(result: SoloResult) -> int:
    game = result.game
    return reference_score(cards=tuple(game.cards), diagonal=game.diagonal, ferryman=game.ferryman)


def test_a_score_two_bands_above_the_players_median_stands_out() -> None:
    steady = UserFactory()
    *_, leap = history(steady, [24, 25, 26, 25, 24, 40])
    *_, small_step = history(UserFactory(), [24, 25, 26, 25, 24, 38])
    *_, too_few = history(UserFactory(), [20, 21, 22, 40])

    result_checks_fill()

    flagged = set(suspicious_results())
    assert leap in flagged
    assert small_step not in flagged and too_few not in flagged
    assert leap.moderation_check.earlier_median == 25


def test_a_score_far_above_the_reference_player_stands_out() -> None:
    ordinary = SoloResultFactory(score=30)
    reference = reference_of(ordinary)
    # Dealt from the same seed: the same cards, the same reference score.
    huge = SoloResultFactory(score=reference + ABOVE_REFERENCE, game__seed=ordinary.game.seed)
    just_below = SoloResultFactory(
        score=reference + ABOVE_REFERENCE - 1, game__seed=ordinary.game.seed
    )

    result_checks_fill()

    flagged = list(suspicious_results())
    assert huge in flagged
    assert ordinary not in flagged and just_below not in flagged


def test_the_admin_lists_them_and_checks_new_results_when_opened(
    moderator_client: Client,
) -> None:
    *_, leap = history(UserFactory(username="leaper"), [20, 20, 21, 20, 22, 45])

    page = moderator_client.get(
        reverse("admin:moderation_suspiciousresult_changelist")
    ).content.decode()

    assert "leaper" in page
    assert reverse("games:replay", args=[leap.game_id]) in page
    assert "hide_results" in page  # the hide action is offered right there


def test_the_command_checks_what_is_left(capsys: pytest.CaptureFixture[str]) -> None:
    history(UserFactory(), [20, 20, 21, 20, 22, 45])
    call_command("check_results")
    assert "Checked 6 results; 1 stand out." in capsys.readouterr().out
    call_command("check_results")
    assert "Checked 0 results" in capsys.readouterr().out
