"""A moderator bans a player from the admin; the player's next page load shows the ban."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from moderation.models import AuditEntry
from tests.factories import PASSWORD, UserFactory, moderators_group

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page: Any, base: str, path: str, username: str) -> None:
    page.goto(f"{base}{path}")
    page.fill("input[name=login], input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    # Not the language menu's button at the foot of the page.
    page.locator("form:not(.language-form) [type=submit]").last.click()
    page.wait_for_load_state()


def test_a_moderator_bans_a_player_who_sees_it_on_the_next_page(
    browser: Any, page: Any, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    moderator = UserFactory(username="mod", is_staff=True)
    moderator.groups.add(moderators_group())
    player = UserFactory(username="rowdy")

    # The player is signed in and browsing, in a browser of their own.
    player_context = browser.new_context(viewport={"width": 390, "height": 844})
    player_page = player_context.new_page()
    player_page.set_default_timeout(15_000)
    sign_in(player_page, base, "/accounts/login/", "rowdy")
    assert player_page.locator("text=Sign out").count() == 1

    # The moderator bans them from the admin's list of players.
    sign_in(page, base, "/admin/login/", "mod")
    page.goto(f"{base}/admin/accounts/user/?q=rowdy")
    page.check(f"input[name=_selected_action][value='{player.pk}']")
    page.select_option("select[name=action]", "ban_users")
    page.click("button[name=index]")
    page.fill("textarea[name=reason]", "Insulting other players")
    page.select_option("select[name=duration]", "7")
    page.screenshot(path=str(artifacts / "moderation-ban-form.png"), full_page=True)
    page.click("input[name=apply]")
    page.get_by_text("done for 1 item").wait_for()

    # Their next page load signs them out and says why and until when.
    player_page.reload()
    notice = player_page.locator("[data-testid=ban-notice]")
    notice.wait_for()
    assert "Insulting other players" in notice.inner_text()
    assert "Permanently" not in player_page.locator("[data-testid=ban-until]").inner_text()
    assert player_page.locator("text=Sign out").count() == 0
    player_page.screenshot(path=str(artifacts / "moderation-banned.png"), full_page=True)
    player_context.close()

    assert User.objects.get(pk=player.pk).is_banned
    assert AuditEntry.objects.get().moderator == moderator
