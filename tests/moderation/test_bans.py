"""Bans: signing in, the session in use, running games, the boards, expiry, unbanning."""

from __future__ import annotations

import datetime

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth import get_user
from django.core.exceptions import ValidationError
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.models import User
from accounts.selectors import not_banned
from floor import streams as floor_streams
from games import services as games
from games import streams
from games.models import Game, Seat, SoloResult
from moderation import services
from moderation.models import AuditEntry, Ban
from tests.factories import PASSWORD, SoloResultFactory, UserFactory, started_game
from tests.pages import Events

pytestmark = pytest.mark.django_db


def sign_in(client: Client, user: User) -> str:
    response = client.post(
        reverse("account_login"), {"login": user.username, "password": PASSWORD}, follow=True
    )
    return response.content.decode()


def on_the_boards() -> set[str]:
    """The players whose results the boards may show: not hidden, not banned."""
    visible = SoloResult.objects.filter(not_banned("user__"), hidden=False, game__hidden=False)
    return set(visible.values_list("user__username", flat=True))


def test_a_banned_player_cannot_sign_in_and_is_told_why_and_until_when(
    client: Client, moderator: User, player: User
) -> None:
    until = timezone.now() + datetime.timedelta(days=7)
    services.user_ban(moderator=moderator, user=player, reason="Griefing in game 12", until=until)

    page = sign_in(client, player)

    assert not get_user(client).is_authenticated
    assert "Your account is closed" in page
    assert "Griefing in game 12" in page
    assert str(until.year) in page and "Permanently" not in page


def test_a_permanent_ban_says_so(client: Client, moderator: User, player: User) -> None:
    services.user_ban(moderator=moderator, user=player, reason="Spam")
    page = sign_in(client, player)
    assert "Permanently" in page and "Spam" in page
    assert player.bans.get().ends is None


@pytest.mark.parametrize(
    "engine",
    ["django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db"],
)
def test_a_ban_ends_every_session_of_the_player_on_every_device(
    moderator: User, player: User, settings: SettingsWrapper, engine: str
) -> None:
    settings.SESSION_ENGINE = engine
    phone, laptop, bystander = Client(), Client(), Client()
    phone.force_login(player)
    laptop.force_login(player)
    other = UserFactory()
    bystander.force_login(other)

    services.user_ban(moderator=moderator, user=player, reason="Abuse")

    for client in (phone, laptop):
        assert not get_user(client).is_authenticated
        assert client.get(reverse("accounts:settings")).status_code == 302
    assert get_user(bystander) == other
    # Signing in again says why it is refused.
    assert "Abuse" in sign_in(phone, player)


def test_a_banned_players_next_page_says_why_though_their_session_is_gone(
    moderator: User, player: User
) -> None:
    phone = Client()
    phone.force_login(player)
    until = timezone.now() + datetime.timedelta(days=7)
    services.user_ban(moderator=moderator, user=player, reason="Insults in chat", until=until)
    page = phone.get(reverse("games:lobby"), follow=True)
    assert page.redirect_chain[-1][0] == reverse("moderation:banned")
    assert 'data-testid="ban-notice"' in page.content.decode()
    assert "Insults in chat" in page.content.decode()
    assert not get_user(phone).is_authenticated
    # Told once: the next page is a visitor's.
    assert phone.get(reverse("games:lobby")).status_code == 200
    # A stranger's cookie naming no ended session is told nothing.
    stranger = Client()
    stranger.cookies["sessionid"] = "x" * 32
    assert stranger.get(reverse("games:lobby")).status_code == 200


def test_a_banned_players_open_stream_ends(
    moderator: User, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.01)
    monkeypatch.setattr(floor_streams, "SESSION_CHECK_SECONDS", 0.0)
    client = AsyncClient()
    client.force_login(player)

    async def scenario() -> tuple[str, bool]:
        events = Events(await client.get(reverse("games:lobby_stream")))
        first = (await events.next())["event"]
        await sync_to_async(services.user_ban)(moderator=moderator, user=player, reason="Abuse")
        return first, await events.ends()

    assert async_to_sync(scenario)() == ("lobby", True)


def test_a_banned_player_still_signed_in_is_signed_out_on_their_next_request(
    client: Client, player: User
) -> None:
    # A ban ends the player's sessions; one it could not reach meets the middleware.
    client.force_login(player)
    User.objects.filter(pk=player.pk).update(banned_until=services.PERMANENT, ban_reason="Abuse")

    response = client.get(reverse("games:home"), follow=True)

    assert response.redirect_chain[-1][0] == reverse("moderation:banned")
    assert "Abuse" in response.content.decode()
    assert not get_user(client).is_authenticated


def test_an_htmx_request_of_a_banned_player_sends_the_whole_page_to_the_ban(
    client: Client, player: User
) -> None:
    client.force_login(player)
    User.objects.filter(pk=player.pk).update(banned_until=services.PERMANENT, ban_reason="Abuse")
    response = client.get(reverse("games:home"), HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == reverse("moderation:banned")


def test_a_ban_resigns_the_player_from_their_running_games(moderator: User, player: User) -> None:
    solo = games.game_create_solo(user=player)
    others = [UserFactory(), UserFactory()]
    multi = started_game([others[0], player, others[1]])
    own_lobby = games.game_create_multi(user=player, seats_max=3, pace=Game.Pace.LIVE)
    joined = games.game_create_multi(user=others[0], seats_max=3, pace=Game.Pace.LIVE)
    games.game_join(game=joined, user=player)

    services.user_ban(moderator=moderator, user=player, reason="Griefing")

    solo.refresh_from_db()
    assert solo.status == Game.Status.FINISHED
    assert SoloResult.objects.get(game=solo).abandoned
    multi.refresh_from_db()
    assert multi.status == Game.Status.ACTIVE  # the others play on
    assert Seat.objects.get(game=multi, user=player).status == Seat.Status.RESIGNED
    own_lobby.refresh_from_db()
    assert own_lobby.status == Game.Status.CANCELLED
    assert not Seat.objects.filter(game=joined, user=player).exists()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.BAN)
    assert entry.details["games_resigned"] == 4


def test_a_banned_player_leaves_the_boards_and_unbanning_brings_them_back(
    client: Client, moderator: User, player: User
) -> None:
    SoloResultFactory(game__created_by=player, score=55)
    SoloResultFactory(score=40)
    assert player.username in on_the_boards()

    services.user_ban(moderator=moderator, user=player, reason="Cheating")
    assert player.username not in on_the_boards()
    assert len(on_the_boards()) == 1
    profile = client.get(reverse("accounts:profile", args=[player.username])).content.decode()
    assert 'data-testid="account-closed"' in profile

    services.user_unban(moderator=moderator, user=player, reason="Appeal accepted")
    assert player.username in on_the_boards()
    ban = Ban.objects.get(user=player)
    assert ban.lifted_by == moderator and ban.lifted_at is not None


def test_a_ban_ends_by_itself(
    client: Client, moderator: User, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    SoloResultFactory(game__created_by=player)
    start = timezone.now()
    services.user_ban(
        moderator=moderator,
        user=player,
        reason="Cool down",
        until=start + datetime.timedelta(days=1),
    )
    assert "Your account is closed" in sign_in(client, player)
    assert player.username not in on_the_boards()

    later = start + datetime.timedelta(days=1, minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)

    page = sign_in(client, player)
    assert get_user(client).username == player.username
    assert "Sign out" in page
    assert player.username in on_the_boards()
    assert not Ban.objects.get().is_in_force


def test_a_new_ban_replaces_the_one_in_force(moderator: User, player: User) -> None:
    services.user_ban(
        moderator=moderator,
        user=player,
        reason="First",
        until=timezone.now() + datetime.timedelta(days=1),
    )
    services.user_ban(moderator=moderator, user=player, reason="Second, for good")
    player.refresh_from_db()
    assert player.ban_reason == "Second, for good"
    assert player.banned_until is not None and player.banned_until.year == 9999
    assert [ban.is_in_force for ban in Ban.objects.order_by("pk")] == [False, True]


@pytest.mark.parametrize(
    ("reason", "until", "message"),
    [
        ("   ", None, "Please give a reason."),
        ("x" * 301, None, "at most 300 characters"),
        ("Fine", datetime.timedelta(hours=-1), "must lie in the future"),
    ],
)
def test_a_ban_needs_a_reason_and_a_future_end(
    moderator: User, player: User, reason: str, until: datetime.timedelta | None, message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        services.user_ban(
            moderator=moderator,
            user=player,
            reason=reason,
            until=timezone.now() + until if until else None,
        )
    player.refresh_from_db()
    assert not player.is_banned and not Ban.objects.exists() and not AuditEntry.objects.exists()


def test_unbanning_a_player_who_is_not_banned_is_refused(moderator: User, player: User) -> None:
    with pytest.raises(ValidationError, match="not banned"):
        services.user_unban(moderator=moderator, user=player)
    assert not AuditEntry.objects.exists()
