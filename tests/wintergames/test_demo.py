"""The Winter demo data that ``scripts/serve`` loads: what a first visitor sees of it."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.demo import DEMO_PASSWORD
from wintergames.models import WinterGame

pytestmark = pytest.mark.django_db


def test_the_winter_demo_loads_once_with_a_finished_game_and_one_in_the_lobby() -> None:
    call_command("load_demo", stdout=StringIO())
    call_command("load_demo_winter", stdout=StringIO())
    out = StringIO()
    call_command("load_demo_winter", stdout=out)
    assert "already loaded" in out.getvalue()
    finished, waiting = WinterGame.objects.order_by("pk")
    assert finished.status == WinterGame.Status.FINISHED
    seats = list(finished.seats.select_related("user").order_by("place"))
    # Both demo accounts played it to the end: every tile laid, the scores and places kept.
    assert sorted(str(seat.user) for seat in seats) == ["demo", "demo-rival"]
    assert all(seat.score is not None and seat.score > 0 for seat in seats)
    assert seats[0].place == 1
    assert finished.turns.count() > 40
    assert waiting.status == WinterGame.Status.OPEN and waiting.listed

    # The demo account signs in with the demo password and finds both on the Winter page.
    client = Client()
    assert client.login(username="demo", password=DEMO_PASSWORD)
    page = client.get("/winter/").content.decode()
    assert f"/winter/games/{waiting.pk}/" in page
    assert f"/winter/games/{finished.pk}/" in page


def test_the_winter_demo_makes_the_demo_accounts_when_the_limes_demo_did_not() -> None:
    call_command("load_demo_winter", stdout=StringIO())
    assert Client().login(username="demo-rival", password=DEMO_PASSWORD)
