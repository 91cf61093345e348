"""Tournament pages. Thin: read the request, call a service or selector, render."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from accounts.models import User
from core.errors import ActionRefused
from core.links import Link
from tournaments import selectors, services
from tournaments.models import Tournament

# Far past any tournament's size: a larger page number is not found.
MAX_PAGE = 10_000


@dataclass(frozen=True)
class ShownStanding:
    """A standings row as the page draws it: figures formatted, links made."""

    rank: int
    username: str
    profile_url: str
    own: bool
    total: str
    played: int
    # Per deal: the percentage, "—" for a deal not finished, "" for one not to be shown,
    # "…" for one that scores no matchpoints yet (nobody else has finished it).
    cells: list[str]


PENDING = "…"


def _cell(percent: float | None, *, number: int, played: bool, standings: Standings) -> str:
    if number not in standings.seen:
        return ""
    if not played:
        return "—"
    if number in standings.pending:
        return PENDING
    return "—" if percent is None else f"{percent:.0f}%"


@dataclass(frozen=True)
class Standings:
    """The rows to draw and what the viewer may see of each deal."""

    rows: Sequence[selectors.StandingRow | selectors.RunningRow]
    seen: frozenset[int]
    pending: frozenset[int]


def _standings(tournament: Tournament, viewer: User | None) -> Standings:
    seen = selectors.seen_deals(tournament, viewer)
    if tournament.is_over:
        return Standings(selectors.standings(tournament), seen, frozenset())
    running = selectors.running_standings(tournament, seen)
    return Standings(running.rows, running.seen, running.pending)


def _shown(
    rows: Sequence[selectors.StandingRow | selectors.RunningRow],
    *,
    viewer: User | None,
    standings: Standings,
) -> list[ShownStanding]:
    profile = Link("accounts:profile")
    shown = []
    for row in rows:
        if isinstance(row, selectors.RunningRow):
            played = list(row.finished)
        else:
            played = [score is not None for score in row.scores]
        shown.append(
            ShownStanding(
                rank=row.rank,
                username=row.username,
                profile_url=profile(row.username),
                own=viewer is not None and row.user_id == viewer.pk,
                # A sum of percentages, written as the deals' are.
                total=f"{number_format(row.total, decimal_pos=1)}%",
                played=sum(played),
                cells=[
                    _cell(percent, number=number, played=done, standings=standings)
                    for number, (percent, done) in enumerate(
                        zip(row.percents, played, strict=True), start=1
                    )
                ],
            )
        )
    return shown


def _viewer(request: HtmxHttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


def index(request: HtmxHttpRequest) -> HttpResponse:
    """Running and upcoming tournaments, and the history of past ones with their winners."""
    viewer = _viewer(request)
    context = {
        "current": selectors.current_tournaments(),
        "past": selectors.past_tournaments(),
        "mine": selectors.tournaments_of(viewer) if viewer is not None else None,
    }
    return render(request, "tournaments/index.html", context)


def _page_number(request: HtmxHttpRequest) -> int:
    raw = request.GET.get("page", "1")
    # ASCII digits only: int() would take "١" or " 2 ".
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:
        return 1
    page = int(raw)
    if page > MAX_PAGE:
        raise Http404(_("No such page."))
    return max(1, page)


def _live_now(tournament: Tournament, viewer: User | None) -> selectors.LiveStatus | None:
    if not (tournament.is_live and tournament.is_running):
        return None
    live = selectors.live_status(tournament, viewer)
    # The next deal (or the end) is due: whoever looks first deals it, as a
    # page enforces a game's clock (the task at the start does it too).
    if live.needs_dealing and services.live_advance(tournament=tournament):
        tournament.refresh_from_db()
        live = selectors.live_status(tournament, viewer) if tournament.is_running else None
    return live


def live_next(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """What a finished live deal's page shows of the tournament: the next deal and its clock.

    A fragment the game's page loads (``selectors.game_frame``) and that asks again while
    the next deal is still to come; ``after`` names the game the page shows.
    """
    tournament = get_object_or_404(Tournament, pk=pk)
    live = _live_now(tournament, _viewer(request))
    after = request.GET.get("after", "")
    next_game = live.game_id if live and live.game_id and str(live.game_id) != after else None
    # While the others still play this deal the finished game's comparison with them
    # grows: the page redraws it when the state says the table is done.
    state = "playing" if live and live.deal_number and not next_game else "done"
    go_at = None
    if live and next_game and live.deadline and live.round == 1 and tournament.round_seconds:
        # The break before the first card is for reading the deal just played: the page
        # goes to the next game when it is over, with the card's whole clock left.
        go_at = live.deadline - datetime.timedelta(seconds=tournament.round_seconds)
    context = {
        "tournament": tournament,
        "live": live,
        "next_game": next_game,
        "go_at": go_at,
        # Its card's clock counts the break too: until it is over, the break is counted.
        "in_break": go_at is not None and go_at > timezone.now(),
        "state": state,
    }
    return render(request, "tournaments/_live_next.html", context)


def detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A tournament: its rules, the viewer's deals, and the standings (pushed while live).

    While the tournament runs the page listens to ``tournaments.streams``; each ``standings``
    event (or, while the stream is down, a 15 s poll) asks this view for the standings alone.
    """
    tournament = get_object_or_404(Tournament, pk=pk)
    viewer = _viewer(request)
    live = _live_now(tournament, viewer)
    # Nobody sees a deal's results before finishing it, until the window is over.
    shown = _standings(tournament, viewer)
    rows = shown.rows
    page = Paginator(rows, selectors.STANDINGS_PAGE).get_page(_page_number(request))
    own = next((row for row in rows if viewer and row.user_id == viewer.pk), None)
    entrant = selectors.entrant_of(tournament, viewer)
    lines = selectors.deal_lines(tournament, viewer) if entrant and viewer else []
    context = {
        "tournament": tournament,
        "page": page,
        "shown_rows": _shown(list(page.object_list), viewer=viewer, standings=shown),
        "own": own,
        "entrant_count": len(rows),
        "entrant": entrant,
        "invited": (
            entrant is None
            and tournament.entry == Tournament.Entry.INVITATION
            and selectors.is_invited(tournament, viewer)
        ),
        "deal_lines": lines,
        "deal_numbers": range(1, tournament.deal_count + 1),
        "live": live,
    }
    template = "tournaments/detail.html"
    if request.htmx:
        template += "#standings"
    return render(request, template, context)


def _refused(request: HtmxHttpRequest, error: Exception) -> None:
    message = error.messages[0] if isinstance(error, ActionRefused) else str(error)
    messages.error(request, message)


@login_required
@require_POST
def join(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Enter the tournament."""
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        services.tournament_join(tournament=tournament, user=request.user)
    except (ActionRefused, PermissionDenied) as error:
        _refused(request, error)
    else:
        messages.success(request, _("You have entered the tournament."))
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_POST
def play(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """Start (or go back to) the entrant's game of one deal."""
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        game = services.deal_play(tournament=tournament, user=request.user, number=number)
    except (ActionRefused, PermissionDenied) as error:
        _refused(request, error)
        return redirect("tournaments:detail", pk=pk)
    return redirect("games:detail", pk=game.pk)


def record(request: HtmxHttpRequest, username: str) -> HttpResponse:
    """A player's tournaments (a part of the profile page, loaded by it)."""
    player = get_object_or_404(User, username=username, deleted_at__isnull=True)
    # A banned player's page shows nothing of their play (as the profile).
    lines = [] if player.is_banned else selectors.player_record(player)
    context = {"profile_user": player, "lines": lines}
    template = "tournaments/record.html"
    if request.htmx:
        template += "#record"
    return render(request, template, context)
