"""Invitation-only tournaments: invitees notified and told so, picked by name in the admin;
the list marks the tournaments one entered."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from tests.factories import UserFactory, moderators_group
from tests.pages import client_for
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def moderator(db: None) -> User:
    user = UserFactory(is_staff=True)
    user.groups.add(moderators_group())
    return user


def upcoming(**options: object) -> Tournament:
    now = timezone.now()
    values: dict[str, object] = {
        "name": "Club night",
        "ruleset": "standard",
        "deal_count": 2,
        "starts_at": now + HOUR,
        "ends_at": now + 24 * HOUR,
    }
    values.update(options)
    return services.tournament_create(**values)  # type: ignore[arg-type]


def test_each_invitee_is_notified_once_with_a_link_to_the_tournament() -> None:
    ana, ben = UserFactory(), UserFactory()
    tournament = upcoming(entry=Tournament.Entry.INVITATION, invited=[ana, ben])
    url = reverse("tournaments:detail", kwargs={"pk": tournament.pk})
    for player in (ana, ben):
        (notice,) = Notification.objects.filter(user=player)
        assert (notice.text, notice.url) == ("You are invited to the tournament Club night.", url)
    # Invited again (an admin's second save): nobody hears it twice.
    services.tournament_invite(tournament=tournament, users=[ana])
    assert Notification.objects.filter(user=ana).count() == 1
    assert tournament.invitations.count() == 2


def test_an_invitee_reads_the_invitation_in_their_own_language() -> None:
    guest = UserFactory(language="de")
    upcoming(entry=Tournament.Entry.INVITATION, invited=[guest])
    assert Notification.objects.get(user=guest).text == (
        "Du bist zum Turnier Club night eingeladen."
    )


def test_the_page_and_the_list_tell_an_invitee_they_are_invited() -> None:
    guest, stranger = UserFactory(), UserFactory()
    tournament = upcoming(entry=Tournament.Entry.INVITATION, invited=[guest])
    detail = reverse("tournaments:detail", kwargs={"pk": tournament.pk})
    page = client_for(guest).get(detail).content.decode()
    assert "You are invited to this tournament." in page
    assert 'data-testid="join"' in page
    other = client_for(stranger).get(detail).content.decode()
    assert "This tournament is by invitation only." in other
    assert "You are invited" not in other

    listing = client_for(guest).get(reverse("tournaments:index")).content.decode()
    assert 'data-testid="invited-tag"' in listing and "you are invited" in listing
    assert 'data-testid="invited-tag"' not in (
        client_for(stranger).get(reverse("tournaments:index")).content.decode()
    )
    # Once entered, the list says so instead.
    services.tournament_join(tournament=tournament, user=guest)
    listing = client_for(guest).get(reverse("tournaments:index")).content.decode()
    assert 'data-testid="entered-tag"' in listing
    assert 'data-testid="invited-tag"' not in listing


def test_the_list_marks_the_tournaments_one_entered_and_no_others() -> None:
    ana = UserFactory()
    mine, other = upcoming(name="Mine"), upcoming(name="Other")
    services.tournament_join(tournament=mine, user=ana)
    listing = client_for(ana).get(reverse("tournaments:index")).content.decode()
    assert listing.count('data-testid="entered-tag"') == 1
    line = listing.split(f'href="{reverse("tournaments:detail", args=[mine.pk])}"')[1]
    assert 'data-testid="entered-tag"' in line.split("</li>")[0]
    assert other.name in listing
    # A visitor's list marks nothing (and costs no read of entrants).
    assert (
        'data-testid="entered-tag"'
        not in Client().get(reverse("tournaments:index")).content.decode()
    )


def test_a_moderator_picks_invitees_by_name_and_they_are_notified(
    client: Client, moderator: User
) -> None:
    guest = UserFactory(username="rosalind")
    client.force_login(moderator)
    add = reverse("admin:tournaments_tournament_add")
    form = client.get(add).content.decode()
    # The invitee is chosen by name as one types, not by a raw id.
    assert "admin-autocomplete" in form and "vForeignKeyRawIdAdminField" not in form
    found = client.get(
        reverse("admin:autocomplete"),
        {
            "term": "rosa",
            "app_label": "tournaments",
            "model_name": "invitation",
            "field_name": "user",
        },
    ).json()
    assert [result["text"] for result in found["results"]] == ["rosalind"]

    now = timezone.now()
    response = client.post(
        add,
        {
            "name": "Club night",
            "ruleset": "standard",
            "format": "async",
            "round_seconds": "",
            "deal_count": "2",
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
    assert list(tournament.invitations.values_list("user", flat=True)) == [guest.pk]
    assert Notification.objects.get(user=guest).url == reverse(
        "tournaments:detail", kwargs={"pk": tournament.pk}
    )
