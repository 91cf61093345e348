"""Chart geometry for the profile, drawn as inline SVG by templates (no chart script).

Each function turns statistics into coordinates in a fixed ``viewBox``; the SVG scales
to the width of the page, so one drawing serves a phone and a desktop.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace

from django.utils.formats import date_format
from django.utils.translation import gettext as _

import rules
from games.models import Ruleset
from leaderboards.gamelists import WINTER_SERIES
from leaderboards.rating import DISPLAY_TARGET, display_rating
from leaderboards.selectors import BAND_LABELS, DuplicatePoint, HistoryEntry, RatingPoint

WIDTH = 600
HEIGHT = 240
LEFT = 44  # room for the axis labels (a rating has four digits)
RIGHT = 8
TOP = 8
BOTTOM = 24

# One colour class per band and ruleset; the colours themselves are in leaderboards.css.
BAND_CLASSES = {band: f"band-{band.value}" for band in rules.SoloRating}
RULESET_CLASSES = {ruleset.value: f"series-{ruleset.value}" for ruleset in Ruleset}


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    css: str
    label: str
    count: int = 0

    @property
    def svg(self) -> dict[str, str]:
        return {
            "x": _f(self.x),
            "y": _f(self.y),
            "width": _f(self.width),
            "height": _f(self.height),
            "text_y": _f(self.y + 15),
            "end_x": _f(self.x + self.width + 6),
        }


def _f(value: float) -> str:
    # SVG wants a dot for decimals whatever the language: not floatformat (and faster).
    return f"{value:.1f}"


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    title: str

    @property
    def svg(self) -> dict[str, str]:
        return {"x": _f(self.x), "y": _f(self.y)}


@dataclass(frozen=True)
class Tick:
    y: float
    label: str

    @property
    def text_y(self) -> str:
        return _f(self.y + 4)


@dataclass(frozen=True)
class DateTick:
    """A date under the x axis."""

    x: float
    label: str
    anchor: str = "middle"  # the first date starts at the axis, the last ends at the edge

    @property
    def svg_x(self) -> str:
        return _f(self.x)


def _date_ticks(dates: list[datetime.datetime], most: int = 4) -> list[DateTick]:
    """Up to ``most`` dates, evenly spread over the games (the first and last included)."""
    n = len(dates)
    if n == 0:
        return []
    picks = sorted({round(i * (n - 1) / (most - 1)) for i in range(most)}) if n > 1 else [0]
    return [
        DateTick(
            _x(i, n),
            date_format(dates[i], "SHORT_DATE_FORMAT"),
            "middle" if n == 1 else "start" if i == 0 else "end" if i == n - 1 else "middle",
        )
        for i in picks
    ]


@dataclass(frozen=True)
class Series:
    label: str
    css: str
    points: str
    dots: list[Dot]


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: float
    bottom: float
    rects: list[Rect]
    series: list[Series]
    ticks: list[Tick]
    dates: list[DateTick] = field(default_factory=list)

    @property
    def date_y(self) -> float:
        return self.bottom + 16

    @property
    def label_x(self) -> int:
        return self.left - 6

    @property
    def inner_right(self) -> int:
        return self.right - 4


def _x(i: int, n: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + (span / 2 if n == 1 else span * i / (n - 1))


def _scale(low: float, high: float) -> tuple[float, float]:
    """Factor and offset mapping values in [low, high] to the plot's y (up is more)."""
    factor = (HEIGHT - TOP - BOTTOM) / (high - low)
    return factor, HEIGHT - BOTTOM + low * factor


def score_chart(history: list[HistoryEntry]) -> Chart | None:
    """Solo scores, oldest first, over the table's bands; None without any game."""
    if not history:
        return None
    games = list(reversed(history))
    scores = [entry.score for entry in games]
    # From a little below the lowest score (and the satisfactory line) rather than from 0,
    # so that the bands where scores fall get the height.
    low = max(0, (min(min(scores), rules.SoloRating.SATISFACTORY.lowest) - 6) // 5 * 5)
    top = max(56, max(scores) + 4)
    factor, offset = _scale(low, top)
    rects = []
    for band in rules.SoloRating:
        upper = top if band.highest is None else band.highest + 1
        lower = max(band.lowest, low)
        if upper <= lower:
            continue
        rects.append(
            Rect(
                x=LEFT,
                y=offset - upper * factor,
                width=WIDTH - LEFT - RIGHT,
                height=(upper - lower) * factor,
                css=BAND_CLASSES[band],
                label=str(BAND_LABELS[band]),
            )
        )
    dots = [
        Dot(
            _x(i, len(games)),
            offset - entry.score * factor,
            f"{entry.score} · {entry.finished_at:%Y-%m-%d}",
        )
        for i, entry in enumerate(games)
    ]
    return _plot(
        rects=rects,
        series=[Series("", "series-solo", _points(dots), dots)],
        ticks=[
            Tick(offset - value * factor, str(value))
            for value in sorted(
                {low, *(band.lowest for band in rules.SoloRating if band.lowest > low)}
            )
        ],
        dates=_date_ticks([entry.finished_at for entry in games]),
    )


BAR_HEIGHT = 28


def band_chart(bands: list[tuple[rules.SoloRating, int]]) -> Chart | None:
    """How often each band was reached, one bar per band; None without any game."""
    most = max((count for _band, count in bands), default=0)
    if most == 0:
        return None
    label_width = 215
    span = WIDTH - label_width - 48
    rects = [
        Rect(
            x=label_width,
            y=TOP + i * BAR_HEIGHT,
            width=max(1.0, span * count / most) if count else 0.0,
            height=BAR_HEIGHT - 6,
            css=BAND_CLASSES[band],
            label=str(BAND_LABELS[band]),
            count=count,
        )
        for i, (band, count) in enumerate(reversed(bands))
    ]
    return Chart(
        width=WIDTH,
        height=TOP * 2 + BAR_HEIGHT * len(bands),
        left=label_width,
        right=WIDTH,
        top=TOP,
        bottom=TOP + BAR_HEIGHT * len(bands),
        rects=rects,
        series=[],
        ticks=[],
    )


def rating_chart(
    points: list[RatingPoint], lines: list[tuple[str, str, str]] | None = None
) -> Chart | None:
    """The rating after each rated game, one line per ruleset (or per ``lines``: each a
    ``RatingPoint.ruleset`` value, its label and its colour class); None before any."""
    if lines is None:
        lines = [(r.value, str(r.label), RULESET_CLASSES[r.value]) for r in Ruleset]
    if not points:
        return None
    # Drawn on the scale players see (1500-based), not as raw ordinals.
    points = [replace(p, rating=float(display_rating(p.rating))) for p in points]
    values = [p.rating for p in points] + [float(DISPLAY_TARGET)]
    low, high = min(values), max(values)
    pad = max(1.0, (high - low) * 0.1)
    low, high = low - pad, high + pad
    factor, offset = _scale(low, high)
    series = []
    for key, label, css in lines:
        dots = [
            Dot(
                _x(i, len(points)),
                offset - p.rating * factor,
                f"{p.rating:.0f} · {p.at:%Y-%m-%d}",
            )
            for i, p in enumerate(points)
            if p.ruleset == key
        ]
        if dots:
            series.append(Series(label, css, _points(dots), dots))
    ticks = [Tick(offset - value * factor, f"{value:.0f}") for value in _nice_ticks(low, high)]
    return _plot(
        rects=[],
        series=series,
        ticks=ticks,
        dates=_date_ticks([p.at for p in points]),
    )


def winter_rating_chart(points: list[RatingPoint]) -> Chart | None:
    """The Winter rating after each rated Winter game, one line; None before any."""
    return rating_chart(
        points, [(WINTER_SERIES, str(_("Carcassonne: Winter Edition")), "series-winter")]
    )


def duplicate_chart(points: list[DuplicatePoint]) -> Chart | None:
    """Matchpoint percentages of recent results on shared deals, 0 to 100; None before any."""
    if not points:
        return None
    factor, offset = _scale(0, 100)
    dots = [
        Dot(
            _x(i, len(points)),
            offset - p.figures.percent * factor,
            f"{p.figures.percent:.0f}% · {p.score} · {p.finished_at:%Y-%m-%d}",
        )
        for i, p in enumerate(points)
    ]
    return _plot(
        rects=[],
        series=[Series("", "series-duplicate", _points(dots), dots)],
        ticks=[Tick(offset - value * factor, f"{value}%") for value in (0, 25, 50, 75, 100)],
        dates=_date_ticks([p.finished_at for p in points]),
    )


def _plot(
    *, rects: list[Rect], series: list[Series], ticks: list[Tick], dates: list[DateTick]
) -> Chart:
    # The line charts' common frame: the whole drawing area, with room for the axes.
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
        rects=rects,
        series=series,
        ticks=ticks,
        dates=dates,
    )


def _points(dots: list[Dot]) -> str:
    return " ".join(f"{d.x:.1f},{d.y:.1f}" for d in dots)


def _nice_ticks(low: float, high: float) -> list[float]:
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if (high - low) / s <= 6)
    first = int(low // step + 1) * step
    return [float(v) for v in range(first, int(high) + 1, step)]
