"""A finished public game's page offers its link, its embed code and its landscape image."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def share_fields(page: str) -> dict[str, str]:
    """The share box's fields as a player reads them (attribute values unescaped)."""
    found = re.findall(r'value="([^"]*)"\s+data-testid="share-(\w+)"', page)
    return {name: html.unescape(value) for value, name in found}


def test_a_finished_game_offers_its_link_embed_code_and_image(
    client_logged_in: Client, finished_solo: Game
) -> None:
    page = client_logged_in.get(reverse("games:detail", args=[finished_solo.pk])).content.decode()
    assert 'data-testid="share"' in page and "<details" in page
    fields = share_fields(page)
    assert fields["link"] == f"http://testserver/games/{finished_solo.pk}/"
    embed_url = f"http://testserver/embed/games/{finished_solo.pk}/"
    assert fields["embed"].startswith(f'<iframe src="{embed_url}"')
    assert fields["embed"].endswith("</iframe>")
    assert fields["svg"] == f"http://testserver/games/{finished_solo.pk}/landscape.svg"
    # A button copies each field; the image is named for whose landscape it is (a solo
    # game has no winner).
    for name in ("link", "embed", "svg"):
        assert f'data-copy="share-{name}"' in page
        assert f'aria-describedby="share-{name}-label"' in page
    player = finished_solo.seats.get().display_name
    assert f"The landscape of {player} as an image (SVG)" in " ".join(page.split())
    assert "The winner's landscape" not in page
    # Each address opens for a visitor who is signed out.
    visitor = Client()
    for url in (fields["link"], embed_url, fields["svg"]):
        assert visitor.get(url).status_code == 200, url
    # A spectator is offered the same.
    assert 'data-testid="share"' in visitor.get(fields["link"]).content.decode()


def test_no_share_box_where_the_embed_would_not_open(
    client_logged_in: Client, user: User, finished_solo: Game
) -> None:
    in_play = services.game_create_solo(user=user, seed=4)
    page = client_logged_in.get(reverse("games:detail", args=[in_play.pk])).content.decode()
    assert 'data-testid="share"' not in page
    # A game a moderator hid stays on its player's page, but not for other sites.
    finished_solo.hidden = True
    finished_solo.save(update_fields=["hidden"])
    url = reverse("games:detail", args=[finished_solo.pk])
    assert 'data-testid="share"' not in client_logged_in.get(url).content.decode()
    assert Client().get(f"/embed/games/{finished_solo.pk}/").status_code == 404
    # Nor a game with a banned player at it.
    finished_solo.hidden = False
    finished_solo.save(update_fields=["hidden"])
    user.banned_until = timezone.now() + datetime.timedelta(days=3)
    user.save(update_fields=["banned_until"])
    staff = UserFactory(is_staff=True)
    watcher = Client()
    watcher.force_login(staff)
    assert 'data-testid="share"' not in watcher.get(url).content.decode()


def test_a_spectator_is_not_told_the_game_is_theirs(
    client_logged_in: Client, finished_solo: Game
) -> None:
    url = reverse("games:detail", args=[finished_solo.pk])
    assert "Your game" in client_logged_in.get(url).content.decode()
    watched = Client().get(url).content.decode()
    assert "Your game" not in watched and "The game board" in watched


def test_the_api_docs_fit_a_phone_and_lead_to_the_guide(client: Client) -> None:
    page = client.get("/api/v1/docs").content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "docs/api.md" in page
    assert 'id="swagger-ui"' in page and "swagger-ui-init.js" in page
