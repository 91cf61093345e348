"""Every game link a visitor is shown opens a page: none leads to a 404."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from time_machine import TimeMachineFixture

from games import services
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GAME_LINK = re.compile(r'href="(/games/\d+/[^"]*)"')


def test_no_game_link_shown_to_a_visitor_is_a_404(
    client: Client,
    play_rounds: Callable[[Game, int], Game],
    time_machine: TimeMachineFixture,
) -> None:
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    yesterday = play_rounds(services.game_create_daily(user=ana), 16)
    assert yesterday.daily is not None
    time_machine.move_to(timezone.now() + datetime.timedelta(days=1))
    play_rounds(services.game_create_daily(user=ben), 16)
    services.game_create_multi(user=ana, seats_max=3, pace=Game.Pace.LIVE, listed=True)
    pages = [
        reverse("games:lobby"),
        reverse("leaderboards:daily"),
        reverse("leaderboards:daily_day", kwargs={"day": yesterday.daily.isoformat()}),
        reverse("leaderboards:board", kwargs={"ruleset": "standard", "kind": "best"}),
        reverse("leaderboards:board", kwargs={"ruleset": "standard", "kind": "week"}),
    ]
    links = set()
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        links |= set(GAME_LINK.findall(response.content.decode()))
    assert links, "the pages link no game at all"
    broken = [link for link in sorted(links) if client.get(link).status_code == 404]
    assert not broken
