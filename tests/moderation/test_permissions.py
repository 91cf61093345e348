"""Who may moderate: the Moderators group, the admin's boundaries, the services' checks."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from moderation import services
from moderation.models import AuditEntry
from moderation.selectors import MODERATORS_GROUP
from tests.factories import ReportFactory, SoloResultFactory, UserFactory

pytestmark = pytest.mark.django_db

MODERATION_PAGES = [
    "admin:accounts_user_changelist",
    "admin:moderation_report_changelist",
    "admin:moderation_auditentry_changelist",
    "admin:moderation_ban_changelist",
    "admin:moderation_suspiciousresult_changelist",
    "admin:games_game_changelist",
    "admin:games_soloresult_changelist",
    "admin:wintergames_wintergame_changelist",
]


def test_the_moderators_group_has_exactly_the_permissions_it_needs() -> None:
    group = Group.objects.get(name=MODERATORS_GROUP)
    codenames = {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}
    assert codenames == {
        "accounts.view_user",
        "accounts.change_user",
        "games.view_game",
        "games.change_game",
        "games.view_seat",
        "games.view_soloresult",
        "games.change_soloresult",
        "moderation.view_report",
        "moderation.change_report",
        "moderation.view_ban",
        "moderation.view_auditentry",
        # They run tournaments: create one-off ones, invite, disqualify (migration 0005).
        "tournaments.view_tournament",
        "tournaments.add_tournament",
        "tournaments.view_invitation",
        "tournaments.add_invitation",
        "tournaments.view_entrant",
        "tournaments.change_entrant",
        # Chat: hide messages and mute their authors (moderation/admin_chat.py).
        "social.view_chatmessage",
        "social.change_chatmessage",
        "social.view_chatmute",
        # Winter games: see them and their seats, hide and unhide them (migration 0008).
        "wintergames.view_wintergame",
        "wintergames.change_wintergame",
        "wintergames.view_winterseat",
    }
    assert not any(code.split(".")[1].startswith("delete_") for code in codenames)
    assert not any(
        code.split(".")[1].startswith("add_")
        for code in codenames
        if not code.startswith("tournaments.")
    )


@pytest.mark.parametrize("name", MODERATION_PAGES)
def test_a_player_reaches_no_moderation_page(client: Client, player: User, name: str) -> None:
    client.force_login(player)
    response = client.get(reverse(name))
    # The admin sends anyone who is not staff to its sign-in page.
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


@pytest.mark.parametrize("name", MODERATION_PAGES)
def test_a_moderator_reaches_every_moderation_page(moderator_client: Client, name: str) -> None:
    SoloResultFactory()
    assert moderator_client.get(reverse(name), follow=True).status_code == 200


ADMIN_PAGES = [
    "admin:index",
    "admin:moderation_report_changelist",
    "admin:tournaments_tournament_add",
]


@pytest.mark.parametrize("name", ADMIN_PAGES)
def test_the_admin_s_pages_carry_the_site_s_icon(moderator_client: Client, name: str) -> None:
    """The tab shows the site's icon, and the browser asks for no /favicon.ico (a 404)."""
    page = moderator_client.get(reverse(name), follow=True).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    assert page.count('rel="icon"') == 1
    # Still the admin's own page, under its own heading.
    assert "Django administration" in page


def test_a_moderator_cannot_delete_or_edit_the_audit_log(
    moderator_client: Client, moderator: User, player: User
) -> None:
    services.profile_clear(moderator=moderator, user=player, reason="insults")
    entry = AuditEntry.objects.get()

    delete = reverse("admin:moderation_auditentry_delete", args=[entry.pk])
    assert moderator_client.post(delete, {"post": "yes"}).status_code == 403
    change = reverse("admin:moderation_auditentry_change", args=[entry.pk])
    response = moderator_client.post(change, {"reason": "nothing happened"})
    assert response.status_code == 403
    page = moderator_client.get(change).content.decode()
    assert 'name="reason"' not in page and "insults" in page
    entry.refresh_from_db()
    assert entry.reason == "insults"


def test_not_even_a_superuser_gets_a_form_to_change_the_audit_log(
    client: Client, superuser: User, moderator: User, player: User
) -> None:
    services.profile_clear(moderator=moderator, user=player, reason="insults")
    entry = AuditEntry.objects.get()
    client.force_login(superuser)

    page = client.get(reverse("admin:moderation_auditentry_change", args=[entry.pk]))
    assert 'name="reason"' not in page.content.decode()
    delete = reverse("admin:moderation_auditentry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.count() == 1


def test_a_moderator_cannot_delete_a_game_or_a_result(moderator_client: Client) -> None:
    result = SoloResultFactory()
    game_delete = reverse("admin:games_game_delete", args=[result.game_id])
    assert moderator_client.post(game_delete, {"post": "yes"}).status_code == 403
    result_delete = reverse("admin:games_soloresult_delete", args=[result.pk])
    assert moderator_client.post(result_delete, {"post": "yes"}).status_code == 403
    bulk = moderator_client.post(
        reverse("admin:games_game_changelist"),
        {"action": "delete_selected", "_selected_action": [result.game_id], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert Game.objects.filter(pk=result.game_id).exists()


def test_a_moderator_cannot_change_permissions_or_passwords(
    moderator_client: Client, player: User
) -> None:
    change = reverse("admin:accounts_user_change", args=[player.pk])
    page = moderator_client.get(change).content.decode()
    assert 'name="is_superuser"' not in page
    assert 'name="groups"' not in page and 'name="user_permissions"' not in page
    # Whatever is posted, nothing about the account changes.
    moderator_client.post(
        change, {"username": player.username, "is_staff": "on", "is_superuser": "on"}
    )
    player.refresh_from_db()
    assert not player.is_staff and not player.is_superuser

    password = reverse("admin:auth_user_password_change", args=[player.pk])
    assert moderator_client.get(password).status_code == 403
    assert moderator_client.get(reverse("admin:auth_group_changelist")).status_code == 403


def test_a_moderator_cannot_ban_staff_or_themselves(moderator: User, superuser: User) -> None:
    with pytest.raises(PermissionDenied):
        services.user_ban(moderator=moderator, user=superuser, reason="coup")
    with pytest.raises(PermissionDenied):
        services.user_ban(moderator=moderator, user=moderator, reason="oops")
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    "act",
    [
        lambda who, player, report, result: services.user_ban(
            moderator=who, user=player, reason="x"
        ),
        lambda who, player, report, result: services.user_rename(
            moderator=who, user=player, reason="x"
        ),
        lambda who, player, report, result: services.profile_clear(
            moderator=who, user=player, reason="x"
        ),
        lambda who, player, report, result: services.result_hide(
            moderator=who, result=result, reason="x"
        ),
        lambda who, player, report, result: services.game_hide(
            moderator=who, game=result.game, reason="x"
        ),
        lambda who, player, report, result: services.report_resolve(
            moderator=who, report=report, note="x"
        ),
    ],
    ids=["ban", "rename", "clear", "hide result", "hide game", "resolve"],
)
def test_the_services_refuse_a_player_who_is_not_a_moderator(player: User, act: object) -> None:
    intruder = UserFactory(is_staff=True)  # staff, but in no group
    report = ReportFactory(target=player)
    result = SoloResultFactory(game__created_by=player)
    with pytest.raises(PermissionDenied):
        act(intruder, player, report, result)  # type: ignore[operator]
    player.refresh_from_db()
    assert not player.is_banned and player.bio
    assert not AuditEntry.objects.exists()
