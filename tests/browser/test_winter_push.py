"""A Winter game's page polls only while its event stream is down: while the stream is open
its timer's polls stand aside (static/js/push.js), and they resume when it drops."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory
from wintergames import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page's stream element: the nearest [sse-connect] around the board's poller.
SOURCE = 'document.querySelector("[data-testid=winter-poller]").closest("[sse-connect]")'


def _stream_event(page: Any, name: str) -> None:
    detail = "{ bubbles: true, detail: { source: new EventTarget() } }"
    page.evaluate(f"""() => {SOURCE}.dispatchEvent(new CustomEvent("{name}", {detail}))""")


def test_the_poll_rests_while_the_stream_is_open_and_resumes_when_it_drops(
    page: Any, live_server: Any
) -> None:
    base = live_server.url
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = services.game_create(
        user=ana, players=2, computers=0, level="easy", farmers=True, pace="untimed"
    )
    services.game_join(game_id=game.pk, user=ben)
    polls: list[float] = []

    def noted(request: Any) -> None:
        if "/poll/" in request.url:
            polls.append(time.monotonic())

    page.on("request", noted)
    # The test server answers no stream (WSGI): held unanswered, it neither opens nor fails,
    # and the test says when it opens and drops.
    page.route("**/stream/**", lambda route: None)
    sign_in(page, base, "ana")
    page.goto(f"{base}/winter/games/{game.pk}/")
    settle(page)
    page.wait_for_function("() => window.htmx !== undefined")

    _stream_event(page, "htmx:sseOpen")
    opened = time.monotonic()
    page.wait_for_timeout(5_000)
    assert [at for at in polls if at > opened + 0.2] == []  # two ticks went by, no poll

    # An event of the stream still sets the poll off.
    page.evaluate(
        """() => htmx.trigger(document.querySelector("[data-testid=winter-poller]"), "sse:game")"""
    )
    page.wait_for_timeout(500)
    assert len([at for at in polls if at > opened + 0.2]) == 1

    _stream_event(page, "htmx:sseError")
    dropped = time.monotonic()
    page.wait_for_timeout(4_500)
    assert len([at for at in polls if at > dropped]) >= 2  # every 2 s again
