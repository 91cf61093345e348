"""The demo data that ``scripts/serve`` loads: what a first visitor sees."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game

pytestmark = pytest.mark.django_db


def test_demo_data_loads_once_with_a_finished_duel_and_a_game_in_the_lobby() -> None:
    call_command("load_demo", stdout=StringIO())
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "already loaded" in out.getvalue()
    games = list(Game.objects.order_by("pk"))
    assert [(g.mode, g.status) for g in games] == [
        ("solo", "finished"),
        ("multi", "finished"),
        ("multi", "open"),
    ]
    assert games[1].seats.filter(place=1).exists()
    assert games[2].listed
