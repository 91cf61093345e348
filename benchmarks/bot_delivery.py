"""How soon a computer player's move reaches the page: commit sent → the bot's move pushed.

    scripts/serve                       # or scripts/cluster up
    python benchmarks/bot_delivery.py --port 8000 [--games 2] [--login demo:demo-limes]

Run by hand, against 127.0.0.1 only. Signs up a player (or signs in with ``--login``),
opens two-seat live games against one reference computer player and plays them with no
thinking time, holding the game's event stream as the page does. For each round where
the computer had not yet played when the player committed, it times the player's commit
(sent) to the arrival, on the stream, of the event of the computer's move: what the
player waits for before the next card, through the task worker (another process) and
the push. Prints p50, p95 and the worst.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from benchmarks.play_http import (
    FORM_TOKEN,
    GAME_PATH,
    Landscape,
    page_round,
    page_stream_path,
    page_version,
)
from benchmarks.sse_client import EventStream

PASSWORD = "bot-delivery-Pw-2917"


def form_token(session: requests.Session, url: str) -> str:
    match = FORM_TOKEN.search(session.get(url, timeout=30).text)
    assert match, f"no form on {url}"
    return match.group(1)


def sign_in(session: requests.Session, base: str, login: str | None) -> None:
    if login:
        name, password = login.split(":", 1)
        fields = {"login": name, "password": password}
        url = f"{base}/accounts/login/"
    else:
        name = f"botdelay{secrets.token_hex(3)}"
        fields = {
            "username": name,
            "email": f"{name}@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        url = f"{base}/accounts/signup/"
    fields["csrfmiddlewaretoken"] = form_token(session, url)
    answer = session.post(url, fields, headers={"Referer": url}, allow_redirects=False)
    assert answer.status_code == 302, f"signing in: {answer.status_code}"


def play(session: requests.Session, base: str, port: int) -> tuple[list[float], int]:
    """One game: the delays (s) of the rounds the computer played after the player."""
    lobby = f"{base}/lobby/"
    fields = {
        "csrfmiddlewaretoken": form_token(session, lobby),
        "seats_max": "2",
        "pace": "live",
        "live_seconds": "600",
        "correspondence_seconds": "86400",
        "bots": "1",
        "bot_level": "reference",
    }
    created = session.post(
        f"{base}/games/new/multi/", fields, headers={"Referer": lobby}, allow_redirects=False
    )
    match = GAME_PATH.search(created.headers.get("Location", ""))
    assert created.status_code == 302 and match, f"new game: {created.status_code}"
    path = f"/games/{match.group(1)}/"
    page = session.get(base + path, timeout=30).text
    stream_path = page_stream_path(page)
    assert stream_path is not None
    cookies = {cookie.name: cookie.value or "" for cookie in session.cookies}
    stream = EventStream(port, stream_path, cookies, timeout=30)
    landscape = Landscape(rules.Variants())
    delays: list[float] = []
    ahead = 0
    headers = {"HX-Request": "true", "X-CSRFToken": session.cookies.get("csrftoken") or ""}
    try:
        for round_number in range(1, rules.ROUNDS + 1):
            while (page_round(page) or (0, 0))[0] != round_number:
                page = session.get(base + path, timeout=30).text
            turn = landscape.next_turn(page, round_number)
            sent = time.monotonic()
            answer = session.post(
                f"{base}{path}play/", {"round": str(round_number), **turn}, headers=headers
            ).text
            version = page_version(answer)
            if page_round(answer) or version is None:
                ahead += 1  # the computer had played first: the commit closed the round
                page = answer
                continue
            event = stream.next_after(version)
            delays.append(event.received - sent)
            page = session.get(base + path, timeout=30).text
    finally:
        stream.close()
    return delays, ahead


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--login", default=None, help="name:password of an existing player")
    args = parser.parse_args()
    if not 0 < args.games <= 20:
        parser.error("--games must be between 1 and 20")
    base = f"http://127.0.0.1:{args.port}"
    session = requests.Session()
    sign_in(session, base, args.login)
    delays: list[float] = []
    ahead = 0
    for _ in range(args.games):
        more, first = play(session, base, args.port)
        delays += more
        ahead += first
    delays.sort()
    ms = [d * 1e3 for d in delays]
    print(
        f"{base}: {len(ms)} rounds where the computer played after the player "
        f"({ahead} where it had played first); commit sent → its move on the stream: "
        f"p50 {statistics.median(ms):.0f} ms, p95 {ms[max(0, int(len(ms) * 0.95) - 1)]:.0f} ms, "
        f"worst {ms[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
