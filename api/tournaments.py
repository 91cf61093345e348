"""/api/v1/tournaments/: tournaments as their pages show them to a visitor (Django Ninja
router, mounted in ``api.v1``). Per-deal results only once the window is over, as on the
page; banned players' lines never."""

from __future__ import annotations

import datetime
from typing import Annotated

from django.http import HttpRequest
from ninja import Router
from ninja.errors import HttpError
from ninja.params import functions as params

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
    total: float
    score_sum: int
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
    viewer(request)
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise HttpError(404, "No such tournament.")
    hidden = set(hidden_players().values_list("pk", flat=True))
    rows = [row for row in selectors.standings(found) if row.user_id not in hidden]
    size = selectors.STANDINGS_PAGE
    shown = rows[(page - 1) * size : page * size]
    over = found.is_over
    return {
        **_out(found),
        "page": page,
        "has_next": len(rows) > page * size,
        "standings": [
            {
                "rank": row.rank,
                "player": row.username,
                "total": row.total,
                "score_sum": row.score_sum,
                "percents": list(row.percents) if over else None,
                "scores": list(row.scores) if over else None,
            }
            for row in shown
        ],
    }
