"""Web push end to end without the internet: a device subscribes from its settings, the
task worker encrypts each notification for it and sends it to a stand-in push service
(``push_service``, tests/conftest.py), which the test decrypts with the device's keys."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, PushSubscription, User
from accounts.notifications import Event
from accounts.services import notification_preferences_set, vacation_end, vacation_start
from floor.notify import notify
from games.models import Game
from social import services as social
from tests.conftest import PushService, Tarpit
from tests.factories import UserFactory, play_turn, started_game
from tests.pages import client_for
from tournaments import services as tournaments
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db


def _subscribe_form(push_service: PushService, user: User, name: str) -> dict[str, str]:
    # The keys a browser would post: made by the stand-in, which decrypts with them.
    made = push_service.device(user, name)
    form = {"endpoint": made.endpoint, "p256dh": made.p256dh, "auth": made.auth, "label": "x"}
    made.delete()
    return form


def _challenge(ana: User, ben: User) -> None:
    """Friends (made outside ``committed``: no notice of it), then ``ana`` challenges."""
    social.challenge_create(user=ana, other=ben, pace="correspondence", round_seconds=86400)


def _friends(ana: User, ben: User) -> None:
    social.friend_request_send(user=ana, other=ben)
    social.friend_request_accept(user=ben, other=ana)


def test_the_opponents_commit_reaches_the_subscribed_device_decrypted(
    push_service: PushService, committed: Callable[[], Any], settings: Any
) -> None:
    ana, ben = UserFactory(), UserFactory()
    form = _subscribe_form(push_service, ben, "phone")
    form["label"] = "Firefox, Android"
    response = client_for(ben).post(reverse("accounts:push_subscribe"), form)
    assert response.status_code == 201
    with committed():
        game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
        play_turn(game, ben)
    push_service.received.clear()
    with committed():
        play_turn(game, ana)
    (message,) = push_service.messages("phone")
    assert message["title"] == "Limes Online"
    assert message["url"] == f"/games/{game.pk}/"
    assert message["body"] == f"Round 2 of game #{game.pk} waits for your move."
    assert message["tag"] == "turn"
    # Signed with the site's VAPID key, kept a day at most by the push service.
    (_path, headers, _body) = push_service.received[0]
    assert headers["authorization"].startswith("vapid t=")
    assert f"k={settings.LIMES_VAPID_PUBLIC_KEY}" in headers["authorization"]
    assert (headers["content-encoding"], headers["ttl"]) == ("aes128gcm", "86400")
    device = PushSubscription.objects.get(user=ben)
    assert device.last_success_at is not None
    assert "Firefox, Android" in client_for(ben).get(reverse("accounts:settings")).content.decode()


def test_a_push_carries_no_card_only_a_title_a_text_and_a_link(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory()
    push_service.device(ben)
    with committed():
        game = started_game([ana, ben], pace=Game.Pace.CORRESPONDENCE)
    (message,) = push_service.messages()
    assert set(message) == {"title", "body", "url", "tag"}
    assert message["url"] == f"/games/{game.pk}/"


def test_a_message_in_the_players_language(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory(language="de")
    push_service.device(ben)
    with committed():
        social.friend_request_send(user=ana, other=ben)
    (message,) = push_service.messages()
    assert message["body"] == f"{ana.username} möchte auf Limes Online mit dir befreundet sein."
    assert message["url"] == reverse("social:friends")


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_forgot_is_removed(
    push_service: PushService, committed: Callable[[], Any], status: int
) -> None:
    ana, ben = UserFactory(), UserFactory()
    _friends(ana, ben)
    push_service.device(ben, "old")
    push_service.device(ben, "new")
    push_service.status = status
    with committed():
        _challenge(ana, ben)
    assert len(push_service.received) == 2
    assert not PushSubscription.objects.filter(user=ben).exists()


def test_a_failing_push_service_keeps_the_subscription_and_logs(
    push_service: PushService, committed: Callable[[], Any], caplog: pytest.LogCaptureFixture
) -> None:
    ana, ben = UserFactory(), UserFactory()
    push_service.device(ben)
    push_service.status = 503
    with committed(), caplog.at_level(logging.WARNING, logger="floor.webpush"):
        social.friend_request_send(user=ana, other=ben)
    assert PushSubscription.objects.filter(user=ben).count() == 1
    assert "push to subscription" in caplog.text


def test_a_push_service_that_redirects_is_not_followed(
    push_service: PushService, committed: Callable[[], Any], caplog: pytest.LogCaptureFixture
) -> None:
    """A redirect would send the worker's POST past the hosts the endpoint was checked
    against: it is a failure, logged, and the subscription stays."""
    ana, ben = UserFactory(), UserFactory()
    push_service.device(ben)
    push_service.status = 307
    push_service.location = f"{push_service.url}/elsewhere"
    with committed(), caplog.at_level(logging.WARNING, logger="floor.webpush"):
        social.friend_request_send(user=ana, other=ben)
    assert [path for path, _, _ in push_service.received] == ["/phone"]
    assert PushSubscription.objects.filter(user=ben).count() == 1
    assert "unreachable" in caplog.text


def test_a_push_service_that_never_answers_holds_the_worker_a_bounded_time(
    push_service: PushService,
    tarpit: Tarpit,
    committed: Callable[[], Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A player's devices on a service that never answers: the task gives up on them past
    its time, and the device that took the last push goes first, so it still gets this."""
    ana, ben = UserFactory(), UserFactory()
    phone = push_service.device(ben, "phone")
    PushSubscription.objects.filter(pk=phone.pk).update(last_success_at=timezone.now())
    for number in range(9):
        stuck = push_service.device(ben, f"stuck{number}")
        PushSubscription.objects.filter(pk=stuck.pk).update(endpoint=f"{tarpit.url}/{number}")
    limits = {"LIMES_PUSH_TIMEOUT_SECONDS": 0.2, "LIMES_PUSH_TASK_SECONDS": 0.5}
    with (
        override_settings(**limits),
        committed(),
        caplog.at_level(logging.WARNING, logger="floor.webpush"),
    ):
        social.friend_request_send(user=ana, other=ben)
    assert len(push_service.messages("phone")) == 1
    assert tarpit.held  # it was tried, and given up on
    assert "devices left out of time" in caplog.text


def test_a_player_has_at_most_ten_devices_subscribed(push_service: PushService) -> None:
    ben = UserFactory()
    client = client_for(ben)
    first = _subscribe_form(push_service, ben, "device0")
    assert client.post(reverse("accounts:push_subscribe"), first).status_code == 201
    for number in range(1, 10):
        form = _subscribe_form(push_service, ben, f"device{number}")
        assert client.post(reverse("accounts:push_subscribe"), form).status_code == 201
    form = _subscribe_form(push_service, ben, "device10")
    response = client.post(reverse("accounts:push_subscribe"), form)
    assert response.status_code == 409
    assert "remove one first" in response.json()["error"]
    assert PushSubscription.objects.filter(user=ben).count() == 10
    # A device already subscribed subscribes again as before.
    again = first | {"label": "Firefox, again"}
    assert client.post(reverse("accounts:push_subscribe"), again).status_code == 201
    # And one removed makes room.
    PushSubscription.objects.filter(user=ben).first().delete()  # type: ignore[union-attr]
    assert client.post(reverse("accounts:push_subscribe"), form).status_code == 201


def test_a_device_the_worker_cannot_push_to_costs_the_players_other_devices_nothing(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory()
    broken = push_service.device(ben, "broken")  # stored before keys were checked
    PushSubscription.objects.filter(pk=broken.pk).update(p256dh="B" + "A" * 86)
    refused = push_service.device(ben, "refused")  # stored before endpoints were
    PushSubscription.objects.filter(pk=refused.pk).update(
        endpoint=f"{push_service.url}\\@fcm.googleapis.com/refused"
    )
    push_service.device(ben, "phone")
    with committed():
        social.friend_request_send(user=ana, other=ben)
    assert [m["url"] for m in push_service.messages("phone")] == [reverse("social:friends")]
    assert [path for path, _, _ in push_service.received] == ["/phone"]


def test_a_device_moves_to_another_account_only_with_its_own_keys(
    push_service: PushService,
) -> None:
    ana, mallory = UserFactory(), UserFactory()
    form = _subscribe_form(push_service, ana, "phone")
    assert client_for(ana).post(reverse("accounts:push_subscribe"), form).status_code == 201
    # Mallory knows the endpoint, not the keys the browser holds.
    other_keys = _subscribe_form(push_service, mallory, "elsewhere")
    stolen = form | {"p256dh": other_keys["p256dh"], "auth": other_keys["auth"]}
    response = client_for(mallory).post(reverse("accounts:push_subscribe"), stolen)
    assert response.status_code == 400
    assert PushSubscription.objects.get().user == ana
    # The same browser, signed in as someone else, brings the same keys: it moves.
    assert client_for(mallory).post(reverse("accounts:push_subscribe"), form).status_code == 201
    assert PushSubscription.objects.get().user == mallory


# -- preferences -------------------------------------------------------------------------


def test_turning_push_off_for_an_event_stops_its_pushes_and_only_those(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory()
    _friends(ana, ben)
    push_service.device(ben)
    client = client_for(ben)
    settings_page = client.get(reverse("accounts:settings")).content.decode()
    assert 'name="challenge__push"' in settings_page
    # Every box but the challenge's push: the form says what stays on.
    boxes = {
        name.split('"')[0]: "on"
        for name in settings_page.split('name="')[1:]
        if "__" in name.split('"')[0]
    }
    del boxes["challenge__push"]
    assert client.post(reverse("accounts:notification_preferences"), boxes).status_code == 302
    with committed():
        _challenge(ana, ben)
    assert push_service.received == []
    assert [m.to for m in mail.outbox] == [[ben.email]]
    with committed():
        social.friend_request_send(user=UserFactory(), other=ben)
    assert [m["url"] for m in push_service.messages()] == [reverse("social:friends")]


def test_turning_the_email_off_stops_the_mail_but_not_the_push(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory()
    _friends(ana, ben)
    push_service.device(ben)
    notification_preferences_set(user=ben, choices={("challenge", "email"): False})
    with committed():
        _challenge(ana, ben)
    assert mail.outbox == []
    assert len(push_service.messages()) == 1


def test_a_chat_message_is_not_pushed_unless_the_player_asks(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory()
    push_service.device(ben)
    game = started_game([ana, ben])
    with committed():
        social.chat_post(user=ana, game=game, text="hello")
    assert push_service.received == []
    notification_preferences_set(user=ben, choices={("chat", "push"): True})
    game = started_game([ana, ben])
    with committed():
        social.chat_post(user=ana, game=game, text="hello again")
    assert [m["url"] for m in push_service.messages()] == [
        reverse("games:detail", kwargs={"pk": game.pk}) + "#chat"
    ]


def test_a_live_turn_is_pushed_for_the_service_worker_to_show_only_if_hidden(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory()
    push_service.device(ben)
    with committed():
        game = started_game([ana, ben], pace=Game.Pace.LIVE)
    (message,) = push_service.messages()
    assert (message["tag"], message["url"]) == ("live_turn", f"/games/{game.pk}/")


def test_a_live_turn_asks_only_for_devices_where_there_is_none(
    push_service: PushService, committed: Callable[[], Any], django_assert_num_queries: Any
) -> None:
    # The usual case at a live table: without a device nothing can reach the player, so
    # their choices are not read; with one, it goes as they chose.
    ana, ben = UserFactory(), UserFactory()
    with django_assert_num_queries(1):
        assert notify(user=ben, event=Event.LIVE_TURN, text=lambda: "go", url="/") is None
    push_service.device(ben)
    notification_preferences_set(user=ana, choices={("live_turn", "push"): False})
    push_service.device(ana, "tablet")
    with committed():
        notify(user=ben, event=Event.LIVE_TURN, text=lambda: "go", url="/games/")
        notify(user=ana, event=Event.LIVE_TURN, text=lambda: "go", url="/games/")
    (message,) = push_service.messages()
    assert (message["body"], message["url"]) == ("go", "/games/")
    assert push_service.messages("tablet") == []


def test_a_player_on_vacation_gets_the_notice_but_no_mail_nor_push(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    ana, ben = UserFactory(), UserFactory()
    push_service.device(ben)
    today = timezone.now().date()
    vacation_start(user=ben, until=today + datetime.timedelta(days=3))
    with committed():
        social.friend_request_send(user=ana, other=ben)
    assert push_service.received == [] and mail.outbox == []
    assert Notification.objects.filter(user=ben, url=reverse("social:friends")).exists()
    # Back from vacation: the next one reaches his inbox and his phone again.
    vacation_end(user=ben)
    with committed():
        social.friend_request_send(user=UserFactory(), other=ben)
    assert len(push_service.messages()) == 1
    assert [m.to for m in mail.outbox] == [[ben.email]]


def test_a_live_turn_is_pushed_to_a_player_on_vacation_whose_clock_runs(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    # A live game does not wait for a player on vacation: the push is their call to it.
    ana, ben = UserFactory(), UserFactory()
    push_service.device(ben)
    vacation_start(user=ben, until=timezone.now().date() + datetime.timedelta(days=3))
    with committed():
        game = started_game([ana, ben], pace=Game.Pace.LIVE)
    (message,) = push_service.messages()
    assert (message["tag"], message["url"]) == ("live_turn", f"/games/{game.pk}/")


# -- tournaments -------------------------------------------------------------------------


def _entered(tournament: Tournament, *users: User) -> None:
    for user in users:
        Entrant.objects.create(tournament=tournament, user=user)


def test_a_live_tournaments_entrants_hear_five_minutes_before_it_starts_once(
    push_service: PushService, committed: Callable[[], Any], time_machine: Any
) -> None:
    ana, ben = UserFactory(), UserFactory()
    push_service.device(ben)
    cup = tournaments.tournament_create(
        name="Friday night live",
        ruleset="standard",
        deal_count=1,
        starts_at=timezone.now() + datetime.timedelta(minutes=30),
        format=Tournament.Format.LIVE,
        round_seconds=30,
    )
    _entered(cup, ana, ben)
    assert tournaments.tournament_remind(tournament=cup) == 0  # not yet
    time_machine.move_to(cup.starts_at - datetime.timedelta(minutes=5))
    with committed():
        assert tournaments.tournament_remind(tournament=cup) == 2
        assert tournaments.tournament_remind(tournament=cup) == 0  # once
    (message,) = push_service.messages()
    start = cup.starts_at.strftime("%H:%M")
    assert message["body"] == f"The live tournament Friday night live starts at {start} UTC."
    assert message["url"] == reverse("tournaments:detail", kwargs={"pk": cup.pk})
    assert ana.notifications.get().url == message["url"]


def test_an_async_tournaments_entrants_hear_when_its_deals_open(
    push_service: PushService, committed: Callable[[], Any], time_machine: Any
) -> None:
    ana = UserFactory()
    push_service.device(ana)
    cup = tournaments.tournament_create(
        name="Spring cup",
        ruleset="standard",
        deal_count=2,
        starts_at=timezone.now() + datetime.timedelta(hours=1),
        ends_at=timezone.now() + datetime.timedelta(days=2),
    )
    _entered(cup, ana)
    time_machine.move_to(cup.starts_at + datetime.timedelta(hours=3))
    # The scheduler's catch-up, for a task that never ran.
    with committed():
        call_command("schedule_tournaments", stdout=StringIO())
    (message,) = push_service.messages()
    assert message["body"].startswith("The deals of the tournament Spring cup are open")


# -- the settings: subscribing, hostile input, removing ----------------------------------


def test_the_settings_page_has_the_public_key_never_the_private(
    client_logged_in: Client, settings: Any
) -> None:
    page = client_logged_in.get(reverse("accounts:settings")).content.decode()
    assert f'data-key="{settings.LIMES_VAPID_PUBLIC_KEY}"' in page
    assert settings.LIMES_VAPID_PRIVATE_KEY not in page
    assert "Turn on notifications on this device" in page
    with override_settings(LIMES_VAPID_PUBLIC_KEY="", LIMES_VAPID_PRIVATE_KEY=""):
        page = client_logged_in.get(reverse("accounts:settings")).content.decode()
    assert "Push notifications are not set up on this site." in page


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "ftp://127.0.0.1/x"},
        {"endpoint": "not a url"},
        {"endpoint": "https://push.example/" + "x" * 2000},
        {"p256dh": "B" + "A" * 86 + "\x00"},
        {"p256dh": "A" * 87},
        # The shape of a key, but no point of the curve: nothing could be encrypted for it.
        {"p256dh": "B" + "A" * 86},
        {"p256dh": "B" * 5000},
        {"auth": "short"},
        {"auth": "!" * 22},
        {"label": "x" * 5000},
        {"endpoint": ""},
    ],
)
def test_a_hostile_subscription_is_refused_and_stores_nothing(
    push_service: PushService, change: dict[str, str]
) -> None:
    ben = UserFactory()
    form = _subscribe_form(push_service, ben, "phone") | change
    response = client_for(ben).post(reverse("accounts:push_subscribe"), form)
    assert response.status_code == 400
    assert not PushSubscription.objects.exists()


def test_a_plain_http_push_service_is_refused_in_production(push_service: PushService) -> None:
    ben = UserFactory()
    form = _subscribe_form(push_service, ben, "phone")
    with override_settings(LIMES_PUSH_ALLOW_HTTP=False):
        response = client_for(ben).post(reverse("accounts:push_subscribe"), form)
    assert response.status_code == 400
    assert not PushSubscription.objects.exists()


PRODUCTION_HOSTS = (
    "fcm.googleapis.com",
    "android.googleapis.com",
    "push.services.mozilla.com",
    "push.apple.com",
    "notify.windows.com",
)


@pytest.mark.parametrize(
    ("endpoint", "status"),
    [
        ("https://fcm.googleapis.com/fcm/send/abc:def", 201),
        ("https://updates.push.services.mozilla.com/wpush/v2/gAAAA", 201),
        ("https://web.push.apple.com/QGuH3", 201),
        # The worker would POST there: an address of the site's own network never passes.
        ("https://127.0.0.1/x", 400),
        ("https://localhost:8000/x", 400),
        ("https://db.internal/x", 400),
        ("https://fcm.googleapis.com.evil.example/x", 400),
        ("https://evilfcm.googleapis.com@10.0.0.1/x", 400),
        ("https://[::1]/x", 400),
        # Read by requests, whose parser ends the host at the backslash: 127.0.0.2.
        ("https://127.0.0.2\\@fcm.googleapis.com/fcm/send/x", 400),
        ("https://fcm.googleapis.com\\@127.0.0.2/fcm/send/x", 400),
        ("https://player@fcm.googleapis.com/fcm/send/x", 400),
        ("https://fcm.googleapis.com:8443/fcm/send/x", 400),
        ("https://fcm.googleapis.com./fcm/send/x", 400),
        ("https://142.250.0.1/fcm/send/x", 400),
        ("https://[::ffff:127.0.0.1]/fcm/send/x", 400),
        ("https://fcm.googleapis.com/fcm/send/x y", 400),
        ("https://fcm.googleapis.com/fcm/send/x#y", 400),
    ],
)
def test_in_production_only_the_browsers_push_services_are_taken(
    push_service: PushService, endpoint: str, status: int
) -> None:
    ben = UserFactory()
    form = _subscribe_form(push_service, ben, "phone") | {"endpoint": endpoint}
    with override_settings(LIMES_PUSH_ALLOW_HTTP=False, LIMES_PUSH_HOSTS=PRODUCTION_HOSTS):
        response = client_for(ben).post(reverse("accounts:push_subscribe"), form)
    assert response.status_code == status
    assert PushSubscription.objects.filter(user=ben).exists() == (status == 201)


def test_the_endpoint_stored_is_the_one_the_worker_posts_to(push_service: PushService) -> None:
    ben = UserFactory()
    form = _subscribe_form(push_service, ben, "phone")
    form["endpoint"] = "https://FCM.googleapis.com/fcm/send/abc:def"
    with override_settings(LIMES_PUSH_ALLOW_HTTP=False, LIMES_PUSH_HOSTS=PRODUCTION_HOSTS):
        assert client_for(ben).post(reverse("accounts:push_subscribe"), form).status_code == 201
    device = PushSubscription.objects.get(user=ben)
    assert device.endpoint == "https://fcm.googleapis.com/fcm/send/abc:def"


def test_an_endpoint_two_parsers_read_two_ways_is_never_posted_to(
    push_service: PushService, committed: Callable[[], Any]
) -> None:
    """urllib.parse takes this endpoint's host for Google's, requests (the worker) for the
    stand-in's own address: refused when subscribing, and not posted to if already stored."""
    ana, ben = UserFactory(), UserFactory()
    hidden = f"{push_service.url}\\@fcm.googleapis.com/phone"
    form = _subscribe_form(push_service, ben, "phone") | {"endpoint": hidden}
    with override_settings(LIMES_PUSH_HOSTS=PRODUCTION_HOSTS):
        assert client_for(ben).post(reverse("accounts:push_subscribe"), form).status_code == 400
        assert not PushSubscription.objects.exists()
        # One stored before the check existed.
        push_service.device(ben)
        PushSubscription.objects.filter(user=ben).update(endpoint=hidden)
        with committed():
            social.friend_request_send(user=ana, other=ben)
    assert push_service.received == []
    assert Notification.objects.filter(user=ben).exists()


def test_subscribing_needs_a_signed_in_player_a_post_and_the_csrf_token(
    push_service: PushService,
) -> None:
    ben = UserFactory()
    form = _subscribe_form(push_service, ben, "phone")
    url = reverse("accounts:push_subscribe")
    assert Client().post(url, form).status_code == 302
    assert client_for(ben).get(url).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ben)
    assert strict.post(url, form).status_code == 403
    assert not PushSubscription.objects.exists()


def test_a_player_removes_a_device_and_only_their_own(push_service: PushService) -> None:
    ana, ben = UserFactory(), UserFactory()
    phone = push_service.device(ben, "phone")
    other = push_service.device(ana, "other")
    page = client_for(ben).get(reverse("accounts:settings")).content.decode()
    remove = reverse("accounts:push_unsubscribe", kwargs={"pk": phone.pk})
    assert remove in page
    steal = reverse("accounts:push_unsubscribe", kwargs={"pk": other.pk})
    assert client_for(ben).post(steal).status_code == 404
    assert client_for(ben).post(remove).status_code == 302
    assert list(PushSubscription.objects.all()) == [other]
    page = client_for(ben).get(reverse("accounts:settings")).content.decode()
    assert "No device gets push notifications yet." in page


def test_signing_out_unsubscribes_the_devices_that_session_subscribed(
    push_service: PushService,
) -> None:
    # A shared browser: the next person to use it must not get this player's pushes.
    ben = UserFactory()
    shared = client_for(ben)
    form = _subscribe_form(push_service, ben, "shared")
    assert shared.post(reverse("accounts:push_subscribe"), form).status_code == 201
    phone = push_service.device(ben, "phone")  # subscribed from another session
    assert PushSubscription.objects.filter(user=ben).count() == 2

    assert shared.post(reverse("account_logout")).status_code == 302

    assert list(PushSubscription.objects.filter(user=ben)) == [phone]


def test_a_deleted_account_leaves_no_device(push_service: PushService) -> None:
    from accounts.services import user_delete

    ben = UserFactory()
    push_service.device(ben)
    user_delete(user=ben)
    assert not PushSubscription.objects.exists()


def test_the_vapid_keys_command_prints_a_fresh_pair() -> None:
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines())
    assert len(lines["LIMES_VAPID_PUBLIC_KEY"]) == 87
    assert len(lines["LIMES_VAPID_PRIVATE_KEY"]) == 43
    assert lines["LIMES_VAPID_SUBJECT"].startswith("mailto:")
