"""How fast the board draws a draft step in Chromium, with no request (issue #42).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \
        python benchmarks/draft_speed.py [--steps 100] [--rounds 1,8,14]

Run by hand. On a throwaway database (as ``web_speed.py``) it deals a solo game (both
variants, a fixed seed), plays it with the reference player up to each round named, serves
the site from this process (Django's live server) and opens the game in headless Chromium
(``/usr/bin/chromium``, as the browser tests). There it takes ``--steps`` draft steps: a
turn of the card, a slot, a worker zone, in a fixed cycle over what the board offers, and
times each in the page with ``performance.now()``: the draw (the click until the board is
redrawn, synchronously, focus and scrolling included) and the click until the next frame
is drawn (its animation frame callbacks, then a task queued from them: the draft is on
screen). At 60 frames a second a frame is 16.7 ms; waiting for the next one takes up to
that long whatever the draw costs. It also counts the requests the page made meanwhile
(none expected).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import in_throwaway_database, percentile  # noqa: E402

STEPS = """async (steps) => {
  const draws = [], frames = [];
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  for (let i = 0; i < steps; i += 1) {
    const board = document.getElementById("board");
    const kinds = [
      '[data-key="rotate"]', "a.slot", 'a.zone[data-role="place"], a.zone[data-role="source"]',
      '[data-key="rotate-left"]', 'a.zone[data-role="target"], a.zone[data-role="selected"]',
      "a.slot",
    ];
    let element = null;
    for (let k = 0; k < kinds.length && !element; k += 1) {
      const found = board.querySelectorAll(kinds[(i + k) % kinds.length]);
      if (found.length) element = found[(i * 7) % found.length];
    }
    await frame();
    const start = performance.now();
    element.click();
    draws.push(performance.now() - start);
    // The next frame's callbacks run before its layout and paint; a task queued from them
    // runs once that frame is drawn.
    await frame();
    await new Promise((resolve) => setTimeout(resolve, 0));
    frames.push(performance.now() - start);
  }
  return { draws, frames };
}"""


def run(steps: int, rounds: list[int]) -> None:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread
    from playwright.sync_api import sync_playwright

    import rules
    from accounts.models import User
    from games import rebuild, services

    user = User.objects.create_user(username="bench", password=None)
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    server = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://127.0.0.1:{server.port}"
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    print(
        f"Limes Online draft speed — headless Chromium, {steps} draft steps a round, a solo "
        "game of both variants (seed 42); ms per step in the page: draw = click until the "
        "board is redrawn, frame = click until the next frame is drawn."
    )
    print()
    print(
        "| round | data KB | requests | draw: median / p95 / worst | frame: median / p95 / worst |"
    )
    print("|---:|---:|---:|---:|---:|")
    game = services.game_create_solo(user=user, diagonal=True, ferryman=True, seed=42)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": str(store.session_key), "url": base}]
        )
        page = context.new_page()
        sent: list[str] = []
        page.on("request", lambda request: sent.append(request.url))
        for wanted in rounds:
            while True:
                state = rebuild.rules_game(game)
                if state.round >= wanted or game.is_finished:
                    break
                card = state.current_card
                assert card is not None
                turn = rules.reference_turn(state.boards["bench"], card, state.variants)
                game = services.move_submit(
                    game_id=game.pk, user=user, round_number=state.round, turn=turn
                ).game
            page.goto(f"{base}/games/{game.pk}/")
            page.wait_for_load_state("networkidle")
            size = len(page.locator("#draft-data").text_content() or "")
            sent.clear()
            found = page.evaluate(STEPS, steps)
            requests = len([url for url in sent if "favicon" not in url and "/stream/" not in url])
            draws, frames = found["draws"], found["frames"]
            print(
                f"| {wanted} | {size / 1024:.1f} | {requests} "
                f"| {spread(draws)} | {spread(frames)} |"
            )
        browser.close()
    server.terminate()


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} / {percentile(values, 0.95):.2f} / {max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--rounds", default="1,8,14", help="rounds to measure, rising")
    args = parser.parse_args()
    rounds = sorted(int(r) for r in args.rounds.split(","))
    in_throwaway_database(lambda: run(args.steps, rounds))


if __name__ == "__main__":
    main()
