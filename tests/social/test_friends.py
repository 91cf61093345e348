"""Friends: follow, friend requests from the profile, blocking, the friends page."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from time_machine import TimeMachineFixture

from accounts.models import Notification, User
from core.errors import ActionRefused
from games.models import Game
from social import services
from social.models import Block, Follow, FriendRequest
from social.selectors import are_friends, friends_of
from tests.factories import UserFactory, finished_multi, started_game, tournament_open
from tests.pages import client_for
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def _act(client: Client, other: User, action: str, **data: str) -> object:
    url = reverse("social:relation", kwargs={"username": other.username, "action": action})
    return client.post(url, data)


def test_a_friend_request_from_the_profile_accepted_makes_friends(ana: User, ben: User) -> None:
    profile = reverse("accounts:profile", kwargs={"username": ben.username})
    page = client_for(ana).get(profile).content.decode()
    assert 'data-testid="befriend-ben"' in page
    response = _act(client_for(ana), ben, "befriend")
    assert response.status_code == 302  # type: ignore[attr-defined]
    assert "friend request" in client_for(ana).get(profile).content.decode().lower()
    assert Notification.objects.filter(user=ben).get().text == (
        "ana would like to be your friend on Limes Online."
    )
    friends_page = client_for(ben).get(reverse("social:friends")).content.decode()
    assert 'data-testid="request-received"' in friends_page
    _act(client_for(ben), ana, "accept", next="friends")
    assert are_friends(ana, ben)
    assert [u.username for u in friends_of(ana)] == ["ben"]
    assert 'data-testid="friend"' in client_for(ben).get(reverse("social:friends")).content.decode()


def test_two_requests_crossing_make_friends(ana: User, ben: User) -> None:
    services.friend_request_send(user=ana, other=ben)
    services.friend_request_send(user=ben, other=ana)
    assert are_friends(ana, ben)
    assert FriendRequest.objects.count() == 1


def test_the_friends_page_shows_friends_playing_now_and_their_recent_games(
    ana: User, ben: User, outsider: User
) -> None:
    services.follow(user=ana, other=ben)
    live = started_game([ben, outsider])
    private = started_game([ben, UserFactory()])
    Game.objects.filter(pk=private.pk).update(listed=False)
    finished = finished_multi([ben, outsider], [1, 2])
    page = client_for(ana).get(reverse("social:friends")).content.decode()
    playing = page.split('id="playing-heading"')[1].split("</section>")[0]
    assert f"/games/{live.pk}/" in playing
    # A game ana may not watch is not shown, not even as "playing".
    assert f"/games/{private.pk}/" not in page
    recent = page.split('id="recent-heading"')[1].split("</section>")[0]
    assert f"/games/{finished.pk}/" in recent


def test_a_friends_tournament_deal_is_named_as_its_own_page_names_it(
    ana: User, ben: User, play_rounds: Callable[[Game, int], Game], time_machine: TimeMachineFixture
) -> None:
    services.follow(user=ana, other=ben)
    cup = tournament_open("Weekday cup", ends_in=datetime.timedelta(hours=2))
    tournaments.tournament_join(tournament=cup, user=ben)
    deal = play_rounds(tournaments.deal_play(tournament=cup, user=ben, number=1), 16)
    time_machine.move_to(cup.ends_at + datetime.timedelta(minutes=1), tick=False)
    page = client_for(ana).get(reverse("social:friends")).content.decode()
    recent = page.split('id="recent-heading"')[1].split("</section>")[0]
    assert f"/games/{deal.pk}/" in recent
    assert "Weekday cup, deal 1 of 2" in recent and "Solo game" not in recent


def test_the_friends_page_reads_the_deals_names_in_queries_that_do_not_grow(
    ana: User, ben: User, play_rounds: Callable[[Game, int], Game], time_machine: TimeMachineFixture
) -> None:
    services.follow(user=ana, other=ben)

    def cups_played(*names: str) -> None:
        now = timezone.now()
        for name in names:
            cup = tournaments.tournament_create(
                name=name,
                ruleset="standard",
                deal_count=1,
                starts_at=now - datetime.timedelta(hours=1),
                ends_at=now + datetime.timedelta(hours=2),
            )
            tournaments.tournament_join(tournament=cup, user=ben)
            play_rounds(tournaments.deal_play(tournament=cup, user=ben, number=1), 16)
        time_machine.move_to(now + datetime.timedelta(hours=3), tick=False)

    client = client_for(ana)
    cups_played("Weekday cup")
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("social:friends"))
    cups_played("Autumn cup", "Winter cup")
    with CaptureQueriesContext(connection) as three:
        page = client.get(reverse("social:friends")).content.decode()
    assert "Weekday cup, deal 1 of 1" in page and "Winter cup, deal 1 of 1" in page
    assert len(three) == len(one)


def test_blocking_hides_requests_and_ends_friendship_and_follows(ana: User, ben: User) -> None:
    services.friend_request_send(user=ben, other=ana)
    services.friend_request_accept(user=ana, other=ben)
    services.follow(user=ben, other=ana)
    _act(client_for(ana), ben, "block")
    assert Block.objects.filter(blocker=ana, blocked=ben).exists()
    assert not are_friends(ana, ben)
    assert not Follow.objects.exists()
    # Ben asks again: ana is not told, and her page does not show it.
    Notification.objects.all().delete()
    services.friend_request_send(user=ben, other=ana)
    assert not Notification.objects.filter(user=ana).exists()
    page = client_for(ana).get(reverse("social:friends")).content.decode()
    assert 'data-testid="request-received"' not in page
    with pytest.raises(ActionRefused):
        services.friend_request_accept(user=ana, other=ben)


@pytest.mark.parametrize("action", ["follow", "befriend", "block"])
def test_acting_on_oneself_is_a_400_and_stores_nothing(ana: User, action: str) -> None:
    response = _act(client_for(ana), ana, action)
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert not (Follow.objects.exists() or FriendRequest.objects.exists() or Block.objects.exists())


def test_hostile_requests_get_a_4xx(ana: User, ben: User, client: Client) -> None:
    assert _act(client_for(ana), ben, "befriend-all").status_code == 404  # type: ignore[attr-defined]
    url = reverse("social:relation", kwargs={"username": ben.username, "action": "follow"})
    assert client_for(ana).get(url).status_code == 405
    assert client_for(ana).post("/friends/nobody-here/follow/").status_code == 404
    assert client_for(ana).post("/friends/ben%00/follow/").status_code == 404
    # Signed out: to the sign-in page, nothing stored.
    assert client.post(url).status_code == 302
    assert client.get(reverse("social:friends")).status_code == 302
    assert not Follow.objects.exists()


def test_accepting_a_request_that_was_never_sent_is_a_404(ana: User, ben: User) -> None:
    assert _act(client_for(ana), ben, "accept").status_code == 404  # type: ignore[attr-defined]
    assert not FriendRequest.objects.exists()


def test_the_menu_links_to_friends_for_signed_in_players(ana: User, client: Client) -> None:
    assert 'href="/friends/"' in client_for(ana).get("/").content.decode()
    assert 'href="/friends/"' not in client.get("/").content.decode()


def test_email_choices_are_saved_per_kind(
    ana: User, ben: User, mailoutbox: list[object], committed: Callable[[], Any]
) -> None:
    client = client_for(ben)
    choices = {"challenge__email": "on", "friend_request__site": "on"}
    response = client.post(reverse("accounts:notification_preferences"), choices)
    assert response.status_code == 302
    with committed():
        services.friend_request_send(user=ana, other=ben)
    assert mailoutbox == []  # friend requests: unticked
    assert Notification.objects.filter(user=ben).exists()  # still on the site


def test_a_rematch_offer_is_notified_to_the_other_players(
    ana: User, ben: User, outsider: User, mailoutbox: list[object], committed: Callable[[], Any]
) -> None:
    from games.services import game_rematch

    old = finished_multi([ana, ben, outsider], [1, 2, 3])
    Game.objects.filter(pk=old.pk).update(pace=Game.Pace.LIVE, round_seconds=180)
    old.refresh_from_db()
    services.block(user=outsider, other=ana)
    with committed():
        game_rematch(game=old, user=ana)
    assert [n.text for n in Notification.objects.filter(user=ben)] == [
        f"ana offers a rematch of game #{old.pk}."
    ]
    assert Notification.objects.get(user=ben).url == reverse("games:detail", kwargs={"pk": old.pk})
    # Nobody who blocked ana hears of it, and ana is not told of her own offer.
    assert not Notification.objects.filter(user__in=[ana, outsider]).exists()
    assert [m.to for m in mailoutbox] == [[ben.email]]  # type: ignore[attr-defined]
