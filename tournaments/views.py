"""Tournament pages. Thin: read the request, call a service or selector, render."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from accounts.models import User
from games.services import ActionRefused
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
    # Per deal: the percentage, "—" for a deal not finished, "" for one not to be shown.
    cells: list[str]


# A stand-in reversed once per page instead of one reverse() per row.
_NAME = "~player~"


def _shown(
    rows: list[selectors.StandingRow], *, viewer: User | None, seen: set[int]
) -> list[ShownStanding]:
    profile = reverse("accounts:profile", args=[_NAME])
    return [
        ShownStanding(
            rank=row.rank,
            username=row.username,
            profile_url=profile.replace(_NAME, quote(row.username, safe="!$&'()*+,;=~:@")),
            own=viewer is not None and row.user_id == viewer.pk,
            total=number_format(row.total, decimal_pos=1),
            cells=[
                ("—" if percent is None else f"{percent:.0f}%") if number in seen else ""
                for number, percent in enumerate(row.percents, start=1)
            ],
        )
        for row in rows
    ]


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


def detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A tournament: its rules, the viewer's deals, and the standings (pushed while live).

    While the tournament runs the page listens to ``tournaments.streams``; each ``standings``
    event (or, while the stream is down, a 15 s poll) asks this view for the standings alone.
    """
    tournament = get_object_or_404(Tournament, pk=pk)
    viewer = _viewer(request)
    live = None
    if tournament.is_live and tournament.is_running:
        live = selectors.live_status(tournament, viewer)
        # The next deal (or the end) is due: whoever looks first deals it, as a
        # page enforces a game's clock (the task at the start does it too).
        if live.needs_dealing and services.live_advance(tournament=tournament):
            tournament.refresh_from_db()
            live = selectors.live_status(tournament, viewer) if tournament.is_running else None
    rows = selectors.standings(tournament)
    page = Paginator(rows, selectors.STANDINGS_PAGE).get_page(_page_number(request))
    own = next((row for row in rows if viewer and row.user_id == viewer.pk), None)
    entrant = selectors.entrant_of(tournament, viewer)
    lines = selectors.deal_lines(tournament, viewer) if entrant and viewer else []
    # Nobody sees a deal's results before finishing it, until the window is over.
    seen = (
        set(range(1, tournament.deal_count + 1))
        if tournament.is_over
        else {line.number for line in lines if line.finished}
    )
    context = {
        "tournament": tournament,
        "page": page,
        "shown_rows": _shown(list(page.object_list), viewer=viewer, seen=seen),
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
        "seen": seen,
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
