"""A live challenge: heard at once by both players' pages, expired after minutes."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from core.tokens import inbox_query
from floor import push
from games.models import Game
from social import selectors, services
from social.models import Challenge
from tests.factories import UserFactory, play_turn
from tests.pages import Events, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def friends(ana: User, ben: User) -> None:
    services.friend_request_send(user=ana, other=ben)
    services.friend_request_accept(user=ben, other=ana)


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, dict[str, Any]]]:
    """Every event the services publish, as (channel, event, data), at once."""
    sent: list[tuple[str, str, dict[str, Any]]] = []
    monkeypatch.setattr(
        push, "publish", lambda channel, event, data: sent.append((channel, event, dict(data)))
    )
    return sent


def _inbox(client: Client, user: User) -> str:
    """The query string the pages of ``client`` (signed in as ``user``) give their stream."""
    page = client.get(reverse("games:home")).content.decode()
    query = inbox_query(_as_request(client), user.pk)
    assert query.replace("&", "&amp;") in page
    return query


def _as_request(client: Client) -> Any:
    class Request:
        COOKIES = {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}

    return Request()


def _alerts(client: Client, query: str, known: str = "") -> Any:
    return client.get(f"{reverse('social:challenge_alerts')}?{query}&v={known}")


@pytest.mark.usefixtures("friends")
def test_a_live_challenge_waits_minutes_and_a_correspondence_one_days(
    ana: User, ben: User, outsider: User, time_machine: Any
) -> None:
    now = timezone.now()
    live = services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    assert live.expires_at - live.created_at == datetime.timedelta(minutes=5)
    services.friend_request_send(user=ana, other=outsider)
    services.friend_request_accept(user=outsider, other=ana)
    slow = services.challenge_create(
        user=ana, other=outsider, pace="correspondence", round_seconds=86400
    )
    assert slow.expires_at - slow.created_at == datetime.timedelta(days=3)

    time_machine.move_to(now + datetime.timedelta(minutes=6))
    response = client_for(ben).post(
        reverse("social:challenge_answer", kwargs={"pk": live.pk, "answer": "accept"})
    )
    assert response.status_code == 409
    assert "This challenge has expired." in response.content.decode()
    # The correspondence challenge still waits; the live one's page says it expired.
    page = client_for(ana).get(reverse("social:challenge", kwargs={"pk": live.pk}))
    assert "the challenge has expired" in page.content.decode()
    assert not Game.objects.exists()
    client_for(outsider).post(
        reverse("social:challenge_answer", kwargs={"pk": slow.pk, "answer": "accept"})
    )
    assert Game.objects.get().pace == "correspondence"


@pytest.mark.usefixtures("friends")
def test_the_setting_says_how_many_minutes_a_live_challenge_waits(
    ana: User, ben: User, settings: Any
) -> None:
    settings.LIMES_LIVE_CHALLENGE_MINUTES = 2
    challenge = services.challenge_create(user=ana, other=ben, pace="live", round_seconds=60)
    assert challenge.expires_at - challenge.created_at == datetime.timedelta(minutes=2)


@pytest.mark.usefixtures("friends")
def test_sending_and_accepting_nudge_both_players_with_a_version_and_nothing_else(
    ana: User, ben: User, published: list[tuple[str, str, dict[str, Any]]]
) -> None:
    challenge = services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    assert [(channel, event) for channel, event, _data in published] == [
        (push.user_channel(ben.pk), push.Event.CHALLENGES)
    ]
    published.clear()
    services.challenge_accept(user=ben, challenge_id=challenge.pk)
    # (The new game's own event aside.)
    published[:] = [sent for sent in published if sent[1] == push.Event.CHALLENGES]
    assert {channel for channel, _event, _data in published} == {
        push.user_channel(ana.pk),
        push.user_channel(ben.pk),
    }
    for _channel, _event, data in published:
        assert list(data) == ["version"] and isinstance(data["version"], int)
    published.clear()
    again = services.challenge_create(user=ana, other=ben, pace="live", round_seconds=60)
    published.clear()
    services.challenge_decline(user=ben, challenge_id=again.pk)
    assert {channel for channel, _event, _data in published} == {
        push.user_channel(ana.pk),
        push.user_channel(ben.pk),
    }


@pytest.mark.usefixtures("friends")
def test_every_page_of_the_challenged_player_shows_a_live_challenge_when_it_comes(
    ana: User, ben: User
) -> None:
    reader = client_for(ben)
    query = _inbox(reader, ben)
    # Nothing to show: the poll answers 204, cheaply.
    assert _alerts(reader, query).status_code == 204
    services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    response = _alerts(reader, query)
    assert response.status_code == 200
    html = response.content.decode()
    assert "ana challenges you to a live game, 3 minutes a round." in html
    assert 'data-testid="alert-accept"' in html
    # The menu's badge of notifications is redrawn in place, counting the challenge's (and
    # the friend request's before it).
    assert 'id="nav-notifications" data-testid="nav-notifications" hx-swap-oob="true"' in html
    assert 'title="Unread notifications">2</span>' in html
    # Once shown, the same version is news to nobody.
    version = html.split("&amp;v=", 1)[1].split('"', 1)[0]
    assert version and _alerts(reader, query, version).status_code == 204
    # Correspondence challenges keep to the friends page and the notifications.
    services.challenge_decline(user=ben, challenge_id=Challenge.objects.get().pk)
    services.challenge_create(user=ana, other=ben, pace="correspondence", round_seconds=86400)
    assert "challenges you" not in _alerts(reader, query).content.decode()


@pytest.mark.usefixtures("friends")
def test_the_alerts_poll_shows_nothing_to_another_session_or_another_player(
    ana: User, ben: User, outsider: User
) -> None:
    services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    query = _inbox(client_for(ben), ben)
    # Another session, even the challenger's own, cannot read Ben's with his token...
    assert _alerts(client_for(ana), query).status_code == 400
    assert _alerts(Client(), query).status_code == 400
    # ...nor forge one for him; and a hostile query is a 400, never a 500.
    other_client = client_for(outsider)
    other_query = _inbox(other_client, outsider)
    forged = other_query.replace(f"u={outsider.pk}", f"u={ben.pk}")
    assert _alerts(other_client, forged).status_code == 400
    assert _alerts(other_client, "u=99999999999999999999999&t=x").status_code == 400
    assert _alerts(other_client, "u=%00&t=").status_code == 400
    stream = reverse("social:challenge_stream")
    assert other_client.get(f"{stream}?{forged}").status_code == 404


@pytest.mark.usefixtures("friends")
def test_the_challengers_page_waits_then_goes_to_the_game_once_accepted(
    ana: User, ben: User
) -> None:
    sender = client_for(ana)
    response = sender.post(
        reverse("social:challenge_new", kwargs={"username": "ben"}), {"round_seconds": "180"}
    )
    challenge = Challenge.objects.get()
    page_url = reverse("social:challenge", kwargs={"pk": challenge.pk})
    assert response["Location"] == page_url
    page = sender.get(page_url).content.decode()
    assert "Waiting for ben to answer." in page
    assert 'hx-trigger="every 3s, sse:challenges"' in page
    # Nobody else sees it (the same answer as for no challenge at all).
    assert client_for(UserFactory()).get(page_url).status_code == 404

    game = services.challenge_accept(user=ben, challenge_id=challenge.pk)
    refreshed = sender.get(page_url, headers={"HX-Request": "true"})
    assert refreshed["HX-Redirect"] == reverse("games:detail", kwargs={"pk": game.pk})
    # On any other page the challenger sees a link to the game, and the tab's title a signal.
    html = _alerts(sender, _inbox(sender, ana)).content.decode()
    assert "ben accepted your challenge: the game has begun." in html
    assert reverse("games:detail", kwargs={"pk": game.pk}) in html
    assert "data-title-signal" in html


@pytest.mark.usefixtures("friends")
def test_the_challenger_s_alert_of_an_accepted_game_goes_once_they_play_in_it(
    ana: User, ben: User
) -> None:
    challenge = services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    game = services.challenge_accept(user=ben, challenge_id=challenge.pk)
    assert isinstance(game, Game)
    sender = client_for(ana)
    query = _inbox(sender, ana)
    shown = _alerts(sender, query).content.decode()
    assert "ben accepted your challenge" in shown
    # The banner names its game, and asks again on its own while it is shown.
    assert f"Play now: Multiplayer game #{game.pk}" in shown
    assert 'hx-trigger="every 10s" hx-target="#challenge-alerts"' in shown
    known = shown.split("&amp;v=", 1)[1].split('"', 1)[0]
    assert _alerts(sender, query, known).status_code == 204
    # Ana found the game and played its first round: no page of hers (and no tab title)
    # keeps calling her to a game she is playing, though no challenge changed (issue #51).
    play_turn(game, ana)
    response = _alerts(sender, query, known)
    assert response.status_code == 200
    assert "accepted your challenge" not in response.content.decode()
    assert "data-title-signal" not in response.content.decode()
    assert 'hx-trigger="every 10s"' not in response.content.decode()


@pytest.mark.usefixtures("friends")
def test_a_correspondence_challenge_leaves_the_challenger_on_the_friends_page(
    ana: User, ben: User
) -> None:
    response = client_for(ana).post(
        reverse("social:challenge_new", kwargs={"username": "ben"}), {"round_seconds": "86400"}
    )
    assert response["Location"] == reverse("social:friends")


@pytest.mark.usefixtures("friends")
def test_the_players_stream_tells_of_a_challenge_and_of_its_acceptance(
    ana: User, ben: User, django_capture_on_commit_callbacks: Any
) -> None:
    listener = AsyncClient()
    listener.force_login(ben)
    session = listener.cookies[settings.SESSION_COOKIE_NAME].value

    class Request:
        COOKIES = {settings.SESSION_COOKIE_NAME: session}

    query = inbox_query(Request(), ben.pk)  # type: ignore[arg-type]
    stream = reverse("social:challenge_stream")
    created: list[Challenge] = []

    def send() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            created.append(
                services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
            )

    async def scenario() -> tuple[dict[str, str], dict[str, str]]:
        events = Events(await listener.get(f"{stream}?{query}&v="))
        try:
            await sync_to_async(send)()
            arrived = await events.next()
        finally:
            await events.close()
        # A page that reconnects having seen nothing is told at once of what waits.
        again = Events(await listener.get(f"{stream}?{query}&v="))
        try:
            return arrived, await again.next()
        finally:
            await again.close()

    arrived, on_reconnect = async_to_sync(scenario)()
    assert arrived["event"] == push.Event.CHALLENGES
    # A version, nothing of who challenged or of the game.
    assert list(json.loads(arrived["data"])) == ["version"]
    assert "ana" not in arrived["data"]
    assert on_reconnect["event"] == push.Event.CHALLENGES
    assert on_reconnect["id"] == arrived["id"]


@pytest.mark.usefixtures("friends")
def test_a_block_takes_a_waiting_challenge_off_both_players_pages(
    ana: User, ben: User, published: list[tuple[str, str, dict[str, Any]]]
) -> None:
    services.challenge_create(user=ana, other=ben, pace="live", round_seconds=180)
    published.clear()
    services.block(user=ben, other=ana)
    assert {channel for channel, event, _data in published if event == push.Event.CHALLENGES} == {
        push.user_channel(ana.pk),
        push.user_channel(ben.pk),
    }
    assert not selectors.live_challenges(ben)
