"""The last player to play a live table's card gets the next one, whatever order the answers
come back in (issue #37: the phone stayed on the old card, the clock already the new one's).

The page hears of its commit twice: the commit's own answer, and a poll (set off by the
stream's event, or by its timer while there is no stream, as here). Here the poll is
answered before the table deals (the deal waits for it), and the browser gets the poll's
answer first, while the commit's (the next card) is still on its way.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import boardview, services
from games.models import Game
from tests.browser.pages import play_round, settle, sign_in
from tests.factories import UserFactory, play_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# In the page before its scripts: the answers of the first commit and of the first poll
# after it are held (their `load` not yet run) until the test lets them through.
HOLD = """
(() => {
  window.held = {};
  let armed = false;
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.limesUrl = String(url);
    return open.call(this, method, url, ...rest);
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    const kind = this.limesUrl.includes("/play/") ? "commit"
      : this.limesUrl.includes("/poll/") && armed ? "poll" : null;
    if (kind === "commit") armed = true;
    if (kind && !(kind in window.held)) {
      const xhr = this;
      const onload = xhr.onload;
      window.held[kind] = null;
      xhr.onload = function (event) {
        window.held[kind] = () => onload.call(xhr, event);
      };
    }
    return send.call(this, body);
  };
  window.release = (kind) => window.held[kind]();
})();
"""


def deal_after_a_poll(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, the table deals only once a page of it has been drawn since (or 10 s)."""
    drawn = threading.Event()
    draw, advance = boardview.game_page, services.lockstep_advance

    def drawing(*args: Any, **kwargs: Any) -> Any:
        drawn.set()
        return draw(*args, **kwargs)

    def advancing(**kwargs: Any) -> bool:
        drawn.clear()
        drawn.wait(10)
        return advance(**kwargs)

    # The name the poll view calls it by.
    monkeypatch.setattr("games.views.game_page", drawing)
    monkeypatch.setattr(services, "lockstep_advance", advancing)


def bens_commit_held(
    page: Any, base: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, Game, User]:
    """Ben plays the table's card last; the answers of his commit (the next card) and of the
    poll drawn before the deal are in, held. The version his page showed before, and Ana's
    game and Ana."""
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    _table, games = services.lockstep_create(
        users=[ana, ben], seed=42, diagonal=False, ferryman=False, round_seconds=120
    )
    by_user = {game.created_by_id: game for game in games}
    play_turn(by_user[ana.pk], ana)
    sign_in(page, base, "ben")
    page.goto(f"{base}/games/{by_user[ben.pk].pk}/")
    expect(page.locator("[data-testid=round]")).to_have_text("Round 1 of 16")
    before = int(page.locator("#live-table").get_attribute("data-version") or 0)
    deal_after_a_poll(monkeypatch)
    play_round(page, place_worker=False)
    page.wait_for_function("() => typeof window.held.commit === 'function'")
    page.wait_for_function("() => typeof window.held.poll === 'function'")
    return before, by_user[ana.pk], ana


def on_the_next_card(page: Any) -> None:
    # Its hand, its round, and the board and the clock of the same version.
    expect(page.locator("[data-testid=round]")).to_have_text("Round 2 of 16", timeout=8_000)
    expect(page.locator("[data-testid=hand]")).to_be_visible()
    settle(page)
    shown = page.locator("#board").get_attribute("data-version")
    assert shown == page.locator("#live-table").get_attribute("data-version")


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(HOLD)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_the_poll_answered_first_does_not_keep_the_last_player_on_the_old_card(
    phone: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, _game, _ana = bens_commit_held(phone, live_server.url, monkeypatch)
    phone.evaluate("window.release('poll')")
    # Its clock is in (its board too, unless the page keeps the board for the commit's).
    phone.wait_for_function(
        f"() => document.querySelector('#live-table').dataset.version > {before}"
        " && !document.querySelector('.htmx-swapping, .htmx-settling')"
    )
    phone.evaluate("window.release('commit')")
    on_the_next_card(phone)


def test_a_poll_answered_before_the_deal_never_takes_the_next_card_back(
    phone: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _before, ana_game, ana = bens_commit_held(phone, live_server.url, monkeypatch)
    phone.evaluate("window.release('commit')")
    on_the_next_card(phone)
    # The older answer comes last: swapped in now (synchronously), it would show the old
    # card's board again.
    phone.evaluate("window.release('poll')")
    assert phone.locator("[data-testid=round]").inner_text() == "Round 2 of 16"
    on_the_next_card(phone)
    # And the page goes on as before: Ben plays card 2 first, and Ana's deals him card 3.
    monkeypatch.undo()
    play_round(phone, place_worker=False)
    expect(phone.locator("[data-testid=waiting]")).to_be_visible()
    play_turn(ana_game, ana)
    expect(phone.locator("[data-testid=round]")).to_have_text("Round 3 of 16")
    expect(phone.locator("[data-testid=hand]")).to_be_visible()


# Issue #51: the player who commits first. Their commit's answer (drawn before the other
# player committed: "You have played this card") is held; meanwhile the other commits, the
# table deals, and the page's poll brings the new card's clock (its board is kept for the
# commit's answer).
HOLD_COMMIT = """
(() => {
  window.held = null;
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.limesCommit = String(url).includes("/play/");
    return open.call(this, method, url, ...rest);
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    if (this.limesCommit && window.held === null) {
      const xhr = this;
      const onload = xhr.onload;
      window.held = false;
      xhr.onload = function (event) {
        window.held = () => onload.call(xhr, event);
      };
    }
    return send.call(this, body);
  };
})();
"""


@pytest.fixture
def desktop(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(HOLD_COMMIT)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def anas_commit_held_while_ben_commits(page: Any, base: str) -> None:
    """Ana plays card 1 first; her commit's answer is in, held, when Ben's deals card 2 and
    her page's poll has brought card 2's clock."""
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    _table, games = services.lockstep_create(
        users=[ana, ben], seed=42, diagonal=False, ferryman=False, round_seconds=120
    )
    by_user = {game.created_by_id: game for game in games}
    sign_in(page, base, "ana")
    page.goto(f"{base}/games/{by_user[ana.pk].pk}/")
    expect(page.locator("[data-testid=round]")).to_have_text("Round 1 of 16")
    play_round(page, place_worker=False)
    page.wait_for_function("() => typeof window.held === 'function'")
    play_turn(by_user[ben.pk], ben)
    page.wait_for_function(
        "() => Number(document.querySelector('#live-table').dataset.version)"
        " > Number(document.querySelector('#board').dataset.version)"
    )


def test_the_first_player_gets_the_next_card_dealt_while_their_commit_was_answered(
    desktop: Any, live_server: Any
) -> None:
    anas_commit_held_while_ben_commits(desktop, live_server.url)
    desktop.evaluate("window.held()")
    # Not "You have played this card" until the clock takes her out of the deal.
    on_the_next_card(desktop)


def test_a_page_behind_its_table_asks_even_with_its_commit_unanswered(
    desktop: Any, live_server: Any
) -> None:
    anas_commit_held_while_ben_commits(desktop, live_server.url)
    # The commit's answer never comes: the page still asks for the card its table is on.
    on_the_next_card(desktop)
    # And the commit's answer, old news when it comes, does not take the card back.
    desktop.evaluate("window.held()")
    assert desktop.locator("[data-testid=round]").inner_text() == "Round 2 of 16"
    on_the_next_card(desktop)


# The stream's events reach a poller only while it listens, and one swapped in listens a
# moment later: an event in between is lost to it. Here no poller asks at all (as while the
# stream is open, when the timer's polls stand aside) and the stream is a stand-in, whose
# one event (the next card's version) reaches no poller.
NO_POLLS = """
document.addEventListener("htmx:confirm", (event) => {
  if (event.target instanceof Element && event.target.closest("[data-poll-fallback]")) {
    event.preventDefault();
  }
});
"""


def test_the_next_card_heard_from_the_stream_by_no_poller_is_asked_for(
    browser: Any, live_server: Any
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(NO_POLLS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.route("**/stream/**", lambda route: route.abort())
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    _table, games = services.lockstep_create(
        users=[ana, ben], seed=42, diagonal=False, ferryman=False, round_seconds=120
    )
    by_user = {game.created_by_id: game for game in games}
    sign_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/games/{by_user[ana.pk].pk}/")
    play_round(page, place_worker=False)
    expect(page.locator("[data-testid=waiting]")).to_be_visible()
    play_turn(by_user[ben.pk], ben)
    dealt = Game.objects.get(pk=by_user[ana.pk].pk).version
    page.evaluate(
        """(version) => {
          const source = new EventTarget();
          const stream = document.querySelector("#live-table").closest("[sse-connect]");
          const open = { bubbles: true, detail: { source } };
          stream.dispatchEvent(new CustomEvent("htmx:sseOpen", open));
          source.dispatchEvent(new MessageEvent("game", { data: JSON.stringify({ version }) }));
        }""",
        dealt,
    )
    on_the_next_card(page)
    context.close()


# The timer's polls wait until the test lets one through.
GATED_POLLS = """
window.pollsAllowed = false;
document.addEventListener("htmx:confirm", (event) => {
  const poller = event.target instanceof Element && event.target.closest("[data-poll-fallback]");
  if (poller && !window.pollsAllowed) event.preventDefault();
});
"""


def test_a_poll_answered_after_the_next_card_keeps_the_draft_begun_on_it(
    browser: Any, live_server: Any
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(HOLD)
    context.add_init_script(GATED_POLLS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    ana, ben = UserFactory(username="ana"), UserFactory(username="ben")
    _table, games = services.lockstep_create(
        users=[ana, ben], seed=42, diagonal=False, ferryman=False, round_seconds=120
    )
    by_user = {game.created_by_id: game for game in games}
    play_turn(by_user[ana.pk], ana)
    sign_in(page, live_server.url, "ben")
    page.goto(f"{live_server.url}/games/{by_user[ben.pk].pk}/")
    # Ben plays card 1 last: his commit's answer (card 2) is in, held; a poll sent before
    # it came is answered with card 2 too, and held.
    play_round(page, place_worker=False)
    page.wait_for_function("() => typeof window.held.commit === 'function'")
    page.evaluate(
        """() => {
          window.pollsAllowed = true;
          htmx.trigger(document.querySelector("#live-table [data-poll-fallback]"), "sse:game");
          window.pollsAllowed = false;
        }"""
    )
    page.wait_for_function("() => typeof window.held.poll === 'function'")
    page.evaluate("window.release('commit')")
    on_the_next_card(page)
    page.locator("[data-slot]").last.click()
    expect(page.locator(".card--draft")).to_have_count(1)
    # The poll's answer, the same card 2, comes while Ben drafts it: his draft stays.
    page.evaluate("window.release('poll')")
    settle(page)
    expect(page.locator(".card--draft")).to_have_count(1)
    expect(page.locator("[data-key=commit]")).to_be_enabled()
    context.close()
