"""Download my data from the settings page: asked for, prepared by the worker, downloaded."""

from __future__ import annotations

import datetime
import io
import json
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.models import DataExport
from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _meanwhile(write: Callable[[], object]) -> None:
    # The page polls the same in-memory database from the server's thread: a write here
    # may meet its read and find the table locked for a moment.
    for _attempt in range(20):
        try:
            write()
            return
        except OperationalError:
            time.sleep(0.1)
    write()


def test_the_settings_page_prepares_the_zip_then_offers_it(
    page: Any, live_server: Any, tmp_path: Path, time_machine: Any
) -> None:
    base = live_server.url
    ana = UserFactory(username="ana")
    sign_in(page, base, "ana")
    # A zip asked for earlier, still in the making: the page polls until it is ready.
    made = DataExport.objects.create(user=ana, games_total=0)
    page.goto(f"{base}/players/settings/")
    expect(page.locator("[data-testid=data-export-pending]")).to_contain_text("being prepared")
    _meanwhile(lambda: services.data_export_build(export_id=made.pk))
    download = page.locator("[data-testid=data-export-download]")
    expect(download).to_be_visible()
    settle(page)
    with page.expect_download() as event:
        download.click()
    saved = tmp_path / "data.zip"
    event.value.save_as(saved)
    archive = zipfile.ZipFile(io.BytesIO(saved.read_bytes()))
    assert json.loads(archive.read("profile.json"))["username"] == "ana"
    # An hour later a new one may be asked for from the page (the test's queue builds it
    # at once).
    time_machine.move_to(timezone.now() + datetime.timedelta(hours=1, minutes=1))
    page.reload()
    settle(page)
    page.locator("[data-testid=data-export-prepare]").click()
    expect(page.locator("[data-testid=data-export-download]")).to_be_visible()
    settle(page)
    _meanwhile(lambda: _assert_renewed(made))


def _assert_renewed(made: DataExport) -> None:
    assert DataExport.objects.get().requested_at > made.requested_at
