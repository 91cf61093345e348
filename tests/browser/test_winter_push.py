"""A Winter game's page polls only while its event stream is down: while the stream is open
its timer's polls stand aside (static/js/push.js), and they resume when it drops."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.pages import settle, sign_in
from tests.factories import UserFactory, winter_play_first
from wintergames import services
from wintergames.models import WinterGame
from wintergames.rebuild import winter_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page's stream element: the nearest [sse-connect] around the board's poller.
SOURCE = 'document.querySelector("[data-testid=winter-poller]").closest("[sse-connect]")'


def _ana_and_ben() -> tuple[WinterGame, Any]:
    """An untimed game of ana (to move first) and ben, started; and ben."""
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    game = services.game_create(
        user=ana, players=2, computers=0, level="easy", farmers=True, pace="untimed"
    )
    services.game_join(game_id=game.pk, user=ben)
    return game, ben


def _stream_event(page: Any, name: str) -> None:
    detail = "{ bubbles: true, detail: { source: new EventTarget() } }"
    page.evaluate(f"""() => {SOURCE}.dispatchEvent(new CustomEvent("{name}", {detail}))""")


def test_the_poll_rests_while_the_stream_is_open_and_resumes_when_it_drops(
    page: Any, live_server: Any
) -> None:
    base = live_server.url
    game, _ben = _ana_and_ben()
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


def test_a_turn_told_while_the_commit_was_under_way_is_not_lost(
    page: Any, live_server: Any
) -> None:
    # The stream's event of the other player's turn comes while ana's commit is under way:
    # the poll it sets off is queued on the poller that the commit's answer takes off the
    # page, and is lost. The page must still come to ana's turn, with no reload.
    base = live_server.url
    game, ben = _ana_and_ben()
    page.route("**/stream/**", lambda route: None)  # the test says what the stream tells
    held: list[Any] = []
    page.route("**/play/", lambda route: held.append(route))
    sign_in(page, base, "ana")
    page.goto(f"{base}/winter/games/{game.pk}/")
    settle(page)
    page.wait_for_function("() => window.htmx !== undefined")
    page.evaluate(
        f"""() => {{
            window.testStream = new EventTarget();
            {SOURCE}.dispatchEvent(new CustomEvent("htmx:sseOpen",
                {{ bubbles: true, detail: {{ source: window.testStream }} }}));
        }}"""
    )

    page.locator("a.w-place").first.click()
    page.wait_for_function("() => !document.querySelector('[data-testid=winter-commit]').disabled")
    page.locator("[data-testid=winter-commit]").click()
    while not held:
        page.wait_for_timeout(50)
    answer = held[0].fetch()  # ana's turn is played; its answer not yet on the page
    played = WinterGame.objects.get(pk=game.pk)
    state = winter_game(played, list(played.seats.order_by("position")))
    assert state.drawn is not None and state.to_move == 1
    winter_play_first(game.pk, ben)
    version = WinterGame.objects.get(pk=game.pk).version
    page.evaluate(
        f"""() => window.testStream.dispatchEvent(
            new MessageEvent("game", {{ data: JSON.stringify({{ version: {version} }}) }}))"""
    )
    held[0].fulfill(response=answer)

    # The board of ben's turn played comes in (not the one before ana's commit, whose bar
    # is still on the page for a moment after the answer is let through), with ana's bar.
    page.wait_for_function(
        "(version) => document.querySelector('[data-testid=winter-board]')"
        "?.dataset.version === version",
        arg=str(version),
        timeout=5_000,
    )
    assert page.locator("[data-testid=winter-bar]").is_visible()  # ana's turn again
