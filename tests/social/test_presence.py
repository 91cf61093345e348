"""Friends' online status: seen on the site in the last five minutes, shown to friends
only, unless the player keeps it to themselves."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from time_machine import TimeMachineFixture

from accounts.models import User
from core.tokens import inbox_query
from social import presence, services
from tests.factories import UserFactory
from tests.pages import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def friends(ana: User, ben: User) -> tuple[User, User]:
    services.friend_request_send(user=ana, other=ben)
    services.friend_request_accept(user=ben, other=ana)
    return ana, ben


def online_on_friends_page(client: Client) -> list[str]:
    page = client.get(reverse("social:friends")).content.decode()
    return [
        item.split("</a>")[0].rsplit(">", 1)[1]
        for item in page.split('data-testid="friend"')[1:]
        if 'data-testid="online"' in item.split("</li>")[0]
    ]


def later(time_machine: TimeMachineFixture, minutes: float) -> None:
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=minutes))


def test_a_friend_seen_in_the_last_five_minutes_shows_online(
    friends: tuple[User, User], time_machine: TimeMachineFixture
) -> None:
    ana, ben = friends
    reader = client_for(ana)
    assert online_on_friends_page(reader) == []
    client_for(ben).get(reverse("games:home"))
    assert online_on_friends_page(reader) == ["ben"]
    later(time_machine, 4)
    assert online_on_friends_page(reader) == ["ben"]
    later(time_machine, 2)
    assert online_on_friends_page(reader) == []


def test_only_friends_see_it(friends: tuple[User, User], outsider: User) -> None:
    _ana, ben = friends
    # Cleo follows Ben and sees his games, but not whether he is on the site.
    services.follow(user=outsider, other=ben)
    client_for(ben).get(reverse("games:home"))
    page = client_for(outsider).get(reverse("social:friends")).content.decode()
    assert 'data-testid="online"' not in page


def test_a_player_may_keep_it_from_their_friends(friends: tuple[User, User]) -> None:
    ana, ben = friends
    ben_client = client_for(ben)
    response = ben_client.post(reverse("social:presence_visibility"), {"hidden": "1"}, follow=True)
    assert "Your friends no longer see when you are online." in response.content.decode()
    assert "Your friends do not see when you are online." in response.content.decode()
    assert online_on_friends_page(client_for(ana)) == []
    ben_client.post(reverse("social:presence_visibility"), {"hidden": "0"})
    assert online_on_friends_page(client_for(ana)) == ["ben"]


@pytest.mark.parametrize("value", ["", "yes", "1\x00", "2"])
def test_a_choice_that_cannot_be_read_is_refused(ben: User, value: str) -> None:
    response = client_for(ben).post(reverse("social:presence_visibility"), {"hidden": value})
    assert response.status_code == 400


def test_polls_do_not_count_as_being_on_the_site(friends: tuple[User, User]) -> None:
    ana, ben = friends
    ben_client = client_for(ben)
    # The challenge poll every page of Ben's keeps asking: it loads no session.
    request = ben_client.get(reverse("games:home")).wsgi_request
    cache.clear()
    alerts = reverse("social:challenge_alerts") + "?" + inbox_query(request, ben.pk)
    assert ben_client.get(alerts).status_code == 204
    assert online_on_friends_page(client_for(ana)) == []


def test_the_mark_is_renewed_once_a_minute_without_a_query(
    ben: User, time_machine: TimeMachineFixture, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        assert presence.mark_seen(ben.pk)
        assert not presence.mark_seen(ben.pk)
        later(time_machine, 0.5)
        assert not presence.mark_seen(ben.pk)
        later(time_machine, 0.6)
        assert presence.mark_seen(ben.pk)
        assert presence.online_among([ben.pk, UserFactory.build(pk=10**9).pk]) == {ben.pk}
