"""/api/v1/tournaments/: tournaments as their pages show them (Django Ninja router, mounted
in ``api.v1``). Per-deal results and sums of scores only once the window is over; until
then the provisional standings count, for the token's player, only the deals that player
has finished, as on the page (``selectors.running_standings``); banned players' lines
never."""

from __future__ import annotations

import datetime
from typing import Annotated

from django.http import HttpRequest
from ninja import Router
from ninja.errors import HttpError
from ninja.params import functions as params

from accounts.models import User
from api.auth import viewer
from api.schemas import Error, Schema
from leaderboards.selectors import hidden_players
from tournaments import selectors
from tournaments.models import Tournament

router = Router(tags=["tournaments"])

# A standings page: 1 and up; past the last entrant a page is empty.
StandingsPage = Annotated[int, params.Query(1, ge=1, le=10_000, description="50 rows a page")]


class TournamentOut(Schema):
    id: int
    name: str
    ruleset: str
    format: str
    # A live tournament's clock: seconds everyone has for each card (else null).
    round_seconds: int | None
    entry: str
    deals: int
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    over: bool


class StandingOut(Schema):
    rank: int
    player: str
    # While it runs: only the deals the token's player has finished (none for a visitor).
    total: float
    # Deals finished in time.
    played: int
    # Once the tournament is over (until then: null).
    score_sum: int | None
    # Per deal, once the tournament is over (until then: null).
    percents: list[float | None] | None
    scores: list[int | None] | None


class TournamentDetail(TournamentOut):
    page: int
    has_next: bool
    standings: list[StandingOut]


def _out(tournament: Tournament) -> dict[str, object]:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "ruleset": tournament.ruleset,
        "format": tournament.format,
        "round_seconds": tournament.round_seconds,
        "entry": tournament.entry,
        "deals": tournament.deal_count,
        "starts_at": tournament.starts_at,
        "ends_at": tournament.ends_at,
        "over": tournament.is_over,
    }


@router.get("/", response=list[TournamentOut], url_name="tournaments")
def tournaments(request: HttpRequest) -> list[dict[str, object]]:
    """Running and upcoming tournaments, then the latest 30 past ones."""
    viewer(request)
    current = list(selectors.current_tournaments())
    past = [tournament for tournament, _winner in selectors.past_tournaments()]
    return [_out(tournament) for tournament in current + past]


@router.get(
    "/{int:tournament_id}/",
    response={200: TournamentDetail, 404: Error},
    url_name="tournament",
)
def tournament(
    request: HttpRequest, tournament_id: int, page: StandingsPage = 1
) -> dict[str, object]:
    """A tournament and a page of its standings (banned players left out)."""
    asking = viewer(request)
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise HttpError(404, "No such tournament.")
    hidden = set(hidden_players().values_list("pk", flat=True))
    size = selectors.STANDINGS_PAGE
    if found.is_over:
        final = [row for row in selectors.standings(found) if row.user_id not in hidden]
        lines = [
            {
                "rank": row.rank,
                "player": row.username,
                "total": row.total,
                "played": sum(1 for score in row.scores if score is not None),
                "score_sum": row.score_sum,
                "percents": list(row.percents),
                "scores": list(row.scores),
            }
            for row in final[(page - 1) * size : page * size]
        ]
        count = len(final)
    else:
        # A sealed deal's result shows to nobody who has not played it: not in a total, a
        # place or a sum of scores (``selectors.running_standings``).
        user = asking if isinstance(asking, User) else None
        seen = selectors.seen_deals(found, user)
        running = [
            row
            for row in selectors.running_standings(found, seen).rows
            if row.user_id not in hidden
        ]
        lines = [
            {
                "rank": row.rank,
                "player": row.username,
                "total": row.total,
                "played": row.played,
                "score_sum": None,
                "percents": None,
                "scores": None,
            }
            for row in running[(page - 1) * size : page * size]
        ]
        count = len(running)
    return {**_out(found), "page": page, "has_next": count > page * size, "standings": lines}
