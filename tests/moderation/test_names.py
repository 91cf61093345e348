"""Usernames: forbidden words at sign-up, a moderator's reset, the player's new choice."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user
from django.test import Client, override_settings
from django.urls import reverse

from accounts.adapter import forbidden_word_in
from accounts.models import User
from moderation import services
from moderation.models import AuditEntry
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]


def sign_up(client: Client, username: str) -> str:
    response = client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": f"{username.replace(' ', '')}@example.com",
            "password1": "fir-and-lake-42",
            "password2": "fir-and-lake-42",
        },
    )
    return response.content.decode()


@override_settings(LIMES_FORBIDDEN_USERNAME_WORDS=["badword", "troll"])
@pytest.mark.parametrize("username", ["BadWord", "xx_badword_xx", "b-a-d-w-0-r-d", "Tr0ll99"])
def test_sign_up_refuses_names_with_forbidden_words(client: Client, username: str) -> None:
    page = sign_up(client, username)
    assert "contains a word that is not allowed" in page
    assert not User.objects.filter(username=username).exists()


@override_settings(LIMES_FORBIDDEN_USERNAME_WORDS=["badword"])
def test_an_ordinary_name_is_welcome(client: Client) -> None:
    sign_up(client, "good_word_7")
    assert User.objects.filter(username="good_word_7").exists()


def test_the_default_list_catches_look_alike_spellings() -> None:
    assert forbidden_word_in("H1tl3r_fan") == "hitler"
    assert forbidden_word_in("lakeside") is None


def test_a_renamed_player_must_choose_a_new_name_before_anything_else(
    client: Client, moderator: User, player: User
) -> None:
    client.force_login(player)
    services.user_rename(moderator=moderator, user=player, reason="Offensive")
    player.refresh_from_db()
    assert player.username == f"player-{player.pk}"

    response = client.get(reverse("games:home"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("moderation:rename")
    assert "A moderator reset your username" in response.content.decode()
    assert client.get(reverse("accounts:settings")).status_code == 302

    UserFactory(username="taken")
    page = client.post(reverse("moderation:rename"), {"username": "taken"}).content.decode()
    assert "already exists" in page and User.objects.get(pk=player.pk).must_rename

    response = client.post(reverse("moderation:rename"), {"username": "kind_kestrel"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:home")
    assert get_user(client).username == "kind_kestrel"
    assert not User.objects.get(pk=player.pk).must_rename
    assert client.get(reverse("accounts:settings")).status_code == 200


@override_settings(LIMES_FORBIDDEN_USERNAME_WORDS=["troll"])
def test_the_new_name_is_checked_like_at_sign_up(
    client: Client, moderator: User, player: User
) -> None:
    services.user_rename(moderator=moderator, user=player, reason="Offensive")
    client.force_login(player)
    for bad in ["troll_again", "player-99", "ab"]:
        client.post(reverse("moderation:rename"), {"username": bad})
        assert User.objects.get(pk=player.pk).must_rename, bad


def test_a_renamed_player_can_still_sign_out(client: Client, moderator: User, player: User) -> None:
    services.user_rename(moderator=moderator, user=player, reason="Offensive")
    client.force_login(player)
    client.post(reverse("account_logout"))
    assert not get_user(client).is_authenticated


def test_clearing_a_profile_keeps_the_old_text_in_the_log(moderator: User, player: User) -> None:
    services.profile_clear(moderator=moderator, user=player, reason="Insults")
    player.refresh_from_db()
    assert player.bio == ""
    entry = AuditEntry.objects.get()
    assert entry.details == {"bio": "Rude words here."} and entry.target == player
