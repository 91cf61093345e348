"""/api/v1/: the public read API (Django Ninja). Thin: read the request, call a selector,
shape the answer with ``api.schemas``. What may be shown is decided in ``api.selectors``.

Identity comes only from a personal token (``Authorization: Bearer limes_…``), never from
the site's session cookie: the API is open to every origin (CORS, ``api.middleware``), so a
page elsewhere must never read a signed-in visitor's private data through it.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterator
from typing import Annotated, Any

from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.urls import reverse
from ninja import NinjaAPI, Swagger
from ninja.errors import HttpError
from ninja.openapi.schema import OpenAPISchema
from ninja.params import functions as params

from accounts.models import User
from api import limits, selectors
from api.auth import token_auth
from api.auth import viewer as _viewer
from api.schemas import (
    AccountOut,
    BoardInfo,
    BoardOut,
    BoardRowOut,
    DailyOut,
    Error,
    GameOut,
    GamePage,
    Index,
    Links,
    ModeOut,
    ParOut,
    PlayerOut,
    RatingOut,
    StatisticsOut,
)
from api.tournaments import router as tournaments_router
from core.ids import MAX_ID
from core.links import Link
from games import selectors as game_selectors
from games.daily import today
from games.models import Game, Ruleset
from leaderboards import selectors as boards
from leaderboards.rating import display_rating

DESCRIPTION = """\
Limes Online's games, players, leaderboards and daily challenges, read-only, as JSON.

Anyone may read what a visitor of the site sees. A personal token (made on the settings
page, sent as `Authorization: Bearer limes_…`) also opens its owner's own games, in play
included, as NDJSON. Requests are limited per address and per token: past the limit the
answer is 429 with a `Retry-After` header. See docs/api.md.
"""


_ERROR_BODY = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds until the window ends.",
        "schema": {"type": "integer", "minimum": 1},
        "required": True,
    }
}
# Answers any operation may give, besides those it declares: a parameter Ninja refuses
# (its own body: a list of what is wrong), a token that opens nothing (``_viewer``), and the
# rate limits (``api.middleware``). A 404 where a path parameter names what may not exist.
_COMMON_ANSWERS: dict[int, dict[str, Any]] = {
    401: {"description": "The token is not valid.", "content": _ERROR_BODY},
    422: {
        "description": "A parameter is not valid: what is wrong, field by field.",
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {"detail": {"type": "array", "items": {"type": "object"}}},
                    "required": ["detail"],
                }
            }
        },
    },
    429: {
        "description": "Too many requests this minute: wait for Retry-After.",
        "headers": _RETRY_AFTER,
        "content": _ERROR_BODY,
    },
}
_NOT_FOUND = {"description": "Not found.", "content": _ERROR_BODY}


class _Api(NinjaAPI):
    """Ninja, with every answer an operation may give in its schema (not only its own)."""

    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None
    ) -> OpenAPISchema:
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        schema["components"].setdefault("schemas", {}).setdefault(
            "Error", Error.model_json_schema()
        )
        for path, operations in schema["paths"].items():
            for operation in operations.values():
                answers = operation["responses"]
                extra = dict(_COMMON_ANSWERS)
                if "{" in path:
                    extra[404] = _NOT_FOUND
                for status, answer in extra.items():
                    # openapi_extra's keys are strings, Ninja's ints: one of each, never both.
                    key = str(status) if str(status) in answers else status
                    answers[key] = {**answer, **answers.get(key, {})}
        return schema


api = _Api(
    title="Limes Online API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    # No deep links: Swagger UI draws each as a link inside the operation's button, which a
    # screen reader cannot reach (axe: nested-interactive).
    docs=Swagger(settings={"deepLinking": False}),
)


class _Urls:
    """Absolute URLs for many objects, from one ``reverse()`` per route (``core.links``)."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request
        self._links: dict[str, Link] = {}

    def of(self, name: str, pk: int) -> str:
        link = self._links.get(name)
        if link is None:
            link = self._links[name] = Link(name, build=self.request.build_absolute_uri)
        return link(pk)

    def absolute(self, name: str, *args: Any) -> str:
        return self.request.build_absolute_uri(reverse(name, args=args))


def _summary_fields(game: selectors.GameRow, urls: _Urls) -> dict[str, Any]:
    finished = game.is_finished
    return {
        "id": game.id,
        "mode": game.mode,
        "status": game.status,
        "ruleset": game.ruleset,
        "variants": [
            name for name, on in (("diagonal", game.diagonal), ("ferryman", game.ferryman)) if on
        ],
        "daily": game.daily,
        "round": game.round,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "players": game.seats,
        "links": {
            "api": urls.of("api-v1:game", game.id),
            "page": urls.of("games:detail", game.id),
            "replay": urls.of("games:replay", game.id) if finished else None,
            "embed": urls.of("api:embed", game.id) if finished else None,
            "landscape_svg": urls.of("api:landscape", game.id) if finished else None,
        },
    }


def _game_page(page: selectors.Page, urls: _Urls) -> dict[str, Any]:
    # Plain values: Ninja validates them against GamePage once, on the way out.
    return {
        "page": page.page,
        "has_next": page.has_next,
        "games": [_summary_fields(game, urls) for game in page.games],
    }


# -- the index ---------------------------------------------------------------------------


@api.get("/", response=Index, url_name="index", summary="What this API offers")
def index(request: HttpRequest) -> Index:
    _viewer(request)
    urls = _Urls(request)
    return Index(
        version="1",
        openapi=urls.absolute("api-v1:openapi-json"),
        docs=urls.absolute("api-v1:openapi-view"),
        endpoints={
            "games": urls.absolute("api-v1:games"),
            "leaderboards": urls.absolute("api-v1:leaderboards"),
            "daily": urls.absolute("api-v1:daily_today"),
            "tournaments": urls.absolute("api-v1:tournaments"),
            "account": urls.absolute("api-v1:account"),
            "account_games": urls.absolute("api-v1:account_games"),
        },
    )


# -- games ---------------------------------------------------------------------------------

# A page number: 1 and up, to the last a list answers; anything else is a 422.
GamesPage = Annotated[
    int, params.Query(1, ge=1, le=selectors.GAMES_MAX_PAGE, description="1: the newest games")
]
BoardPage = Annotated[int, params.Query(1, ge=1, le=boards.MAX_PAGE, description="50 rows a page")]


@api.get("/games/", response=GamePage, url_name="games", tags=["games"])
def games(request: HttpRequest, page: GamesPage = 1) -> dict[str, Any]:
    """The newest finished public games (by id), 50 a page, up to page 100."""
    _viewer(request)
    return _game_page(selectors.recent_games(page=page), _Urls(request))


@api.get(
    "/games/{int:game_id}/",
    response={200: GameOut, 404: Error},
    url_name="game",
    tags=["games"],
)
def game(request: HttpRequest, game_id: int) -> GameOut:
    """A game: its summary and its ``limes-game/1`` record, as far as its board shows it.

    A game in play is shown to its players (with their token) and, if it is in the lobby,
    to signed-in players; a multiplayer record in play stops at its last complete round.
    """
    found = selectors.visible_game(game_id, _viewer(request))
    if found is None:
        raise HttpError(404, "No such game.")
    shown, _seat = found
    return GameOut(
        **_summary_fields(selectors.game_row(shown), _Urls(request)),
        record=selectors.game_record(shown),
    )


# -- players -------------------------------------------------------------------------------


def _player_or_404(username: str) -> User:
    player = selectors.public_player(username)
    if player is None:
        raise HttpError(404, "No such player.")
    return player


@api.get(
    "/players/{name:username}/",
    response={200: PlayerOut, 404: Error},
    url_name="player",
    tags=["players"],
)
def player(request: HttpRequest, username: str) -> PlayerOut:
    """A player's public profile and statistics (hidden results never count)."""
    _viewer(request)
    shown = _player_or_404(username)
    stats = boards.player_statistics(shown)
    return PlayerOut(
        username=shown.username,
        bio=shown.bio,
        statistics=StatisticsOut(
            games_played=stats.games_played,
            games_finished=stats.games_finished,
            best_solo=stats.best_solo,
            average_solo=stats.average_solo,
            per_mode=[
                ModeOut(
                    mode=m.mode, ruleset=m.ruleset, games=m.games, best=m.best, average=m.average
                )
                for m in stats.per_mode
            ],
            ratings=[
                RatingOut(
                    ruleset=r.ruleset,
                    rating=display_rating(r.ordinal),
                    games=r.games,
                    provisional=r.is_provisional,
                )
                for r in stats.ratings
            ],
            professions=dict(stats.professions),
        ),
        links=Links(
            api=request.build_absolute_uri(),
            html=request.build_absolute_uri(reverse("accounts:profile", args=[shown.username])),
        ),
    )


@api.get(
    "/players/{name:username}/games/",
    response={200: GamePage, 404: Error},
    url_name="player_games",
    tags=["players"],
)
def player_games(request: HttpRequest, username: str, page: GamesPage = 1) -> dict[str, Any]:
    """The finished public games a player sat at, the newest first (by id), 50 a page."""
    _viewer(request)
    shown = _player_or_404(username)
    return _game_page(selectors.player_games(player=shown, page=page), _Urls(request))


# -- leaderboards ----------------------------------------------------------------------------


@api.get("/leaderboards/", response=list[BoardInfo], url_name="leaderboards", tags=["leaderboards"])
def leaderboards(request: HttpRequest) -> list[BoardInfo]:
    """Every board: one per ruleset and kind."""
    _viewer(request)
    urls = _Urls(request)
    return [
        BoardInfo(
            ruleset=ruleset,
            kind=kind.slug,
            title=str(kind.title),
            url=urls.absolute("api-v1:leaderboard", ruleset, kind.slug),
        )
        for ruleset in Ruleset.values
        for kind in boards.BOARDS.values()
    ]


def _rows(board: boards.Board, shown: Callable[[float], float], links: bool) -> list[BoardRowOut]:
    return [
        BoardRowOut(
            rank=row.rank,
            player=row.username,
            value=shown(row.value),
            at=row.at,
            game_id=row.game_id if links else None,
        )
        for row in board.rows
    ]


@api.get(
    "/leaderboards/{ruleset}/{kind}/",
    response={200: BoardOut, 404: Error},
    url_name="leaderboard",
    tags=["leaderboards"],
)
def leaderboard(
    request: HttpRequest,
    ruleset: str,
    kind: str,
    page: BoardPage = 1,
) -> BoardOut:
    """One page (50 rows) of a board. Ratings are on the site's 1500-based scale."""
    _viewer(request)
    if ruleset not in Ruleset.values or kind not in boards.BOARDS:
        raise HttpError(404, "No such board.")
    board_kind = boards.BOARDS[kind]
    board = boards.board(kind=board_kind, ruleset=ruleset, page=page)
    shown: Callable[[float], float] = display_rating if kind == "rating" else float
    return BoardOut(
        ruleset=ruleset,
        kind=kind,
        title=str(board_kind.title),
        page=board.page,
        has_next=board.has_next,
        rows=_rows(board, shown, links=True),
    )


# -- the daily challenge ---------------------------------------------------------------------


def _daily(request: HttpRequest, day: datetime.date, page: int) -> DailyOut:
    state = selectors.daily_day_state(day)
    if state in ("before", "future"):
        raise HttpError(404, "That day's challenge has not begun (or never was).")
    over = state == "over"
    board = boards.daily_board(day=day, page=page)
    par = game_selectors.daily_par(day=day) if over else None
    return DailyOut(
        day=day,
        over=over,
        # While the day runs, its cards and games would spoil it for those yet to play.
        cards=selectors.daily_cards(day) if over else None,
        par=ParOut(computer_score=par.bot_score, best_score=par.best_score) if par else None,
        page=board.page,
        has_next=board.has_next,
        rows=_rows(board, float, links=over),
    )


@api.get("/daily/", response=DailyOut, url_name="daily_today", tags=["daily"])
def daily_today(request: HttpRequest, page: BoardPage = 1) -> DailyOut:
    """Today's challenge: its board so far, without cards or games until the day is over."""
    _viewer(request)
    return _daily(request, today(), page)


@api.get("/daily/{day}/", response={200: DailyOut, 404: Error}, url_name="daily", tags=["daily"])
def daily(request: HttpRequest, day: str, page: BoardPage = 1) -> DailyOut:
    """A day's challenge (``YYYY-MM-DD``, UTC): its board; its cards once the day is over."""
    _viewer(request)
    try:
        shown = datetime.date.fromisoformat(day) if day.isascii() and len(day) == 10 else None
    except ValueError:
        shown = None
    if shown is None:
        raise HttpError(404, "No such day.")
    return _daily(request, shown, page)


# -- the token's own account -------------------------------------------------------------------


@api.get(
    "/account/",
    response={200: AccountOut, 401: Error},
    auth=token_auth,
    url_name="account",
    tags=["account"],
)
def account(request: HttpRequest) -> AccountOut:
    """Whose token this is."""
    user: User = request.auth  # type: ignore[attr-defined]
    return AccountOut(username=user.username, token_name=request.api_token_name)  # type: ignore[attr-defined]


NDJSON = "application/x-ndjson"
#: Games a page of the NDJSON export: a few seconds of an app server's time at most.
EXPORT_PAGE = 500
ExportAfter = Annotated[
    int,
    params.Query(0, ge=0, le=MAX_ID, description="the last id of the page before (0: the first)"),
]


def _ndjson_lines(games: Iterator[tuple[Game, dict[str, Any]]]) -> Iterator[bytes]:
    for game, record in games:
        line = {
            "id": game.pk,
            "mode": game.mode,
            "status": game.status,
            "ruleset": game.ruleset,
            "daily": game.daily.isoformat() if game.daily else None,
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
            "players": [
                {"name": s.player_key, "score": s.score, "place": s.place} for s in game.seats.all()
            ],
            "record": record,
        }
        yield json.dumps(line, separators=(",", ":")).encode() + b"\n"


@api.get(
    "/account/games.ndjson",
    auth=token_auth,
    url_name="account_games",
    tags=["account"],
    # The 200 answer (NDJSON) is described in openapi_extra: listed here too, it would
    # appear twice in the schema (an int and a str key), which YAML readers refuse.
    response={401: Error},
    openapi_extra={
        "responses": {
            "200": {
                "description": "One game a line (NDJSON): summary fields and its record. "
                "At most 500 games a page; a `Link` header (rel=next) gives the next.",
                "content": {NDJSON: {"schema": {"type": "string"}}},
            },
            "429": {"description": "Too many pages this minute: wait for Retry-After."},
        }
    },
)
def account_games(
    request: HttpRequest, after: ExportAfter = 0
) -> HttpResponse | StreamingHttpResponse:
    """The token's player's games after the id ``after``, oldest first, one JSON object a
    line, streamed, 500 at most: the `Link` header (rel=next) gives the next page.

    Games in play are included as far as their boards show them; hidden games are not.
    A player may ask for 6 pages a minute.
    """
    user: User = request.auth  # type: ignore[attr-defined]
    verdict = limits.export_page_admit(request, user.pk)
    if not verdict.allowed:
        refused = JsonResponse(
            {"detail": "Too many export pages: wait for Retry-After seconds."}, status=429
        )
        refused["Retry-After"] = str(verdict.retry_after)
        return refused
    games = selectors.export_games(player=user).filter(pk__gt=after)
    ids = list(games.values_list("pk", flat=True)[: EXPORT_PAGE + 1])
    page = games.filter(pk__lte=ids[EXPORT_PAGE - 1]) if len(ids) > EXPORT_PAGE else games
    response = StreamingHttpResponse(
        _ndjson_lines(selectors.iter_records(page)), content_type=NDJSON
    )
    response["Content-Disposition"] = f'attachment; filename="limes-games-{user.pk}.ndjson"'
    if len(ids) > EXPORT_PAGE:
        following = f"{request.path}?after={ids[EXPORT_PAGE - 1]}"
        response["Link"] = f'<{following}>; rel="next"'
    return response


# Tournaments: their own router (api/tournaments.py), the same rule as the rest: only
# what a visitor of the site sees.
api.add_router("/tournaments/", tournaments_router)
