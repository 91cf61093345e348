"""Account writes: profile updates and anonymising deletion."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth import get_user
from django.core.exceptions import ValidationError
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.models import User
from accounts.services import user_delete, user_update_profile
from floor import streams as floor_streams
from games import streams
from tests.factories import PASSWORD, UserFactory
from tests.pages import Events

pytestmark = [pytest.mark.django_db, pytest.mark.sql_dialect]


def test_display_name_is_the_username(user: User) -> None:
    assert user.display_name == user.username


def test_display_name_of_a_deleted_player(user: User) -> None:
    user.deleted_at = timezone.now()

    assert user.display_name == "deleted player"


def test_update_profile_saves_bio(user: User) -> None:
    user_update_profile(user=user, bio="I always build the lake first.")

    user.refresh_from_db()
    assert user.bio == "I always build the lake first."


def test_update_profile_refuses_an_overlong_bio(user: User) -> None:
    with pytest.raises(ValidationError) as excinfo:
        user_update_profile(user=user, bio="x" * 501)

    assert "bio" in excinfo.value.message_dict
    user.refresh_from_db()
    assert user.bio == ""


def test_delete_keeps_the_row_but_removes_personal_data() -> None:
    user = UserFactory(first_name="Ada", last_name="Lime", bio="Hello")
    pk = user.pk

    user_delete(user=user)

    user = User.objects.get(pk=pk)
    assert user.username == f"deleted-{pk}"
    assert (user.email, user.first_name, user.last_name, user.bio) == ("", "", "", "")
    assert not user.has_usable_password()
    assert not user.is_active
    assert user.deleted_at is not None
    assert not EmailAddress.objects.filter(user=user).exists()


def test_delete_ends_every_session_of_that_player_only(user: User) -> None:
    phone, laptop, bystander = Client(), Client(), Client()
    phone.force_login(user)
    laptop.force_login(user)
    other = UserFactory()
    bystander.force_login(other)

    user_delete(user=user)

    for client in (phone, laptop):
        assert not get_user(client).is_authenticated
        response = client.get(reverse("accounts:settings"))
        assert response.status_code == 302
    assert get_user(bystander) == other


def test_delete_picks_a_free_username_when_the_plain_one_is_taken() -> None:
    user = UserFactory()
    squatter = UserFactory(username=f"deleted-{user.pk}")

    user_delete(user=user)

    user.refresh_from_db()
    assert user.username.startswith(f"deleted-{user.pk}-")
    squatter.refresh_from_db()
    assert squatter.username == f"deleted-{user.pk}"


def test_deleted_player_cannot_sign_in_even_with_the_new_username(client: Client) -> None:
    user = UserFactory()
    user_delete(user=user)

    client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})

    assert not get_user(client).is_authenticated


def test_a_deleted_accounts_open_stream_ends_though_its_session_was_cached(
    user: User, settings: SettingsWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With Redis, sessions are read from the cache first: a row deleted alone would leave
    # a copy there that the stream's check would still find.
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.01)
    monkeypatch.setattr(floor_streams, "SESSION_CHECK_SECONDS", 0.0)
    phone = AsyncClient()
    phone.force_login(user)

    async def scenario() -> bool:
        events = Events(await phone.get(reverse("games:lobby_stream")))
        await events.next()
        await sync_to_async(user_delete)(user=user)
        return await events.ends()

    assert async_to_sync(scenario)()
