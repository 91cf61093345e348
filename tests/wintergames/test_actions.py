"""What people do around a Winter game's play: rematch a finished game, leave or cancel an
open one, seat and unseat computers, choose the time for a turn."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import timezone

from accounts.models import User
from core.errors import ActionRefused
from tests.factories import UserFactory
from wintergames import computer, services
from wintergames.models import WinterGame, WinterSeat

if TYPE_CHECKING:
    from tests.conftest import Race

pytestmark = pytest.mark.django_db


def _open(user: User, *, players: int = 3, computers: int = 0, **options: Any) -> WinterGame:
    options = {"level": "easy", "farmers": True, "pace": "live", **options}
    return services.game_create(user=user, players=players, computers=computers, **options)


def _seated(game: WinterGame) -> list[str]:
    """Who sits where: a username, a computer's level, or "" for an open seat."""
    return [
        seat.user.username if seat.user else seat.bot_level
        for seat in WinterSeat.objects.filter(game=game).select_related("user")
    ]


@pytest.fixture
def finished(
    monkeypatch: pytest.MonkeyPatch, committed: Callable[[], Any]
) -> Callable[..., WinterGame]:
    """Builds a game of some people (and computers) played to its end: everyone resigns,
    and the computer plays their seats out, turn by turn (a transactional test's commits
    would otherwise run each next turn inside the last)."""
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(computer, "bots_play_enqueue", lambda *turn: queued.append(turn))

    def build(people: list[User], *, computers: int = 0, **options: Any) -> WinterGame:
        players = len(people) + computers
        game = _open(people[0], players=players, computers=computers, **options)
        for person in people[1:]:
            services.game_join(game_id=game.pk, user=person)
        for person in people:
            with committed():
                services.game_resign(game_id=game.pk, user=person)
        while queued:
            game_id, number = queued.pop()
            with committed():
                computer.bots_play(game_id=game_id, turn_number=number)
        game.refresh_from_db()
        assert game.is_finished
        return game

    return build


@pytest.fixture
def ana() -> User:
    return UserFactory(username="ana")


@pytest.fixture
def ben() -> User:
    return UserFactory(username="ben")


@pytest.fixture
def cy() -> User:
    return UserFactory(username="cy")


# -- rematch -------------------------------------------------------------------------------


def test_the_first_to_ask_opens_the_rematch_and_the_other_joins_it(
    ana: User, ben: User, finished: Callable[..., WinterGame]
) -> None:
    game = finished([ana, ben], farmers=False, aids=False, turn_seconds=30)
    version = game.version

    rematch = services.game_rematch(game_id=game.pk, user=ben)
    assert rematch.rematch_of_id == game.pk and rematch.status == WinterGame.Status.OPEN
    assert (rematch.farmers, rematch.aids, rematch.pace, rematch.turn_seconds) == (
        False,
        False,
        "live",
        30,
    )
    # Every seat moves one place on: Ben, second last time, starts.
    assert _seated(rematch) == ["ben", ""]
    # Ana's final page redraws with the offer.
    assert WinterGame.objects.get(pk=game.pk).version == version + 1

    assert services.game_rematch(game_id=game.pk, user=ana).pk == rematch.pk
    rematch.refresh_from_db()
    assert _seated(rematch) == ["ben", "ana"]
    assert rematch.status == WinterGame.Status.RUNNING and rematch.waiting_for == ben
    assert WinterGame.objects.filter(rematch_of=game).count() == 1


def test_asking_twice_opens_one_rematch(
    ana: User, ben: User, finished: Callable[..., WinterGame]
) -> None:
    game = finished([ana, ben])
    first = services.game_rematch(game_id=game.pk, user=ana)
    again = services.game_rematch(game_id=game.pk, user=ana)
    assert first.pk == again.pk
    assert _seated(first) == ["", "ana"]
    assert WinterGame.objects.filter(rematch_of=game).count() == 1


def test_the_computers_come_back_in_their_seats_moved_on(
    ana: User, finished: Callable[..., WinterGame]
) -> None:
    game = finished([ana], computers=2, level="normal", pace="correspondence")
    rematch = services.game_rematch(game_id=game.pk, user=ana)
    # Nobody else to wait for: it starts at once, the first computer to move.
    assert _seated(rematch) == ["normal", "normal", "ana"]
    assert rematch.status == WinterGame.Status.RUNNING


def test_a_resigned_person_has_a_seat_of_their_own_in_the_rematch(
    ana: User, ben: User, finished: Callable[..., WinterGame]
) -> None:
    game = finished([ana, ben])
    assert all(seat.resigned for seat in game.seats.all())
    rematch = services.game_rematch(game_id=game.pk, user=ana)
    assert not WinterSeat.objects.filter(game=rematch).exclude(bot_level="").exists()


def test_only_its_people_may_ask_and_only_once_it_is_over(
    ana: User, ben: User, cy: User, finished: Callable[..., WinterGame]
) -> None:
    game = finished([ana, ben])
    with pytest.raises(ActionRefused) as refused:
        services.game_rematch(game_id=game.pk, user=cy)
    assert refused.value.status == 403
    running = _open(ana, players=2, computers=1)
    with pytest.raises(ActionRefused) as refused:
        services.game_rematch(game_id=running.pk, user=ana)
    assert refused.value.status == 409
    assert not WinterGame.objects.filter(rematch_of__isnull=False).exists()


def test_a_rematch_that_started_without_you_is_refused(
    ana: User, ben: User, cy: User, finished: Callable[..., WinterGame]
) -> None:
    game = finished([ana, ben, cy])
    rematch = services.game_rematch(game_id=game.pk, user=ana)
    services.game_join(game_id=rematch.pk, user=UserFactory())  # from the lobby
    services.game_rematch(game_id=game.pk, user=ben)
    with pytest.raises(ActionRefused) as refused:
        services.game_rematch(game_id=game.pk, user=cy)
    assert refused.value.status == 409
    assert not WinterSeat.objects.filter(game=rematch, user=cy).exists()


def test_a_cancelled_rematch_leaves_the_game_free_to_offer_another(
    ana: User, ben: User, finished: Callable[..., WinterGame]
) -> None:
    game = finished([ana, ben])
    rematch = services.game_rematch(game_id=game.pk, user=ana)
    version = WinterGame.objects.get(pk=game.pk).version
    services.game_cancel(game_id=rematch.pk, user=ana)
    assert WinterGame.objects.get(pk=game.pk).version == version + 1
    assert services.game_rematch(game_id=game.pk, user=ben).pk != rematch.pk


def test_the_finished_page_offers_the_rematch_then_leads_to_it(
    ana: User, ben: User, cy: User, finished: Callable[..., WinterGame]
) -> None:
    game = finished([ana, ben])
    url = f"/winter/games/{game.pk}/"
    pages = {}
    for person in (ana, ben, cy):
        pages[person.username] = client = Client()
        client.force_login(person)
    assert 'data-testid="winter-rematch-offer"' in pages["ben"].get(url).text
    assert "winter-rematch-offer" not in pages["cy"].get(url).text  # a spectator

    answer = pages["ana"].post(f"{url}rematch/")
    rematch = WinterGame.objects.get(rematch_of=game)
    assert answer.status_code == 302 and answer["Location"] == f"/winter/games/{rematch.pk}/"
    offer = pages["ben"].get(url, HTTP_HX_REQUEST="true").text  # the board, redrawn
    assert "ana offers a rematch with the same rules and players." in offer
    assert 'data-testid="winter-rematch-join"' in offer
    assert 'data-testid="winter-rematch-go"' in pages["ana"].get(url).text
    assert 'data-testid="winter-rematch-see"' in pages["cy"].get(url).text

    assert pages["ben"].post(f"{url}rematch/")["Location"] == f"/winter/games/{rematch.pk}/"
    assert WinterGame.objects.get(pk=rematch.pk).status == WinterGame.Status.RUNNING


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_asking_at_once_open_one_rematch(
    ana: User, ben: User, finished: Callable[..., WinterGame], race: Race
) -> None:
    game = finished([ana, ben])
    outcomes = race(
        lambda: services.game_rematch(game_id=game.pk, user=ana).pk,
        lambda: services.game_rematch(game_id=game.pk, user=ben).pk,
    )
    assert outcomes[0] == outcomes[1]
    rematch = WinterGame.objects.get(rematch_of=game)
    assert rematch.status == WinterGame.Status.RUNNING
    assert sorted(_seated(rematch)) == ["ana", "ben"]


# -- leave and cancel ----------------------------------------------------------------------


def test_leaving_opens_the_seat_again(ana: User, ben: User) -> None:
    game = _open(ana)
    services.game_join(game_id=game.pk, user=ben)
    version = WinterGame.objects.get(pk=game.pk).version
    services.game_leave(game_id=game.pk, user=ben)
    assert _seated(game) == ["ana", "", ""]
    assert WinterGame.objects.get(pk=game.pk).version == version + 1
    # Sent twice: left once.
    services.game_leave(game_id=game.pk, user=ben)
    assert WinterGame.objects.get(pk=game.pk).version == version + 1


def test_the_opener_cancels_rather_than_leaves(ana: User, ben: User) -> None:
    game = _open(ana)
    with pytest.raises(ActionRefused) as refused:
        services.game_leave(game_id=game.pk, user=ana)
    assert refused.value.status == 409
    services.game_join(game_id=game.pk, user=ben)
    with pytest.raises(ActionRefused) as refused:
        services.game_cancel(game_id=game.pk, user=ben)
    assert refused.value.status == 403
    services.game_cancel(game_id=game.pk, user=ana)
    assert not WinterGame.objects.filter(pk=game.pk).exists()
    assert not WinterSeat.objects.filter(game_id=game.pk).exists()


def test_a_started_game_is_neither_left_nor_cancelled(ana: User, ben: User) -> None:
    game = _open(ana, players=2)
    services.game_join(game_id=game.pk, user=ben)
    for act, who in ((services.game_leave, ben), (services.game_cancel, ana)):
        with pytest.raises(ActionRefused) as refused:
            act(game_id=game.pk, user=who)
        assert refused.value.status == 409
    assert _seated(game) == ["ana", "ben"]


def test_leaving_and_cancelling_update_the_lists(
    client_logged_in: Client, user: User, ben: User
) -> None:
    game = _open(user)
    services.game_join(game_id=game.pk, user=ben)
    other = Client()
    other.force_login(ben)
    assert 'data-testid="winter-leave"' in other.get(f"/winter/games/{game.pk}/").text
    assert other.post(f"/winter/games/{game.pk}/leave/")["Location"] == "/winter/"
    assert "2 of 3 seats open" in client_logged_in.get("/winter/").text

    page = client_logged_in.get(f"/winter/games/{game.pk}/").text
    assert 'data-testid="winter-cancel"' in page and "winter-leave" not in page
    for _ in range(2):  # a second click finds it gone, and goes home all the same
        answer = client_logged_in.post(f"/winter/games/{game.pk}/cancel/")
        assert answer["Location"] == "/winter/"
    assert "No game is waiting" in client_logged_in.get("/winter/").text


def test_a_stale_button_brings_the_page_back_with_the_reason(
    client_logged_in: Client, user: User, ben: User
) -> None:
    game = _open(user, players=2)
    services.game_join(game_id=game.pk, user=ben)  # it starts
    answer = client_logged_in.post(f"/winter/games/{game.pk}/cancel/", follow=True)
    assert answer.redirect_chain == [(f"/winter/games/{game.pk}/", 302)]
    assert "This game is no longer open." in answer.text


# -- computer seats ------------------------------------------------------------------------


def test_computers_fill_open_seats_and_the_last_starts_the_game(ana: User) -> None:
    game = _open(ana, players=3)
    services.seat_add_computer(game_id=game.pk, user=ana, level="strong")
    assert _seated(game) == ["ana", "", "strong"]
    assert WinterGame.objects.get(pk=game.pk).status == WinterGame.Status.OPEN
    services.seat_add_computer(game_id=game.pk, user=ana, level="easy")
    game.refresh_from_db()
    assert _seated(game) == ["ana", "easy", "strong"]
    assert game.status == WinterGame.Status.RUNNING and game.deadline is not None


def test_a_computer_taken_out_leaves_its_seat_open(ana: User, ben: User) -> None:
    game = _open(ana, players=4, computers=2, level="normal")
    seat = WinterSeat.objects.get(game=game, position=3)
    services.seat_remove_computer(game_id=game.pk, user=ana, seat_id=seat.pk)
    assert _seated(game) == ["ana", "", "normal", ""]
    services.seat_remove_computer(game_id=game.pk, user=ana, seat_id=seat.pk)  # again: no-op
    services.game_join(game_id=game.pk, user=ben)
    person = WinterSeat.objects.get(game=game, user=ben)
    with pytest.raises(ActionRefused) as refused:
        services.seat_remove_computer(game_id=game.pk, user=ana, seat_id=person.pk)
    assert refused.value.status == 409


def test_only_the_opener_seats_computers_in_an_open_game(ana: User, ben: User) -> None:
    started = _open(ana, players=3, computers=1)
    services.game_join(game_id=started.pk, user=ben)  # full: it starts
    with pytest.raises(ActionRefused) as refused:
        services.seat_add_computer(game_id=started.pk, user=ana, level="easy")
    assert refused.value.status == 409
    waiting = _open(ana, players=3, computers=1)
    seat = WinterSeat.objects.get(game=waiting, position=2)
    with pytest.raises(ActionRefused) as refused:
        services.seat_add_computer(game_id=waiting.pk, user=ben, level="easy")
    assert refused.value.status == 403
    with pytest.raises(ActionRefused) as refused:
        services.seat_remove_computer(game_id=waiting.pk, user=ben, seat_id=seat.pk)
    assert refused.value.status == 403
    with pytest.raises(ActionRefused) as refused:
        services.seat_add_computer(game_id=waiting.pk, user=ana, level="godlike")
    assert refused.value.status == 400
    assert _seated(waiting) == ["ana", "", "easy"]


def test_the_add_button_sent_twice_seats_one_computer(client_logged_in: Client, user: User) -> None:
    game = _open(user, players=4)
    page = client_logged_in.get(f"/winter/games/{game.pk}/").text
    assert 'data-testid="winter-add-computer"' in page
    fields = {"level": "strong", "v": str(WinterGame.objects.get(pk=game.pk).version)}
    first = client_logged_in.post(f"/winter/games/{game.pk}/computers/", fields)
    again = client_logged_in.post(f"/winter/games/{game.pk}/computers/", fields, follow=True)
    assert first.status_code == 302
    assert "The table has changed since this page was drawn." in again.text
    assert _seated(game) == [user.username, "", "", "strong"]
    seat = WinterSeat.objects.get(game=game, position=3)
    page = client_logged_in.get(f"/winter/games/{game.pk}/").text
    assert f"/winter/games/{game.pk}/computers/{seat.pk}/remove/" in page
    client_logged_in.post(f"/winter/games/{game.pk}/computers/{seat.pk}/remove/")
    assert _seated(game) == [user.username, "", "", ""]


# -- the time for a turn -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pace", "field", "value", "seconds"),
    [
        ("live", "live_turn", "30", 30),
        ("live", "live_turn", "300", 300),
        ("correspondence", "correspondence_turn", "604800", 604800),
        ("correspondence", "correspondence_turn", "86400", 86400),
        # The other pace's field is not read.
        ("live", "correspondence_turn", "604800", None),
        ("untimed", "live_turn", "30", None),
    ],
)
def test_the_new_game_form_sets_the_time_for_a_turn(
    client_logged_in: Client, pace: str, field: str, value: str, seconds: int | None
) -> None:
    fields = {"players": "2", "computers": "1", "level": "easy", "pace": pace, field: value}
    answer = client_logged_in.post("/winter/new/", fields)
    game = WinterGame.objects.get()
    assert answer["Location"] == f"/winter/games/{game.pk}/"
    assert game.turn_seconds == seconds
    if pace == "untimed":
        assert game.deadline is None
    else:
        length = seconds or {"live": 120, "correspondence": 3 * 86400}[pace]
        assert game.deadline is not None
        assert abs((game.deadline - timezone.now()).total_seconds() - length) < 5


def test_the_contract_fields_alone_keep_the_pace_s_default(client_logged_in: Client) -> None:
    fields = {"players": "2", "computers": "1", "level": "easy", "farmers": "on", "pace": "live"}
    answer = client_logged_in.post("/winter/new/", fields)
    game = WinterGame.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/winter/games/{game.pk}/"
    assert game.turn_seconds is None
    assert services.turn_length(game) == services.LIVE_TURN
    assert "2 minutes a turn" in client_logged_in.get(answer["Location"]).text


def test_the_game_page_shows_the_time_for_a_turn(client: Client, user: User) -> None:
    game = _open(user, players=2, computers=1, pace="correspondence", turn_seconds=7 * 86400)
    assert "7 days a turn" in client.get(f"/winter/games/{game.pk}/").text
    untimed = _open(user, players=2, computers=1, pace="untimed")
    assert "a turn" not in client.get(f"/winter/games/{untimed.pk}/").text


def test_the_form_offers_each_pace_s_lengths(client_logged_in: Client) -> None:
    page = client_logged_in.get("/winter/").text
    for text in ("30 seconds", "5 minutes", "1 day", "7 days"):
        assert text in page
    assert 'name="live_turn"' in page and 'name="correspondence_turn"' in page
    assert '<option value="120" selected>' in page and '<option value="259200" selected>' in page


@pytest.mark.parametrize(
    ("pace", "seconds"),
    [("live", 31), ("live", 86400), ("correspondence", 120), ("untimed", 60), ("live", 0)],
)
def test_a_time_not_offered_for_the_pace_is_refused(user: User, pace: str, seconds: int) -> None:
    with pytest.raises(ActionRefused):
        _open(user, players=2, computers=1, pace=pace, turn_seconds=seconds)
    assert not WinterGame.objects.exists()


# -- hostile input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["\x00", "99999999999999999999999", "٣٠", "²", "-30", "30.0", "x" * 3000]
)
def test_a_hostile_time_for_a_turn_is_refused(client_logged_in: Client, value: str) -> None:
    fields = {"players": "2", "computers": "1", "level": "easy", "pace": "live"}
    answer = client_logged_in.post("/winter/new/", {**fields, "live_turn": value})
    assert 400 <= answer.status_code < 500
    assert not WinterGame.objects.exists()


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("computers/", {"level": "\x00"}),
        ("computers/", {"level": "easy", "v": "99999999999999999999999"}),
        ("computers/", {"level": "easy", "v": "١٢٣"}),
        ("computers/", {"level": "x" * 3000}),
        ("computers/99999999999999999999999/remove/", {}),
        ("computers/123456789/remove/", {}),
    ],
)
def test_hostile_seat_input_is_refused_and_changes_nothing(
    client_logged_in: Client, user: User, path: str, fields: dict[str, str]
) -> None:
    game = _open(user, players=3, computers=1)
    version = WinterGame.objects.get(pk=game.pk).version
    answer = client_logged_in.post(f"/winter/games/{game.pk}/{path}", fields)
    assert 400 <= answer.status_code < 500
    assert WinterGame.objects.get(pk=game.pk).version == version
    assert _seated(game) == [user.username, "", "easy"]


@pytest.mark.parametrize("action", ["rematch", "leave", "cancel", "computers"])
@pytest.mark.parametrize("pk", ["99999999999999999999", "0", "123456789"])
def test_hostile_game_numbers_are_404(client_logged_in: Client, action: str, pk: str) -> None:
    answer = client_logged_in.post(f"/winter/games/{pk}/{action}/", {"level": "easy"})
    # A game already gone answers a cancel by going home: nothing left to cancel.
    assert answer.status_code == 404 or (action == "cancel" and answer["Location"] == "/winter/")


@pytest.mark.parametrize("action", ["rematch", "leave", "cancel", "computers"])
def test_the_actions_want_a_signed_in_post(client: Client, user: User, action: str) -> None:
    game = _open(user)
    assert client.get(f"/winter/games/{game.pk}/{action}/").status_code in (302, 405)
    answer = client.post(f"/winter/games/{game.pk}/{action}/")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert _seated(game) == [user.username, "", ""]


def test_a_banned_player_opens_joins_and_rematches_no_winter_game(
    ana: User, ben: User, finished: Callable[..., WinterGame]
) -> None:
    game = finished([ana, ben])
    table = _open(ana)
    ben.banned_until = timezone.now() + datetime.timedelta(days=7)
    ben.save(update_fields=["banned_until"])
    tried: list[Callable[[], object]] = [
        lambda: _open(ben),
        lambda: services.game_join(game_id=table.pk, user=ben),
        lambda: services.game_rematch(game_id=game.pk, user=ben),
    ]
    for attempt in tried:
        with pytest.raises(PermissionDenied):
            attempt()
    # Nothing was written: no game of ben's, no seat taken, no rematch opened.
    assert not WinterGame.objects.filter(created_by=ben).exists()
    assert _seated(table) == ["ana", "", ""]
    assert not WinterGame.objects.filter(rematch_of=game).exists()
    # Through the pages, the ban's own page answers first, and still nothing changes.
    client = Client()
    client.force_login(ben)
    assert client.post(f"/winter/games/{table.pk}/join/").status_code == 302
    assert _seated(table) == ["ana", "", ""]
