"""What the computer players cost the site: a hint request, a bot's turn, an analysis, a par.

    DJANGO_SETTINGS_MODULE=limes_site.settings.test python benchmarks/bot_site_speed.py \
        [--games 8] [--par-days 1]

Run by hand, like ``web_speed.py`` (whose throwaway database and clocks it borrows):

- **hint (POST view)**: the htmx ``POST /games/<pk>/hint/`` through Django's test client,
  every round of ``--games`` solo games: the strong bot's turn plus drawing the board with
  it as the draft. This is what decides whether a hint may be computed in the request.
- **bot_turn** per level, alone, on the same positions: what a ``bots_play`` task spends
  per computer seat and round.
- **analysis**: ``games.analysis.assess_seat`` of each finished game (16 ``assess_turn``).
- **par**: ``computer.daily_par_compute`` for ``--par-days`` days with a search budget of
  ``--par-budget`` seconds (default 5, the production setting's default).

Times are median / p95 (nearest rank), in milliseconds unless marked.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import (  # noqa: E402
    in_throwaway_database,
    machine_busy_seconds,
    ms,
    stopwatch,
)

HTMX = {"HX-Request": "true"}


def run(games: int, par_days: int, par_budget: float) -> None:
    from django.conf import settings
    from django.test import Client
    from django.urls import reverse

    import rules
    import rules.bot
    from accounts.models import User
    from games import analysis, computer, rebuild, services, throttle
    from games.models import Game

    # This measures what a hint costs, not the limit on them (12 a minute, issue 21).
    throttle.HINTS_PER_WINDOW = 10**9
    user = User.objects.create_user("bench", password="bench-pw-123")
    client = Client()
    client.force_login(user)
    times: dict[str, list[float]] = defaultdict(list)
    start_wall, start_cpu, start_busy = (
        time.perf_counter(),
        time.process_time(),
        machine_busy_seconds(),
    )
    for number in range(games):
        variants = [(False, False), (True, False), (False, True), (True, True)][number % 4]
        game = services.game_create_solo(
            user=user, diagonal=variants[0], ferryman=variants[1], seed=500 + number
        )
        url = reverse("games:hint", kwargs={"pk": game.pk})
        for _round in range(16):
            with stopwatch(times["hint (POST view)"]):
                response = client.post(url, headers=HTMX)
            assert response.status_code == 200, response.content[:200]
            state = rebuild.rules_game(game)
            card = state.current_card
            assert card is not None
            board = state.boards[user.username]
            unseen = rebuild.unseen_cards(state)
            for level in rules.bot.BOT_LEVELS:
                with stopwatch(times[f"bot_turn {level}"]):
                    turn = rules.bot.bot_turn(
                        board, card, unseen=unseen, variants=state.variants, level=level
                    )
            game = services.move_submit(
                game_id=game.pk, user=user, round_number=state.round, turn=turn
            ).game
        game = Game.objects.get(pk=game.pk)
        seat = game.seats.get()
        with stopwatch(times["analysis (16 rounds)"]):
            analysis.assess_seat(game, list(seat.moves.all()))
    settings.LIMES_PAR_BUDGET = par_budget
    for offset in range(par_days):
        day = datetime.date(2026, 1, 1) + datetime.timedelta(days=offset)
        with stopwatch(times["par (s)"]):
            computer.daily_par_compute(day=day)
    wall = time.perf_counter() - start_wall
    cpu = time.process_time() - start_cpu
    others = machine_busy_seconds() - start_busy - cpu
    print(f"{games} solo games, 16 rounds each; par for {par_days} day(s)")
    print(f"{'what':<24} {'n':>5}  median / p95")
    for name, values in times.items():
        if name == "par (s)":
            shown = ms([v / 1000 for v in values]).replace(" / ", " s / ") + " s"
        else:
            shown = ms(values) + " ms"
        print(f"{name:<24} {len(values):>5}  {shown}")
    print(f"wall {wall:.1f} s, this process {cpu:.1f} s CPU, anything else {others:.1f} s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="solo games (default 8)")
    parser.add_argument("--par-days", type=int, default=1, help="days of par (default 1)")
    parser.add_argument("--par-budget", type=float, default=5.0, help="seconds (default 5)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.test")
    in_throwaway_database(lambda: run(args.games, args.par_days, args.par_budget))


if __name__ == "__main__":
    main()
