"""Hiding results and games, and the audit log: one row per moderator action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game, SoloResult
from moderation import services
from moderation.models import AuditEntry, Report
from tests.factories import ReportFactory, SeatFactory, SoloResultFactory, UserFactory, seat_user

pytestmark = pytest.mark.django_db


def on_the_boards() -> list[int]:
    """Scores the boards may count: neither the result nor its game hidden."""
    return sorted(
        SoloResult.objects.filter(hidden=False, game__hidden=False).values_list("score", flat=True)
    )


def test_hiding_a_result_takes_it_off_the_boards_until_unhidden(
    moderator: User, stats_rebuilds: list[Any]
) -> None:
    result = SoloResultFactory(score=60)
    SoloResultFactory(score=40)

    services.result_hide(moderator=moderator, result=result, reason="Shared account")
    assert on_the_boards() == [40]
    assert stats_rebuilds == [result.user_id]

    services.result_unhide(moderator=moderator, result=result, reason="Cleared")
    assert on_the_boards() == [40, 60]
    assert stats_rebuilds == [result.user_id, result.user_id]


def test_hiding_a_solo_game_hides_its_result(moderator: User) -> None:
    result = SoloResultFactory(score=60)
    services.game_hide(moderator=moderator, game=result.game, reason="Bot play")
    result.refresh_from_db()
    assert result.hidden and result.hidden_reason == "Bot play"
    assert on_the_boards() == []
    services.game_unhide(moderator=moderator, game=result.game)
    assert on_the_boards() == [60]


def test_hiding_a_multiplayer_game_rebuilds_every_players_rows(
    moderator: User, stats_rebuilds: list[Any]
) -> None:
    seat = SeatFactory(game__mode=Game.Mode.MULTI)
    other = SeatFactory(game=seat.game, user=UserFactory(), position=2)
    services.game_hide(moderator=moderator, game=seat.game, reason="Collusion")
    assert sorted(stats_rebuilds) == sorted([seat_user(seat).pk, seat_user(other).pk])
    entry = AuditEntry.objects.get()
    assert entry.game == seat.game and entry.target is None
    assert sorted(entry.details["players"]) == sorted(
        [seat_user(seat).username, seat_user(other).username]
    )


def test_hiding_twice_or_without_a_reason_is_refused(moderator: User) -> None:
    result = SoloResultFactory()
    with pytest.raises(ValidationError, match="reason"):
        services.result_hide(moderator=moderator, result=result, reason=" ")
    services.result_hide(moderator=moderator, result=result, reason="Shared")
    with pytest.raises(ValidationError, match="already hidden"):
        services.result_hide(moderator=moderator, result=result, reason="Again")
    assert AuditEntry.objects.count() == 1


ACTIONS: dict[AuditEntry.Action, Callable[[User, User, Report, SoloResult], object]] = {
    AuditEntry.Action.BAN: lambda m, p, r, s: services.user_ban(moderator=m, user=p, reason="w"),
    AuditEntry.Action.UNBAN: lambda m, p, r, s: (
        services.user_ban(moderator=m, user=p, reason="w"),
        services.user_unban(moderator=m, user=p, reason="w"),
    ),
    AuditEntry.Action.HIDE_RESULT: lambda m, p, r, s: services.result_hide(
        moderator=m, result=s, reason="w"
    ),
    AuditEntry.Action.UNHIDE_RESULT: lambda m, p, r, s: (
        services.result_hide(moderator=m, result=s, reason="w"),
        services.result_unhide(moderator=m, result=s, reason="w"),
    ),
    AuditEntry.Action.HIDE_GAME: lambda m, p, r, s: services.game_hide(
        moderator=m, game=s.game, reason="w"
    ),
    AuditEntry.Action.UNHIDE_GAME: lambda m, p, r, s: (
        services.game_hide(moderator=m, game=s.game, reason="w"),
        services.game_unhide(moderator=m, game=s.game, reason="w"),
    ),
    AuditEntry.Action.RENAME: lambda m, p, r, s: services.user_rename(
        moderator=m, user=p, reason="w"
    ),
    AuditEntry.Action.CLEAR_PROFILE: lambda m, p, r, s: services.profile_clear(
        moderator=m, user=p, reason="w"
    ),
    AuditEntry.Action.RESOLVE_REPORT: lambda m, p, r, s: services.report_resolve(
        moderator=m, report=r, note="w"
    ),
    AuditEntry.Action.DISMISS_REPORT: lambda m, p, r, s: services.report_dismiss(
        moderator=m, report=r, note="w"
    ),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_every_action_writes_one_audit_row(
    moderator: User, player: User, action: AuditEntry.Action
) -> None:
    report = ReportFactory(target=player)
    result = SoloResultFactory(game__created_by=player)

    ACTIONS[action](moderator, player, report, result)

    entry = AuditEntry.objects.get(action=action)  # exactly one of its kind
    assert entry.moderator == moderator
    assert entry.target == player
    assert entry.reason == "w"
    assert entry.at is not None
    # The two-step cases wrote one row per step, never more.
    assert AuditEntry.objects.count() == (2 if action.startswith("un") else 1)


def test_the_log_is_filterable_and_shown_on_the_players_page(
    moderator_client: Client, moderator: User, player: User
) -> None:
    other = UserFactory(username="quiet")
    services.profile_clear(moderator=moderator, user=player, reason="Insults")
    services.user_rename(moderator=moderator, user=other, reason="Slur")
    url = reverse("admin:moderation_auditentry_changelist")

    by_target = moderator_client.get(url, {"target__id__exact": player.pk}).content.decode()
    assert "Insults" in by_target and "Slur" not in by_target
    by_action = moderator_client.get(url, {"action__exact": "rename"}).content.decode()
    assert "Slur" in by_action and "Insults" not in by_action
    by_moderator = moderator_client.get(url, {"moderator__id__exact": moderator.pk})
    assert "Slur" in by_moderator.content.decode()

    page = moderator_client.get(reverse("admin:accounts_user_change", args=[player.pk]))
    assert "Insults" in page.content.decode() and "Clear profile" in page.content.decode()
