"""Live tables in two browsers: does a present player ever stay on the old card? (issue #51)

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        python benchmarks/live_stall.py [--cards 500] [--seed 1] [--round-seconds 60]

Run by hand. On a throwaway database (as ``web_speed.py``) it serves the site with uvicorn
(ASGI, so the pages hear of each change through their event streams, as in production) on
a free loopback port, and opens two players in headless Chromium (``/usr/bin/chromium``):
one on a desktop window (1280 × 900), one on a 390 px phone. They play live tables of two
(``services.lockstep_create``, as a live tournament's deal) card after card: both draft
the card, one of them (drawn at random) commits, then the other after a random gap of
0–3 s. A card is measured from the last commit (the moment the page sends it, read in the
page) to the moment each page shows the next card with its hand (read in the page by a
mutation observer): a **stall** is a page not on the next card 2 s after the last commit.
The last card of a table ends its game and is not counted. It stops after ``--cards``
cards (rounded up to a whole table); a page stuck for 60 s ends the run.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import in_throwaway_database, percentile  # noqa: E402

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STALL_MS = 2000
GIVE_UP_MS = 60_000

# In each page before its scripts: when it sent a commit, and when each round was first
# shown with its hand (both in the machine's clock, as Python's time.time()).
WATCH = """
(() => {
  window.limes = { committed: null, shown: {}, errors: [] };
  window.addEventListener("error", (event) => window.limes.errors.push(String(event.message)));
  document.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    if (elt instanceof Element && elt.matches("form.commit-form")) {
      window.limes.committed = Date.now();
    }
  });
  const look = () => {
    const round = document.querySelector("[data-testid=round]");
    if (!round || !document.querySelector("[data-testid=hand]")) return;
    const number = Number((round.textContent.match(/\\d+/) || [0])[0]);
    if (number && !(number in window.limes.shown)) window.limes.shown[number] = Date.now();
  };
  const watched = { subtree: true, childList: true, characterData: true };
  new MutationObserver(look).observe(document, watched);
})();
"""


# What a stuck page shows, for the report.
STATE = """() => ({
  round: document.querySelector("[data-testid=round]")?.textContent,
  waiting: Boolean(document.querySelector("[data-testid=waiting]")),
  board: document.querySelector("#board")?.dataset.version,
  table: document.querySelector("#live-table")?.dataset.version,
  poller: document.querySelector("#live-table [data-poll-fallback]")?.getAttribute("hx-get"),
  busy: [...document.querySelectorAll(".htmx-request, .htmx-swapping, .htmx-settling")]
    .map((element) => element.outerHTML.slice(0, 120)),
  errors: window.limes.errors,
})"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(port: int) -> subprocess.Popen[bytes]:
    """uvicorn on this run's database, started here and stopped by the caller."""
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "uvicorn", "limes_site.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(port)),
            *("--log-level", "warning", "--timeout-graceful-shutdown", "1"),
        ],
        cwd=ROOT,
        env={**os.environ, "DJANGO_ALLOW_ASYNC_UNSAFE": ""},
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("uvicorn did not start")


def session_for(user: Any) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def on_round(page: Any, number: int) -> None:
    page.wait_for_function(
        """(n) => window.limes && window.limes.shown[n] && document.readyState === "complete"
          && !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")""",
        arg=number,
        timeout=GIVE_UP_MS,
    )


def open_game(page: Any, url: str) -> None:
    """Go to a game, once the last game's page has done reloading (its end reloads it)."""
    from playwright.sync_api import Error as PlaywrightError

    for _attempt in range(5):
        try:
            page.goto(url)
            return
        except PlaywrightError:
            time.sleep(1)
    page.goto(url)


def commit(page: Any, where: str, lost: list[str]) -> None:
    """Commit the draft; one wiped meanwhile (Commit disabled) is noted and drafted again."""
    button = page.locator("[data-key=commit]")
    if button.is_disabled():
        lost.append(f"{where}: draft wiped: {page.evaluate(STATE)}")
        draft(page)
    button.click()


def draft(page: Any) -> str | None:
    """The card on the last slot, drawn in the page (no request); if the click was lost,
    what the page showed (and the card is placed with a second click)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.locator("[data-slot]").last.click()
    try:
        page.locator(".card--draft").first.wait_for(timeout=5000)
    except PlaywrightTimeout:
        lost = str(page.evaluate(STATE))
        page.locator("[data-slot]").last.click()
        page.locator(".card--draft").first.wait_for()
        return lost
    return None


def run(cards: int, seed: int, round_seconds: int) -> None:
    from django.conf import settings
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    import rules
    from accounts.models import User
    from games import services
    from games.models import Game

    rng = random.Random(seed)
    users = [User.objects.create_user(username=name, password=None) for name in ("desk", "phone")]
    sessions = [session_for(user) for user in users]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(port)
    # The ORM calls made here, beside Playwright's event loop, are synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    delays: dict[str, list[float]] = {"desktop": [], "phone": []}
    gaps: list[float] = []
    stalls: list[str] = []
    played = 0
    stuck = False
    lost: list[str] = []
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            pages = {}
            names = ["desktop", "phone"]
            for (name, viewport), session in zip(
                [("desktop", (1280, 900)), ("phone", (390, 844))], sessions, strict=True
            ):
                context = browser.new_context(
                    viewport={"width": viewport[0], "height": viewport[1]},
                    has_touch=name == "phone",
                )
                context.add_cookies(
                    [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
                )
                context.add_init_script(WATCH)
                pages[name] = context.new_page()
            table_number = 0
            while played < cards and not stuck:
                table_number += 1
                _table, games = services.lockstep_create(
                    users=users,
                    seed=seed * 1000 + table_number,
                    diagonal=False,
                    ferryman=False,
                    round_seconds=round_seconds,
                )
                by_user = {game.created_by_id: game for game in games}
                for name, user in zip(pages, users, strict=True):
                    open_game(pages[name], f"{base}/games/{by_user[user.pk].pk}/")
                for number in range(1, rules.ROUNDS + 1):
                    for name, page in pages.items():
                        on_round(page, number)
                        missed = draft(page)
                        if missed:
                            where = f"table {table_number}, card {number}"
                            lost.append(f"{name}: {where}: click lost: {missed}")
                    first, second = rng.sample(list(pages), 2)
                    gap = rng.uniform(0, 3)
                    commit(pages[first], f"{first}: table {table_number}, card {number}", lost)
                    time.sleep(gap)
                    commit(pages[second], f"{second}: table {table_number}, card {number}", lost)
                    if number == rules.ROUNDS:
                        break
                    committed = [p.evaluate("window.limes.committed") for p in pages.values()]
                    last = max(committed)
                    gaps.append((max(committed) - min(committed)) / 1000)
                    for name, page in pages.items():
                        try:
                            on_round(page, number + 1)
                        except PlaywrightTimeout:
                            game = Game.objects.get(pk=by_user[users[names.index(name)].pk].pk)
                            stalls.append(
                                f"{name}: table {table_number}, card {number}, stuck: "
                                f"{page.evaluate(STATE)}; its game: version {game.version}, "
                                f"round {game.round}, {game.status}"
                            )
                            stuck = True
                            break
                        shown = page.evaluate(f"window.limes.shown[{number + 1}]")
                        delay = shown - last
                        delays[name].append(delay)
                        if delay > STALL_MS:
                            stalls.append(
                                f"{name}: table {table_number}, card {number}, {delay:.0f} ms"
                                f" ({'first' if name == first else 'last'} to commit)"
                            )
                    if stuck:
                        break
                    played += 1
                    print(
                        f"table {table_number} card {number}: {first} first, gap {gap:.2f} s, "
                        + ", ".join(f"{n} {v[-1]:.0f} ms" for n, v in delays.items()),
                        file=sys.stderr,
                        flush=True,
                    )
                for page in pages.values():
                    if stuck:
                        break
                    page.wait_for_selector("[data-testid=final-result], .final", timeout=GIVE_UP_MS)
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    minutes = (time.monotonic() - started) / 60
    print(
        f"Limes Online live stall — {played} cards in {table_number} live tables of two "
        f"(desktop 1280 px and phone 390 px, headless Chromium, uvicorn with event streams), "
        f"{minutes:.1f} min; gaps between the two commits {min(gaps):.2f}–{max(gaps):.2f} s "
        f"(median {statistics.median(gaps):.2f} s)"
    )
    limit = f"{STALL_MS / 1000:.0f} s"
    print(f"stalls (a page not on the next card {limit} after the last commit): {len(stalls)}")
    for stall in stalls:
        print(f"  {stall}")
    print(f"drafts lost (a click that drew nothing, a draft wiped; drafted again): {len(lost)}")
    for line in lost:
        print(f"  {line}")
    print()
    print("| screen | cards | last commit → next card: median | p95 | max |")
    print("|---|---:|---:|---:|---:|")
    for name, values in delays.items():
        print(
            f"| {name} | {len(values)} | {statistics.median(values):.0f} ms "
            f"| {percentile(values, 0.95):.0f} ms | {max(values):.0f} ms |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=500, help="cards to measure (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="gaps, orders and deals (default 1)")
    parser.add_argument("--round-seconds", type=int, default=60, help="each card's clock")
    args = parser.parse_args()
    in_throwaway_database(lambda: run(args.cards, args.seed, args.round_seconds))


if __name__ == "__main__":
    main()
