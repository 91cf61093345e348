"""The moderation actions in the admin: a reason first, then the service, on one or many."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game, SoloResult
from moderation.models import AuditEntry
from tests.factories import SeatFactory, SoloResultFactory, UserFactory

pytestmark = pytest.mark.django_db


def act(client: Client, changelist: str, action: str, pks: list[int], **data: str) -> str:
    """Choose an action on the change list, then send its reason form; return the page."""
    url = reverse(changelist)
    first = client.post(url, {"action": action, "_selected_action": pks})
    assert first.status_code == 200  # the intermediate page asking for a reason
    assert 'name="reason"' in first.content.decode()
    response = client.post(
        url, {"action": action, "_selected_action": pks, "apply": "1", **data}, follow=True
    )
    return response.content.decode()


def test_a_moderator_bans_several_players_at_once(moderator_client: Client) -> None:
    players = [UserFactory(), UserFactory()]
    page = act(
        moderator_client,
        "admin:accounts_user_changelist",
        "ban_users",
        [p.pk for p in players],
        reason="Spam accounts",
        duration="7",
    )
    assert "done for 2 items" in page
    for player in players:
        player.refresh_from_db()
        assert player.is_banned and player.ban_reason == "Spam accounts"
    assert AuditEntry.objects.filter(action=AuditEntry.Action.BAN).count() == 2


def test_the_ban_form_asks_again_without_a_reason(moderator_client: Client, player: User) -> None:
    url = reverse("admin:accounts_user_changelist")
    response = moderator_client.post(
        url, {"action": "ban_users", "_selected_action": [player.pk], "apply": "1", "reason": ""}
    )
    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    player.refresh_from_db()
    assert not player.is_banned


def test_a_moderator_bans_one_player_from_their_page(
    moderator_client: Client, player: User
) -> None:
    change = reverse("admin:accounts_user_change", args=[player.pk])
    ban_url = reverse("admin:accounts_user_moderate", args=[player.pk, "ban_users"])
    assert ban_url in moderator_client.get(change).content.decode()

    response = moderator_client.post(
        ban_url, {"apply": "1", "reason": "Threats in chat", "until": ""}, follow=True
    )

    assert response.redirect_chain[-1][0] == change
    page = response.content.decode()
    player.refresh_from_db()
    assert player.is_banned
    # The player's page lists the ban and the audit entry, and now offers to lift the ban.
    assert "Threats in chat" in page
    assert reverse("admin:accounts_user_moderate", args=[player.pk, "unban_users"]) in page


def test_one_refusal_does_not_stop_the_others(moderator_client: Client, superuser: User) -> None:
    player = UserFactory()
    page = act(
        moderator_client,
        "admin:accounts_user_changelist",
        "ban_users",
        [player.pk, superuser.pk],
        reason="Spam",
    )
    assert "Only an administrator" in page
    assert "done for 1 item" in page
    player.refresh_from_db()
    superuser.refresh_from_db()
    assert player.is_banned and not superuser.is_banned


def test_hiding_a_multiplayer_game_says_to_recompute_the_ratings(
    moderator_client: Client,
) -> None:
    game = SeatFactory(game__mode=Game.Mode.MULTI, game__status=Game.Status.FINISHED).game
    url = reverse("admin:games_game_changelist")
    form = moderator_client.post(url, {"action": "hide_games", "_selected_action": [game.pk]})
    assert "recompute_ratings" in form.content.decode()

    page = act(
        moderator_client, "admin:games_game_changelist", "hide_games", [game.pk], reason="Collusion"
    )

    assert "python manage.py recompute_ratings" in page
    game.refresh_from_db()
    assert game.hidden and game.hidden_reason == "Collusion"


def test_a_moderator_hides_and_unhides_a_result(moderator_client: Client) -> None:
    result = SoloResultFactory()
    act(
        moderator_client,
        "admin:games_soloresult_changelist",
        "hide_results",
        [result.pk],
        reason="Account shared",
    )
    result.refresh_from_db()
    assert result.hidden and result.hidden_reason == "Account shared"

    act(moderator_client, "admin:games_soloresult_changelist", "unhide_results", [result.pk])
    result.refresh_from_db()
    assert not result.hidden
    assert SoloResult.objects.count() == 1  # nothing deleted


def test_a_moderator_resets_a_name_and_clears_a_profile(
    moderator_client: Client, player: User
) -> None:
    act(
        moderator_client,
        "admin:accounts_user_changelist",
        "rename_users",
        [player.pk],
        reason="Offensive name",
    )
    act(
        moderator_client,
        "admin:accounts_user_changelist",
        "clear_profiles",
        [player.pk],
        reason="Insults in bio",
    )
    player.refresh_from_db()
    assert player.username == f"player-{player.pk}" and player.must_rename
    assert player.bio == ""


def test_a_moderator_edits_no_game_field_by_hand(moderator_client: Client) -> None:
    result = SoloResultFactory()
    page = moderator_client.get(
        reverse("admin:games_game_change", args=[result.game_id])
    ).content.decode()
    assert 'name="hidden"' not in page and 'name="status"' not in page
    assert reverse("admin:games_game_moderate", args=[result.game_id, "hide_games"]) in page
