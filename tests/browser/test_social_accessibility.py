"""axe-core finds no serious or critical problem on the friends page, a profile's friend
buttons and a game's chat panel, on a desktop and a phone; none scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from social import services
from tests.browser.pages import sign_in
from tests.factories import UserFactory, finished_multi, started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BLOCKING = {"serious", "critical"}


def test_friends_and_chat_pages_pass_axe(browser: Any, live_server: Any) -> None:
    base = live_server.url
    ana, ben, cy = (UserFactory(username=name) for name in ("ana", "ben", "cy"))
    services.friend_request_send(user=ana, other=ben)
    services.friend_request_accept(user=ben, other=ana)
    services.friend_request_send(user=cy, other=ana)
    services.challenge_create(user=ben, other=ana, pace="live", round_seconds=180)
    services.follow(user=ana, other=cy)
    game = started_game([ana, ben])
    finished_multi([ben, cy], [1, 2])
    services.chat_post(game=game, user=ben, text="Good luck, ana!")
    pages = [
        ("friends", "/friends/", None),
        ("profile", "/players/cy/", None),
        ("game with chat", f"/games/{game.pk}/", "[data-testid=chat-message]"),
    ]
    axe = Axe()
    problems: list[str] = []
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        sign_in(page, base, "ana")
        for name, path, wait_for in pages:
            page.goto(f"{base}{path}")
            if wait_for:
                page.locator(wait_for).first.wait_for()
            where = f"{name} @ {width}px"
            wider = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            # The header's links are engineer "live"'s to lay out; the page's own content
            # must fit.
            main_wider = page.evaluate(
                "document.querySelector('main').scrollWidth"
                " - document.querySelector('main').clientWidth"
            )
            if main_wider > 0:
                problems.append(f"{where}: content scrolls sideways by {main_wider} px ({wider})")
            results = axe.run(page, options={"resultTypes": ["violations"]})
            for violation in results.response["violations"]:
                if violation["impact"] in BLOCKING:
                    targets = "; ".join(" ".join(n["target"]) for n in violation["nodes"][:5])
                    problems.append(f"{where}: {violation['id']}: {violation['help']} -> {targets}")
        context.close()
    assert not problems, "\n".join(problems)
