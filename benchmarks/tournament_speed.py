"""A tournament's standings page at size, and what one deal's finish costs the standings.

    createdb -h 127.0.0.1 -U postgres limes_tournament_bench
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/limes_tournament_bench \
        python benchmarks/tournament_speed.py [--entrants 1000] [--deals 8] [--repeat 40]

Migrates the scratch database, then fills it once with a running tournament of
``--entrants`` entrants who each finished every one of ``--deals`` deals (rows written in
bulk, as the finishes would have left them: games, seats, solo results, player results and
the deals' tables of scores). Then, through Django's test client in this process (the
server's own time: middleware, view, queries, template):

- the standings page, warm (standings cached under the tournament's version) and cold
  (the version bumped before each request, so each one recomputes them), anonymous and
  signed in as an entrant;
- one deal's finish: the writes a finish adds for duplicate scoring and the standings
  (the deal's table of scores, and the tournament's version), timed on their own;
- what that finish's request then counts after its commit, while the tournament runs
  (``services._standings_warm``): the new standings counted from the previous version's
  cached ones (one deal's percentages, a re-sort), against counting them in full (every
  entrant's results read again), both with storing them in the cache.

Times are median / 95th percentile (nearest rank) in milliseconds.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments.models import Tournament

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_speed import (  # noqa: E402
    django_on_postgres,
    machine_busy_seconds,
    percentile,
    timed_gets,
)

GOAL_MS = 50.0
NAME = "Benchmark cup"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    django_on_postgres("Set DATABASE_URL to a scratch PostgreSQL database.")

    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournaments.models import Tournament

    call_command("migrate", verbosity=0)
    tournament = Tournament.objects.filter(name=NAME).first()
    if tournament is None:
        tournament = _fill(args.entrants, args.deals)
    url = reverse("tournaments:detail", args=[tournament.pk])
    entrant = tournament.entrants.select_related("user").order_by("pk")[args.entrants // 2].user
    anonymous, signed_in = Client(), Client()
    signed_in.force_login(entrant)

    def bump() -> None:
        Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version + 1)
        tournament.version += 1

    busy_before, own_before = machine_busy_seconds(), time.process_time()
    print(f"{args.entrants:,} entrants x {args.deals} deals")
    print(f"{'page':<44} queries  median / p95 ms")
    for label, client, cold, page in (
        # The same machine's time for an existing page, to read the others against.
        ("reference: /daily/, signed in", signed_in, False, reverse("leaderboards:daily")),
        ("standings, anonymous, warm", anonymous, False, url),
        ("standings, entrant, warm", signed_in, False, url),
        ("standings, anonymous, cold (recomputed)", anonymous, True, url),
        ("standings, entrant, cold (recomputed)", signed_in, True, url),
    ):
        for _ in range(2):
            client.get(page)
        times, _cpu, queries, response = timed_gets(
            client, page, args.repeat, bump if cold else None
        )
        assert response.status_code == 200
        p95 = percentile(times, 0.95)
        verdict = "ok" if p95 <= GOAL_MS else "OVER"
        print(
            f"{label:<44} {queries:>7}  {statistics.median(times):6.2f} / {p95:6.2f}"
            f"  {verdict} (goal p95 <= {GOAL_MS:.0f})"
        )

    from games.models import Game
    from leaderboards.services import _deal_scores_change
    from tournaments.services import game_finished

    deal = tournament.deals.get(number=1)
    game = Game.objects.get(pk=deal.plays.values_list("game_id", flat=True)[0])
    seats = list(game.seats.all())
    times, queries = [], 0
    for i in range(args.repeat):
        with transaction.atomic():
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                # What a finish adds for these: its deal's table, then its play and the
                # tournament's version (leaderboards' and tournaments' receivers).
                _deal_scores_change(Counter({(deal.deal_id, 40 + i % 20): 1}))
                game_finished(game=game, seats=seats)
                times.append(time.perf_counter() - start)
            queries = len(captured.captured_queries)
            transaction.set_rollback(True)
    print(
        f"{'one finish: deal table, play, version':<44} {queries:>7}  "
        f"{statistics.median(times) * 1e3:6.2f} / {percentile(times, 0.95) * 1e3:6.2f}"
    )
    _finish_counts(tournament, args.repeat)
    busy = machine_busy_seconds() - busy_before
    own = time.process_time() - own_before
    print(f"CPU: this run {own:.1f} s, the whole machine {busy:.1f} s meanwhile")


def _finish_counts(tournament: Tournament, repeat: int) -> None:
    """Time what one finish's request counts after its commit (``services._standings_warm``):
    the standings counted from the previous version's cached ones, and in full."""
    import copy

    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from tournaments import selectors
    from tournaments.models import Play

    plays = Play.objects.filter(tournament=tournament, deal__number=tournament.deal_count)
    play = plays.order_by("pk")[plays.count() // 2]
    assert play.score is not None
    finish = selectors.Finish(
        entrant_id=play.entrant_id,
        deal_id=play.deal_id,
        score=play.score,
        finished_at=play.finished_at,
    )
    # Versions no real change reaches: each repeat's are cached afresh.
    counted_at, full_at = copy.copy(tournament), copy.copy(tournament)
    times: dict[str, list[float]] = {"counted": [], "full": []}
    queries: dict[str, int] = {}

    def timed(kind: str, at: Tournament) -> list[selectors.StandingRow]:
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            rows = selectors.standings_after(at, finish)
            times[kind].append(time.perf_counter() - start)
        queries[kind] = len(captured.captured_queries)
        return rows

    with transaction.atomic():
        for i in range(repeat):
            # The standings of the version before the finish, cached as a page left them.
            Play.objects.filter(pk=play.pk).update(score=None, finished_at=None)
            counted_at.version = 10**8 + 2 * i
            selectors.standings(counted_at)
            Play.objects.filter(pk=play.pk).update(score=play.score, finished_at=play.finished_at)
            counted_at.version += 1
            counted = timed("counted", counted_at)
            # The version before never cached: counted in full, as before #25's change.
            full_at.version = 2 * 10**8 + 2 * i + 1
            assert counted == timed("full", full_at)
        transaction.set_rollback(True)
    for label, kind in (
        ("after a finish: counted from cached standings", "counted"),
        ("after a finish: counted in full", "full"),
    ):
        median, p95 = statistics.median(times[kind]), percentile(times[kind], 0.95)
        print(f"{label:<44} {queries[kind]:>7}  {median * 1e3:6.2f} / {p95 * 1e3:6.2f}")


def _fill(entrants: int, deals: int) -> Tournament:
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game, Seat, SoloResult
    from leaderboards.models import PlayerResult
    from leaderboards.services import duplicate_rebuild
    from tournaments.models import Entrant, Play
    from tournaments.services import tournament_create

    rng = random.Random(25)
    now = timezone.now()
    started = now - datetime.timedelta(days=1)
    with transaction.atomic():
        tournament = tournament_create(
            name=NAME,
            ruleset="standard",
            deal_count=deals,
            starts_at=started,
            ends_at=now + datetime.timedelta(days=6),
        )
        password = make_password(None)
        users = User.objects.bulk_create(
            User(username=f"bench-entrant-{i}", email="", password=password)
            for i in range(entrants)
        )
        entries = Entrant.objects.bulk_create(
            Entrant(tournament=tournament, user=user, joined_at=started) for user in users
        )
        deal_rows = list(tournament.deals.order_by("number"))
        games, seats_of = [], []
        for entry in entries:
            for deal in deal_rows:
                at = started + datetime.timedelta(seconds=rng.randrange(80000))
                games.append(
                    Game(
                        seed=deal.deal.seed,
                        cards=[],
                        status=Game.Status.FINISHED,
                        round=17,
                        created_by_id=entry.user_id,
                        started_at=started,
                        finished_at=at,
                        sealed_until=tournament.ends_at,
                    )
                )
                seats_of.append((entry, deal, rng.randrange(25, 70), at))
        games = Game.objects.bulk_create(games, batch_size=2000)
        seats = Seat.objects.bulk_create(
            (
                Seat(game=game, user_id=entry.user_id, score=score, place=1, rounds_played=16)
                for game, (entry, _deal, score, _at) in zip(games, seats_of, strict=True)
            ),
            batch_size=2000,
        )
        SoloResult.objects.bulk_create(
            (
                SoloResult(
                    game=game,
                    user_id=entry.user_id,
                    ruleset="standard",
                    score=score,
                    rating="good",
                    finished_at=at,
                )
                for game, (entry, _deal, score, at) in zip(games, seats_of, strict=True)
            ),
            batch_size=2000,
        )
        PlayerResult.objects.bulk_create(
            (
                PlayerResult(
                    seat=seat,
                    game=game,
                    user_id=entry.user_id,
                    mode="solo",
                    ruleset="standard",
                    score=score,
                    finished_at=at,
                    deal_id=deal.deal_id,
                )
                for seat, game, (entry, deal, score, at) in zip(seats, games, seats_of, strict=True)
            ),
            batch_size=2000,
        )
        Play.objects.bulk_create(
            (
                Play(
                    tournament=tournament,
                    entrant=entry,
                    deal=deal,
                    game=game,
                    score=score,
                    finished_at=at,
                )
                for game, (entry, deal, score, at) in zip(games, seats_of, strict=True)
            ),
            batch_size=2000,
        )
        duplicate_rebuild()
    return tournament


if __name__ == "__main__":
    main()
