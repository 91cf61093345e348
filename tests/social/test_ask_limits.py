"""Friend requests and challenges: asked again they mail nothing, and floods are refused."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from accounts.services import notification_preferences_set
from social import services
from social.models import Challenge, FriendRequest
from tests.factories import UserFactory
from tests.pages import client_for

pytestmark = pytest.mark.django_db


def _befriend(client: Client, other: User) -> Any:
    url = reverse("social:relation", kwargs={"username": other.username, "action": "befriend"})
    return client.post(url)


def _withdraw(client: Client, other: User) -> Any:
    url = reverse("social:relation", kwargs={"username": other.username, "action": "unfriend"})
    return client.post(url)


def test_asking_withdrawing_and_asking_again_mails_once(
    ana: User, ben: User, committed: Callable[[], Any], time_machine: Any
) -> None:
    notification_preferences_set(user=ben, choices={("friend_request", "email"): True})
    asker = client_for(ana)
    for _cycle in range(25):
        with committed():
            assert _befriend(asker, ben).status_code == 302
            assert _withdraw(asker, ben).status_code == 302
        # Slowly enough that no limit refuses any (15 asks an hour).
        time_machine.move_to(timezone.now() + datetime.timedelta(minutes=4))
    assert [m.to for m in mail.outbox] == [[ben.email]]
    assert Notification.objects.filter(user=ben).count() == 1
    # A day later the same ask is news again.
    time_machine.move_to(timezone.now() + datetime.timedelta(days=1))
    with committed():
        _befriend(asker, ben)
    assert len(mail.outbox) == 2


def test_challenging_and_withdrawing_again_and_again_mails_once(
    ana: User, ben: User, committed: Callable[[], Any], time_machine: Any
) -> None:
    services.friend_request_send(user=ana, other=ben)
    services.friend_request_accept(user=ben, other=ana)
    for _cycle in range(25):
        with committed():
            challenge = services.challenge_create(
                user=ana, other=ben, pace="correspondence", round_seconds=86400
            )
            services.challenge_decline(user=ana, challenge_id=challenge.pk)
        time_machine.move_to(timezone.now() + datetime.timedelta(minutes=4))
    assert Challenge.objects.filter(status=Challenge.Status.CANCELLED).count() == 25
    assert [m.to for m in mail.outbox] == [[ben.email]]
    challenged = Notification.objects.filter(user=ben, text__contains="challenges you")
    assert challenged.count() == 1
    # Once read, a new challenge is a notice again, though not a second e-mail that day.
    challenged.update(read_at=timezone.now())
    with committed():
        services.challenge_create(user=ana, other=ben, pace="correspondence", round_seconds=86400)
    assert challenged.count() == 2
    assert len(mail.outbox) == 1


def test_one_player_asking_too_many_is_refused(ana: User, committed: Callable[[], Any]) -> None:
    asker = client_for(ana)
    others = UserFactory.create_batch(services.ASKS_PER_SENDER[0] + 1)
    with committed():
        for other in others[:-1]:
            services.friend_request_send(user=ana, other=other)
        # Withdrawing frees no place.
        assert _withdraw(asker, others[0]).status_code == 302
        response = _befriend(asker, others[-1])
    assert response.status_code == 429
    assert "You have sent many friend requests and challenges lately" in response.content.decode()
    assert not FriendRequest.objects.filter(recipient=others[-1]).exists()
    assert not Notification.objects.filter(user=others[-1]).exists()


def test_one_player_asked_by_too_many_is_protected(ben: User, committed: Callable[[], Any]) -> None:
    askers = UserFactory.create_batch(services.ASKS_PER_RECIPIENT[0] + 1)
    with committed():
        for asker in askers[:-1]:
            services.friend_request_send(user=asker, other=ben)
        response = _befriend(client_for(askers[-1]), ben)
    assert response.status_code == 429
    assert "This player has had many friend requests and challenges" in response.content.decode()
    assert not FriendRequest.objects.filter(sender=askers[-1]).exists()
    assert Notification.objects.filter(user=ben).count() == services.ASKS_PER_RECIPIENT[0]
