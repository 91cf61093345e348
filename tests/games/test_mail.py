"""E-mail goes out through the task worker: never from a request, retried when the mail
server fails, turn mails batched per player with a one-click unsubscribe."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Iterator
from io import StringIO
from typing import Any

import pytest
from django.core import mail, signing
from django.core.mail.backends.locmem import EmailBackend
from django.core.mail.message import EmailMessage
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from accounts.notifications import Channel, Event
from accounts.selectors import notification_channels
from accounts.services import turn_mail_off_token, vacation_start
from floor import mail as games_mail
from games import services
from games.models import Game
from tests.conftest import PushService
from tests.factories import DATABASE_QUEUE, UserFactory, play_turn, started_game
from tests.pages import client_for

pytestmark = pytest.mark.django_db

FLAKY = "tests.games.test_mail.FlakyBackend"


class FlakyBackend(EmailBackend):
    """A mail server that refuses the first ``failures`` messages handed to it."""

    failures = 0
    attempts = 0

    def send_messages(self, email_messages: Any) -> int:
        FlakyBackend.attempts += 1
        if FlakyBackend.attempts <= FlakyBackend.failures:
            raise ConnectionRefusedError("the mail server is down")
        return super().send_messages(email_messages)


@pytest.fixture
def flaky() -> Iterator[type[FlakyBackend]]:
    FlakyBackend.failures = 0
    FlakyBackend.attempts = 0
    with override_settings(EMAIL_BACKEND=FLAKY):
        yield FlakyBackend


@pytest.fixture
def queue() -> Iterator[None]:
    """The database's task queue, as in production: nothing runs until a worker takes it."""
    with override_settings(TASKS=DATABASE_QUEUE):
        yield


def run_queued(committed: Callable[[], Any]) -> list[str]:
    """Work the queue as a worker would, each task committed on its own, until no task is
    ready now; returns the paths of the tasks run."""
    ran: list[str] = []
    while True:
        with committed():
            row = DBTaskResult.objects.ready().order_by("enqueued_at").first()
            if row is None:
                return ran
            row.claim("test-worker")
            try:
                value = row.task.call(*row.args_kwargs["args"], **row.args_kwargs["kwargs"])
            except Exception as error:
                row.set_failed(error)
            else:
                row.set_successful(value)
            ran.append(row.task_path)


def queued_paths() -> list[str]:
    return list(
        DBTaskResult.objects.filter(status=TaskResultStatus.READY).values_list(
            "task_path", flat=True
        )
    )


def turn_mail_on(user: User) -> bool:
    return Channel.EMAIL in notification_channels(user, Event.TURN)


def waiting_game(players: list[User]) -> Game:
    """A correspondence game of ``players``, waiting for the last one to join."""
    game = services.game_create_multi(
        user=players[0], seats_max=len(players), pace=Game.Pace.CORRESPONDENCE
    )
    for player in players[1:-1]:
        services.game_join(game=game, user=player)
    return game


# -- not from the request ----------------------------------------------------------------


def test_joining_a_game_queues_the_turn_mails_and_sends_none(
    queue: None, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory()
    game = waiting_game([ana, ben])
    with committed():
        response = client_for(ben).post(reverse("games:join_game", kwargs={"pk": game.pk}))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    # The request only queued the work: no mail has left yet.
    assert mail.outbox == []
    assert sorted(queued_paths()) == ["floor.tasks.turn_mail"] * 2
    assert run_queued(committed).count("floor.tasks.mail_send") == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted([ana.email, ben.email])


def test_a_friend_request_queues_its_mail_and_sends_none(
    queue: None, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory()
    with committed():
        url = reverse("social:relation", kwargs={"username": ben.username, "action": "befriend"})
        assert client_for(ana).post(url).status_code == 302
    assert mail.outbox == []
    assert queued_paths() == ["floor.tasks.mail_send"]
    run_queued(committed)
    assert [m.to for m in mail.outbox] == [[ben.email]]
    assert ana.username in mail.outbox[0].body


def test_a_commit_queues_its_push_and_sends_none(
    queue: None, committed: Callable[[], Any], push_service: PushService
) -> None:
    ana, ben = UserFactory(), UserFactory()
    push_service.device(ben)
    game = waiting_game([ana, ben])
    with committed():
        response = client_for(ben).post(reverse("games:join_game", kwargs={"pk": game.pk}))
    assert response.status_code == 302
    # The request only queued the push: the push service has heard nothing yet.
    assert push_service.received == []
    assert "floor.tasks.webpush_send" in queued_paths()
    assert run_queued(committed).count("floor.tasks.webpush_send") == 1
    (message,) = push_service.messages()
    assert message["url"] == f"/games/{game.pk}/"


# -- a failing mail server -----------------------------------------------------------------


def test_a_failing_mail_server_loses_no_mail(
    queue: None,
    flaky: type[FlakyBackend],
    committed: Callable[[], Any],
    time_machine: Any,
) -> None:
    flaky.failures = 2
    with committed():
        games_mail.mail_send(to="ana@example.com", subject="Hello", body="Your move.")
    run_queued(committed)
    assert flaky.attempts == 1
    assert mail.outbox == []
    # Tried again after a pause, not at once.
    assert run_queued(committed) == []
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=1))
    run_queued(committed)
    assert flaky.attempts == 2
    assert mail.outbox == []
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=4))
    run_queued(committed)
    assert flaky.attempts == 3
    assert [(m.to, m.subject, m.body) for m in mail.outbox] == [
        (["ana@example.com"], "Hello", "Your move.")
    ]
    assert not DBTaskResult.objects.failed().exists()
    assert queued_paths() == []


def test_a_mail_server_down_for_good_is_given_up_and_logged(
    flaky: type[FlakyBackend], committed: Callable[[], Any], caplog: pytest.LogCaptureFixture
) -> None:
    flaky.failures = 100
    with caplog.at_level(logging.WARNING, logger="floor.mail"), committed():
        games_mail.mail_send(to="ana@example.com", subject="Hello", body="Your move.")
    assert flaky.attempts == games_mail.MAIL_ATTEMPTS
    assert mail.outbox == []
    errors = [r for r in caplog.records if r.name == "floor.mail" and r.levelno == logging.ERROR]
    assert len(errors) == 1
    assert f"given up after {games_mail.MAIL_ATTEMPTS} attempts" in errors[0].getMessage()


# -- turn mails ----------------------------------------------------------------------------


def test_turn_mails_are_batched_one_per_interval_listing_every_waiting_game(
    queue: None, committed: Callable[[], Any], time_machine: Any
) -> None:
    # The clock stands still: the test's own run time must not count towards the hour.
    time_machine.move_to(timezone.now(), tick=False)
    ana, ben, cy = UserFactory(language="cs"), UserFactory(), UserFactory()
    with committed():
        first = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
    run_queued(committed)
    assert sorted(m.to[0] for m in mail.outbox) == sorted([ana.email, ben.email])
    mail.outbox.clear()
    # Two more games start for ana within the hour: no mail yet.
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=10))
    with committed():
        second = started_game([ana, cy], pace=Game.Pace.CORRESPONDENCE)
        third = started_game([cy, ana], pace=Game.Pace.CORRESPONDENCE)
    run_queued(committed)
    assert [m.to for m in mail.outbox] == [[cy.email]]
    mail.outbox.clear()
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=49, seconds=59))
    assert run_queued(committed) == []
    # The hour is up: one mail lists the three games waiting for her, in her language.
    time_machine.move_to(timezone.now() + datetime.timedelta(seconds=1))
    run_queued(committed)
    assert [m.to for m in mail.outbox] == [[ana.email]]
    message = mail.outbox[0]
    assert message.subject == "Limes: na vás čekají 3 hry"
    for game in (first, second, third):
        assert reverse("games:detail", kwargs={"pk": game.pk}) in message.body
    # cy's own batch (her two games) waits for her hour, which ends ten minutes later.
    mail.outbox.clear()
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=10))
    run_queued(committed)
    assert [(m.to, m.subject) for m in mail.outbox] == [([cy.email], "Limes: 2 games wait for you")]
    assert queued_paths() == []


def test_a_player_on_vacation_gets_no_turn_mail(queue: None, committed: Callable[[], Any]) -> None:
    ana, ben = UserFactory(), UserFactory()
    vacation_start(user=ben, until=timezone.now().date() + datetime.timedelta(days=3))
    with committed():
        started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
    run_queued(committed)
    assert [m.to for m in mail.outbox] == [[ana.email]]


def test_without_a_waiting_queue_the_deadline_command_sends_the_batch(
    committed: Callable[[], Any], time_machine: Any
) -> None:
    ana, ben, cy = UserFactory(), UserFactory(), UserFactory()
    with committed():
        first = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
        second = started_game([ana, cy], pace=Game.Pace.CORRESPONDENCE)
    # Within the interval the second game's mail waits; ana plays the first meanwhile.
    assert [m.to[0] for m in mail.outbox].count(ana.email) == 1
    with committed():
        play_turn(first, ana)
    time_machine.move_to(timezone.now() + datetime.timedelta(minutes=61))
    mail.outbox.clear()
    out = StringIO()
    with committed():
        call_command("expire_deadlines", stdout=out)
    assert "1 player(s) had a turn mail due" in out.getvalue()
    assert [m.to for m in mail.outbox] == [[ana.email]]
    # Only what still waits for her.
    assert reverse("games:detail", kwargs={"pk": second.pk}) in mail.outbox[0].body
    assert reverse("games:detail", kwargs={"pk": first.pk}) not in mail.outbox[0].body


def _turn_mail_for(user: User, committed: Callable[[], Any]) -> EmailMessage:
    with committed():
        started_game([user, UserFactory()], pace=Game.Pace.CORRESPONDENCE)
    (message,) = [m for m in mail.outbox if m.to == [user.email]]
    return message


def test_a_turn_mail_unsubscribes_in_one_click_without_sign_in(
    committed: Callable[[], Any], time_machine: Any
) -> None:
    ana = UserFactory()
    message = _turn_mail_for(ana, committed)
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in message.body
    # A mail program's one-click POST: no session, no CSRF token.
    browser = Client(enforce_csrf_checks=True)
    assert "Stop these e-mails" in browser.get(link).content.decode()
    assert turn_mail_on(ana)
    response = browser.post(link, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert "no longer get an e-mail" in response.content.decode()
    assert not turn_mail_on(ana)
    mail.outbox.clear()
    time_machine.move_to(timezone.now() + datetime.timedelta(hours=2))
    with committed():
        started_game([ana, UserFactory(email="")], pace=Game.Pace.CORRESPONDENCE)
    assert mail.outbox == []


def _altered(token: str) -> str:
    # Its last character changed, whatever it was.
    return token[:-1] + ("B" if token.endswith("A") else "A")


@pytest.mark.parametrize(
    "forge",
    [
        lambda user: signing.dumps({"u": user.pk}),  # signed, but for something else
        lambda user: _altered(turn_mail_off_token(user)),  # signature altered
        lambda user: turn_mail_off_token(user).replace(":", "x", 1),
        lambda user: "x" * 5000,
        lambda user: signing.dumps({"u": "1"}, salt="limes.turn-mail-off"),
        lambda user: "..:..",
    ],
)
def test_a_forged_unsubscribe_link_is_refused_and_changes_nothing(
    forge: Callable[[User], str],
) -> None:
    ana = UserFactory()
    url = reverse("accounts:turn_mail_unsubscribe", kwargs={"token": forge(ana)})
    browser = Client(enforce_csrf_checks=True)
    assert browser.get(url).status_code == 404
    assert browser.post(url).status_code == 404
    assert turn_mail_on(ana)


def test_a_deleted_player_link_is_refused() -> None:
    ana = UserFactory()
    url = reverse("accounts:turn_mail_unsubscribe", kwargs={"token": turn_mail_off_token(ana)})
    User.objects.filter(pk=ana.pk).update(deleted_at=timezone.now())
    assert Client().post(url).status_code == 404
