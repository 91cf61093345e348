"""Asynchronous duplicate tournaments: entering, playing each deal once, the standings."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from types import SimpleNamespace

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import user_delete
from core.errors import ActionRefused
from games import computer
from games import services as game_services
from games.models import Game
from leaderboards.models import DealScore
from moderation.models import AuditEntry
from moderation.services import entrant_disqualify, game_hide, game_unhide
from tests.factories import UserFactory, moderators_group
from tests.pages import HTMX
from tournaments import selectors, services, tasks
from tournaments.models import Entrant, Invitation, Play, Tournament

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory(is_staff=True)
    user.groups.add(moderators_group())
    return user


def running(**options: object) -> Tournament:
    now = timezone.now()
    values: dict[str, object] = {
        "name": "Spring cup",
        "ruleset": "standard",
        "deal_count": 2,
        "starts_at": now - HOUR,
        "ends_at": now + 24 * HOUR,
    }
    values.update(options)
    return services.tournament_create(**values)  # type: ignore[arg-type]


def finish(
    tournament: Tournament,
    user: User,
    number: int,
    rounds: int,
    play_rounds: Callable[[Game, int], Game],
) -> Game:
    """Play ``rounds`` rounds of the deal with the reference player, then give up."""
    game = services.deal_play(tournament=tournament, user=user, number=number)
    game = play_rounds(game, rounds)
    if not game.is_finished:
        game = game_services.seat_resign(game=game, user=user)
    return game


def entered(tournament: Tournament, count: int) -> list[User]:
    players = [UserFactory() for _ in range(count)]
    for player in players:
        services.tournament_join(tournament=tournament, user=player)
    return players


def test_standings_add_up_matchpoint_percentages_over_the_deals(
    play_rounds: Callable[[Game, int], Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The deals' secret seeds pinned, so the scores (and the tie-break below) are the same
    # on every run.
    seeds = iter([7, 11])
    monkeypatch.setattr(services, "secrets", SimpleNamespace(randbits=lambda _bits: next(seeds)))
    tournament = running()
    ana, ben, cy = entered(tournament, 3)
    # Playing longer scores more with the reference player: ana beats ben beats cy.
    for player, rounds in ((ana, 16), (ben, 8), (cy, 2)):
        finish(tournament, player, 1, rounds, play_rounds)
    finish(tournament, cy, 2, 16, play_rounds)
    tournament.refresh_from_db()
    rows = selectors.standings(tournament)
    totals = {row.username: row.total for row in rows}
    assert totals == {ana.username: 100.0, cy.username: 100.0, ben.username: 50.0}
    assert rows[-1].username == ben.username
    by_name = {row.username: row for row in rows}
    assert by_name[cy.username].percents == (0.0, 100.0)
    # cy and ana tie on the total: the larger sum of scores goes first.
    first, second = rows[0], rows[1]
    assert first.score_sum > second.score_sum
    assert {first.username, second.username} == {ana.username, cy.username}
    assert [row.rank for row in rows] == [1, 2, 3]
    # The deals' results are compared as every shared deal is, once the seal lifts.
    scores = DealScore.objects.filter(deal__in=tournament.deals.values("deal"))
    assert scores.count() == 0
    with time_machine.travel(tournament.ends_at, tick=False):
        tasks.tournament_unseal.enqueue(tournament.pk)
    assert scores.count() == 4


def test_a_tournament_game_is_sealed_and_played_without_hints(
    client: Client, play_rounds: Callable[[Game, int], Game]
) -> None:
    tournament = running()
    ana, ben = entered(tournament, 2)
    game = finish(tournament, ana, 1, 16, play_rounds)
    client.force_login(ben)
    # ben has not played deal 1: neither ana's game nor its result on the deal is shown.
    assert client.get(reverse("games:detail", args=[game.pk])).status_code == 404
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "100%" not in page
    mine = services.deal_play(tournament=tournament, user=ben, number=1)
    with pytest.raises(ActionRefused, match="without hints"):
        computer.hint_take(game=mine, user=ben)
    play_rounds(mine, 16)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "50%" in page


def test_bad_input_is_refused_and_changes_nothing(
    play_rounds: Callable[[Game, int], Game],
) -> None:
    tournament = running(max_entrants=2)
    ana, _ben = entered(tournament, 2)
    with pytest.raises(ActionRefused, match="already entered"):
        services.tournament_join(tournament=tournament, user=ana)
    with pytest.raises(ActionRefused, match="full"):
        services.tournament_join(tournament=tournament, user=UserFactory())
    with pytest.raises(ActionRefused, match="in order"):
        services.deal_play(tournament=tournament, user=ana, number=2)
    with pytest.raises(ActionRefused, match="no such deal"):
        services.deal_play(tournament=tournament, user=ana, number=99)
    with pytest.raises(ActionRefused, match="Enter the tournament"):
        services.deal_play(tournament=tournament, user=UserFactory(), number=1)
    first = services.deal_play(tournament=tournament, user=ana, number=1)
    # A double click while the game is in play goes back to it.
    assert services.deal_play(tournament=tournament, user=ana, number=1) == first
    play_rounds(first, 16)
    with pytest.raises(ActionRefused, match="one attempt per deal"):
        services.deal_play(tournament=tournament, user=ana, number=1)
    assert Entrant.objects.filter(tournament=tournament).count() == 2
    assert Play.objects.filter(entrant__tournament=tournament).count() == 1


def test_a_closed_window_takes_no_entry_and_no_play() -> None:
    tournament = running()
    (ana,) = entered(tournament, 1)
    with time_machine.travel(tournament.ends_at + HOUR, tick=False):
        with pytest.raises(ActionRefused, match="over"):
            services.tournament_join(tournament=tournament, user=UserFactory())
        with pytest.raises(ActionRefused, match="over"):
            services.deal_play(tournament=tournament, user=ana, number=1)
    upcoming = running(starts_at=timezone.now() + HOUR)
    (ben,) = entered(upcoming, 1)
    with pytest.raises(ActionRefused, match="not started"):
        services.deal_play(tournament=upcoming, user=ben, number=1)
    assert not Play.objects.exists()
    with pytest.raises(ActionRefused, match="already over"):
        running(ends_at=timezone.now() - HOUR, starts_at=timezone.now() - 2 * HOUR)


def test_an_invitation_tournament_takes_only_those_invited() -> None:
    guest, stranger = UserFactory(), UserFactory()
    tournament = running(entry=Tournament.Entry.INVITATION, invited=[guest])
    services.tournament_join(tournament=tournament, user=guest)
    with pytest.raises(PermissionDenied):
        services.tournament_join(tournament=tournament, user=stranger)
    assert list(tournament.entrants.values_list("user", flat=True)) == [guest.pk]
    assert Invitation.objects.count() == 1


def test_a_deal_not_finished_in_the_window_scores_zero(
    play_rounds: Callable[[Game, int], Game],
) -> None:
    tournament = running()
    ana, ben = entered(tournament, 2)
    finish(tournament, ana, 1, 2, play_rounds)
    late = services.deal_play(tournament=tournament, user=ben, number=1)
    with time_machine.travel(tournament.ends_at + HOUR, tick=False):
        play_rounds(late, 16)
        tournament.refresh_from_db()
        rows = selectors.standings(tournament)
    assert [(row.username, row.total) for row in rows] == [(ana.username, 100.0), (ben.username, 0)]


def test_a_disqualified_entrant_leaves_the_standings_and_the_audit_log_says_so(
    moderator: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    tournament = running()
    ana, ben = entered(tournament, 2)
    finish(tournament, ana, 1, 16, play_rounds)
    finish(tournament, ben, 1, 4, play_rounds)
    entrant = Entrant.objects.get(user=ana)
    entrant_disqualify(moderator=moderator, entrant=entrant, reason="two accounts")
    tournament.refresh_from_db()
    assert [(row.username, row.total) for row in selectors.standings(tournament)] == [
        (ben.username, 100.0)
    ]
    entry = AuditEntry.objects.get(action=AuditEntry.Action.DISQUALIFY)
    assert entry.target == ana and entry.reason == "two accounts"
    with pytest.raises(ActionRefused):
        entrant_disqualify(moderator=moderator, entrant=entrant, reason="again")
    with pytest.raises(PermissionDenied):
        entrant_disqualify(moderator=ben, entrant=Entrant.objects.get(user=ben), reason="x")


def test_weekly_tournaments_are_made_once_per_ruleset_and_week() -> None:
    made = services.weekly_tournaments_ensure()
    assert len(made) == 8
    assert services.weekly_tournaments_ensure() == []
    this_week = Tournament.objects.filter(starts_at__lte=timezone.now()).order_by("ruleset")
    assert [t.ruleset for t in this_week] == ["both", "diagonal", "ferryman", "standard"]
    assert all(t.deals.count() == 8 for t in this_week)


def test_the_pages_show_running_and_past_tournaments_with_winners(
    client: Client, play_rounds: Callable[[Game, int], Game]
) -> None:
    tournament = running(name="Autumn open")
    ana, ben = entered(tournament, 2)
    finish(tournament, ana, 1, 16, play_rounds)
    finish(tournament, ben, 1, 2, play_rounds)
    page = client.get(reverse("tournaments:index")).content.decode()
    assert "Autumn open" in page
    detail = client.get(reverse("tournaments:detail", args=[tournament.pk]))
    assert b'data-testid="tie-breaks"' in detail.content
    assert b'hx-trigger="every 15s, sse:standings"' in detail.content
    fragment = client.get(reverse("tournaments:detail", args=[tournament.pk]), **HTMX)
    assert b"<html" not in fragment.content and b'id="standings"' in fragment.content
    for page_number in ("\u0661", "99999999999", "-3", "x\x00"):
        response = client.get(
            reverse("tournaments:detail", args=[tournament.pk]), {"page": page_number}
        )
        assert response.status_code in (200, 404)
    with time_machine.travel(tournament.ends_at + HOUR, tick=False):
        past = client.get(reverse("tournaments:index")).content.decode()
        record = client.get(reverse("tournaments:record", args=[ana.username]), **HTMX)
    assert (
        f'data-testid="winner"><a href="{reverse("accounts:profile", args=[ana.username])}"' in past
    )
    assert "1 of 2" in record.content.decode()
    # A sum of matchpoint percentages: its unit is written (issue #51).
    assert '<td class="num">100.0%</td>' in record.content.decode()


def test_entering_and_playing_through_the_pages(client: Client) -> None:
    tournament = running()
    player = UserFactory()
    client.force_login(player)
    url = reverse("tournaments:detail", args=[tournament.pk])
    assert client.post(reverse("tournaments:join", args=[tournament.pk])).status_code == 302
    again = client.post(reverse("tournaments:join", args=[tournament.pk]), follow=True)
    assert "already entered" in again.content.decode()
    out_of_turn = client.post(reverse("tournaments:play", args=[tournament.pk, 2]), follow=True)
    assert "in order" in out_of_turn.content.decode()
    response = client.post(reverse("tournaments:play", args=[tournament.pk, 1]))
    game = Play.objects.get().game
    assert response["Location"] == reverse("games:detail", args=[game.pk])
    assert client.get(url).status_code == 200
    assert Client().post(reverse("tournaments:join", args=[tournament.pk])).status_code == 302
    assert Entrant.objects.count() == 1


def test_hiding_a_tournament_game_takes_it_out_of_the_standings_until_unhidden(
    moderator: User, play_rounds: Callable[[Game, int], Game]
) -> None:
    tournament = running()
    ana, ben = entered(tournament, 2)
    game = finish(tournament, ana, 1, 16, play_rounds)
    finish(tournament, ben, 1, 4, play_rounds)
    game_hide(moderator=moderator, game=game, reason="bot help")
    tournament.refresh_from_db()
    assert [(row.username, row.total) for row in selectors.standings(tournament)] == [
        (ben.username, 100.0),
        (ana.username, 0),
    ]
    game_unhide(moderator=moderator, game=game)
    tournament.refresh_from_db()
    assert selectors.standings(tournament)[0].username == ana.username


def test_a_moderator_creates_a_tournament_with_invitations_in_the_admin(
    client: Client, moderator: User
) -> None:
    guest = UserFactory()
    client.force_login(moderator)
    now = timezone.now()
    response = client.post(
        reverse("admin:tournaments_tournament_add"),
        {
            "name": "Club night",
            "ruleset": "diagonal",
            "format": "async",
            "round_seconds": "",
            "deal_count": "4",
            "starts_at_0": now.date().isoformat(),
            "starts_at_1": "13:00:00",
            "ends_at_0": (now + 48 * HOUR).date().isoformat(),
            "ends_at_1": "13:00:00",
            "entry": "invitation",
            "max_entrants": "",
            "invitations-TOTAL_FORMS": "1",
            "invitations-INITIAL_FORMS": "0",
            "invitations-0-user": str(guest.pk),
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Club night")
    assert tournament.created_by == moderator
    assert tournament.deals.count() == 4
    assert list(tournament.invitations.values_list("user", flat=True)) == [guest.pk]


def test_a_deleted_account_leaves_the_standings(
    play_rounds: Callable[[Game, int], Game],
) -> None:
    tournament = running()
    ana, ben = entered(tournament, 2)
    finish(tournament, ana, 1, 16, play_rounds)
    finish(tournament, ben, 1, 4, play_rounds)
    tournament.refresh_from_db()
    assert len(selectors.standings(tournament)) == 2
    user_delete(user=ana)
    tournament.refresh_from_db()
    assert [(row.username, row.total) for row in selectors.standings(tournament)] == [
        (ben.username, 100.0)
    ]
