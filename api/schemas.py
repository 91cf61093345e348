"""The shapes of /api/v1/'s answers (pydantic, through Django Ninja): the OpenAPI schema's
components. Plain fields only: no email address or other private field is ever among them."""

from __future__ import annotations

import datetime
from typing import Any

from pydantic import BaseModel

from api.selectors import SeatRow


class Schema(BaseModel):
    # Plain pydantic models, built from keyword arguments: Ninja's own Schema reads each
    # field through a Django-aware getter, which took half of a 50-game page's time.
    pass


class Error(Schema):
    detail: str


class Links(Schema):
    api: str
    html: str | None = None


class Index(Schema):
    version: str
    openapi: str
    docs: str
    endpoints: dict[str, str]


# A seat as the summaries show it: the selectors' own row (a dataclass pydantic reads).
SeatOut = SeatRow


class GameLinks(Schema):
    api: str
    page: str
    replay: str | None
    embed: str | None
    landscape_svg: str | None


class GameSummary(Schema):
    id: int
    mode: str
    status: str
    ruleset: str
    variants: list[str]
    daily: datetime.date | None
    round: int
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    players: list[SeatOut]
    links: GameLinks


class GameOut(GameSummary):
    # The limes-game/1 record (docs/formats.md), as far as the board shows it.
    record: dict[str, Any] | None


class GamePage(Schema):
    page: int
    has_next: bool
    games: list[GameSummary]


class ModeOut(Schema):
    mode: str
    ruleset: str
    games: int
    best: int | None
    average: float | None


class RatingOut(Schema):
    ruleset: str
    rating: int
    games: int
    provisional: bool


class StatisticsOut(Schema):
    games_played: int
    games_finished: int
    best_solo: int | None
    average_solo: float | None
    per_mode: list[ModeOut]
    ratings: list[RatingOut]
    professions: dict[str, float]


class PlayerOut(Schema):
    username: str
    bio: str
    statistics: StatisticsOut
    links: Links


class BoardInfo(Schema):
    ruleset: str
    kind: str
    title: str
    url: str


class BoardRowOut(Schema):
    rank: int
    player: str
    value: float
    at: datetime.datetime
    game_id: int | None


class BoardOut(Schema):
    ruleset: str
    kind: str
    title: str
    page: int
    has_next: bool
    rows: list[BoardRowOut]


class ParOut(Schema):
    computer_score: int | None
    best_score: int | None


class DailyOut(Schema):
    day: datetime.date
    over: bool
    # Only once the day is over: until then they would spoil the challenge.
    cards: list[int] | None
    par: ParOut | None
    page: int
    has_next: bool
    rows: list[BoardRowOut]


class AccountOut(Schema):
    username: str
    token_name: str
