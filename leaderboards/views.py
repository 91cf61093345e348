"""Board pages, the daily challenge and players' profiles. Thin: read the request, call a
selector, render."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import games.policy
import games.selectors
import games.services
from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from accounts.models import User
from core.errors import ActionRefused
from core.links import Link
from core.polls import poll
from games.daily import FIRST_DAY, today
from games.framing import titles_of
from games.models import Ruleset
from leaderboards import charts, gamelists, selectors
from leaderboards.duplicate import Duplicate
from leaderboards.models import PROVISIONAL_GAMES
from leaderboards.rating import display_rating


@dataclass(frozen=True)
class ShownRow:
    """A board row as the page draws it: links and figures ready."""

    rank: int
    username: str
    own: bool
    value: str
    day: str
    profile_url: str
    replay_url: str | None
    beat_bot: bool = False
    # The score's matchpoint percentage on its deal ("67%"), where the board has one.
    duplicate: str | None = None


def _shown_rows(
    board: selectors.Board,
    *,
    decimals: int,
    links: bool,
    viewer: User | None,
    shown: Callable[[float], float] = float,
    bot_score: int | None = None,
    percentages: Mapping[int, Duplicate] | None = None,
) -> list[ShownRow]:
    # Reversed once per page: 50 rows would otherwise reverse 100 URLs (``core.links``).
    profile, replay = Link("accounts:profile"), Link("games:replay")
    ids = [row.game_id for row in board.rows if row.game_id]
    withheld = selectors.replays_withheld(ids, viewer) if links and ids else set()
    return [
        ShownRow(
            rank=row.rank,
            username=row.username,
            own=viewer is not None and row.user_id == viewer.pk,
            value=number_format(shown(row.value), decimal_pos=decimals),
            day=row.at.date().isoformat(),
            profile_url=profile(row.username),
            replay_url=(
                replay(row.game_id)
                if links and row.game_id and row.game_id not in withheld
                else None
            ),
            beat_bot=bot_score is not None and row.value > bot_score,
            duplicate=_percent(percentages, int(row.value)) if percentages else None,
        )
        for row in board.rows
    ]


def _percent(percentages: Mapping[int, Duplicate], score: int) -> str | None:
    figures = percentages.get(score)
    return None if figures is None else f"{number_format(round(figures.percent), decimal_pos=0)}%"


def _page_number(request: HtmxHttpRequest) -> int:
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        return 1
    # Far past any board's end, the offset would not even fit the database's integers.
    if page > selectors.MAX_PAGE:
        raise Http404(_("No such page."))
    return max(1, page)


def _viewer(request: HtmxHttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


def board_index(request: HtmxHttpRequest) -> HttpResponse:
    """The boards start with the standard ruleset's best scores."""
    return redirect("leaderboards:board", ruleset=Ruleset.STANDARD, kind="best")


def board_page(request: HtmxHttpRequest, ruleset: str, kind: str) -> HttpResponse:
    """One page of one board; for an htmx request, just the table."""
    if ruleset not in Ruleset.values or kind not in selectors.BOARDS:
        raise Http404(_("No such board."))
    board_kind = selectors.BOARDS[kind]
    board = selectors.board(
        kind=board_kind, ruleset=ruleset, page=_page_number(request), viewer=_viewer(request)
    )
    decimals = 1 if kind == "average" else 0
    # Ratings are stored as openskill ordinals and shown on the 1500-based scale.
    shown: Callable[[float], float] = display_rating if kind == "rating" else float
    context = {
        "board": board,
        "rows": _shown_rows(
            board, decimals=decimals, links=True, viewer=_viewer(request), shown=shown
        ),
        "own_value": shown(board.own.value) if board.own else None,
        "decimals": decimals,
        "kind": board_kind,
        "kinds": selectors.BOARDS.values(),
        "ruleset": Ruleset(ruleset),
        "rulesets": list(Ruleset),
    }
    template = "leaderboards/board.html"
    if request.htmx:
        template += "#table"
    return render(request, template, context)


def winter_rating_board(request: HtmxHttpRequest) -> HttpResponse:
    """The Winter ratings, a page at a time; for an htmx request, just the table."""
    viewer = _viewer(request)
    board = selectors.winter_rating_board(page=_page_number(request), viewer=viewer)
    # A rating the board leaves out (provisional, or no game for 90 days): its owner is
    # told where it stands, as the profile shows it.
    left_out = viewer is not None and not board.own and not request.htmx
    off_board = selectors.winter_rating_of(viewer) if viewer is not None and left_out else None
    context = {
        "board": board,
        "rows": _shown_rows(board, decimals=0, links=True, viewer=viewer, shown=display_rating),
        "own_value": display_rating(board.own.value) if board.own else None,
        "off_board": off_board,
        "games_to_go": PROVISIONAL_GAMES - off_board.games if off_board else 0,
        "decimals": 0,
        "rulesets": list(Ruleset),
    }
    template = "leaderboards/winter_board.html"
    if request.htmx:
        template += "#table"
    return render(request, template, context)


@poll
def winter_lobby_poll(request: HtmxHttpRequest) -> HttpResponse:
    """The lobby's Winter games if they changed ``since`` the signature; else 204."""
    if request.GET.get("since") == gamelists.winter_lobby_signature():
        return HttpResponse(status=204)
    return render(request, "leaderboards/_winter_lobby.html", {"lobby": gamelists.winter_lobby()})


def daily_page(request: HtmxHttpRequest, day: str | None = None) -> HttpResponse:
    """A day's challenge: today's lets a player start their attempt; past days stay here."""
    current = today()
    if day is None:
        shown = current
    else:
        try:
            shown = datetime.date.fromisoformat(day)
        except ValueError:
            raise Http404(_("No such day.")) from None
        if shown < FIRST_DAY:
            raise Http404(_("The daily challenge had not begun on that day."))
        if shown > current:
            raise Http404(_("That day's challenge has not begun."))
        if shown == current:
            return redirect("leaderboards:daily")
    viewer = _viewer(request)
    board = selectors.daily_board(day=shown, page=_page_number(request), viewer=viewer)
    attempt = (
        selectors.daily_attempt(user=viewer, day=shown)
        if viewer
        else selectors.DailyAttempt(None, False)
    )
    # Other players' games would show the day's cards: only after one's own attempt
    # (or, on a day that is over, to those who made none).
    links = attempt.finished or (shown < current and attempt.game is None)
    # The par, like the landscapes, waits for the viewer's own attempt on a running day.
    par = games.selectors.daily_par(day=shown) if links else None
    bot_score = par.bot_score if par is not None and par.is_done else None
    context = {
        "rows": _shown_rows(
            board,
            decimals=0,
            links=links,
            viewer=viewer,
            bot_score=bot_score,
            percentages=selectors.daily_percentages(shown),
        ),
        "par": par,
        "show_par": links,
        "own_value": board.own.value if board.own else None,
        "decimals": 0,
        "day": shown,
        "is_today": shown == current,
        "attempt": attempt,
        "board": board,
        "links": links,
        "previous_day": shown - datetime.timedelta(days=1) if shown > FIRST_DAY else None,
        "next_day": shown + datetime.timedelta(days=1) if shown < current else None,
        "days": selectors.daily_days(before=shown),
    }
    template = "leaderboards/daily.html"
    if request.htmx:
        template += "#table"
    return render(request, template, context)


@login_required
@require_POST
def daily_start(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Start (or go back to) the signed-in player's attempt at today's challenge."""
    try:
        game = games.services.game_create_daily(user=request.user)
    except PermissionDenied as error:
        messages.error(request, str(error))
        return redirect("leaderboards:daily")
    return redirect("games:detail", pk=game.pk)


@login_required
@require_POST
def daily_abandon(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Give up today's attempt: it ends with the landscape as it stands, and counts."""
    attempt = selectors.daily_attempt(user=request.user, day=today())
    if attempt.game is None or attempt.finished:
        messages.error(request, _("You have no attempt in play today."))
        return redirect("leaderboards:daily")
    try:
        games.services.seat_resign(game=attempt.game, user=request.user)
    except ActionRefused as error:
        messages.error(request, error.messages[0])
        return redirect("leaderboards:daily")
    messages.success(request, _("Your attempt is over; its score counts for today."))
    return redirect("leaderboards:daily")


def daily_par(request: HtmxHttpRequest, day: str) -> HttpResponse:
    """The day's par fragment, which the daily page polls while the par is computed."""
    try:
        shown = datetime.date.fromisoformat(day)
    except ValueError:
        raise Http404(_("No such day.")) from None
    current = today()
    if shown > current or shown < FIRST_DAY:
        raise Http404(_("That day's challenge has not begun."))
    viewer = _viewer(request)
    attempt = (
        selectors.daily_attempt(user=viewer, day=shown)
        if viewer
        else selectors.DailyAttempt(None, False)
    )
    # As for the day's landscapes: after one's own attempt, or on a day that is over to
    # those who made none; never while one's attempt of that day is unfinished.
    if not (attempt.finished or (shown < current and attempt.game is None)):
        raise Http404(_("The par is shown once you have finished your own attempt."))
    context = {
        "day": shown,
        "attempt": attempt,
        "par": games.selectors.daily_par(day=shown),
        "show_par": True,
    }
    return render(request, "leaderboards/daily.html#par", context)


def game_duplicate(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A finished game's results against everyone who played its cards (a game page part)."""
    game = games.selectors.game_with_seats(pk)
    if game is None or not game.is_finished:
        raise Http404(_("No such game."))
    seats = list(game.seats.all())
    if not games.policy.can_watch(game, request.user, games.policy.seat_of(seats, request.user)):
        raise Http404(_("No such game."))
    figures = selectors.game_duplicates(game)
    # A live table's deal before its tournament's results count: against the table.
    at_table = not figures
    if at_table:
        figures = selectors.table_duplicates(game)
    context = {
        "game": game,
        "rows": [(seat, figures[seat.pk]) for seat in seats if seat.pk in figures],
        "at_table": at_table,
    }
    template = "leaderboards/game_duplicate.html"
    if request.htmx:
        template += "#figures"
    else:
        # Headed as the game's own page names it (a tournament's deal: by its tournament).
        context["title"] = titles_of([game])[game.pk]
    return render(request, template, context)


def profile(request: HtmxHttpRequest, username: str) -> HttpResponse:
    """A player's public page: games, solo results against the table, ratings, charts."""
    player = get_object_or_404(User, username=username, deleted_at__isnull=True)
    context: dict[str, object] = {"profile_user": player}
    # A banned account's page says so and nothing more: its results are off the boards too.
    if not player.is_banned:
        stats = selectors.player_statistics(player)
        context.update(
            stats=stats,
            solo_rulesets=[
                (solo, charts.score_chart(solo.history))
                for solo in selectors.solo_by_ruleset(stats.history)
            ],
            band_chart=charts.band_chart(stats.bands),
            winter_lists=gamelists.winter_games_of(player),
            winter_rating=selectors.winter_rating_of(player),
            winter_rating_chart=charts.winter_rating_chart(gamelists.winter_rating_history(player)),
            rating_chart=charts.rating_chart(stats.rating_history),
            duplicate_chart=charts.duplicate_chart(selectors.duplicate_history(player)),
            # A link the visitor could not open (today's daily before their own) is left out.
            closed_replays=selectors.replays_closed(
                request.user, (entry.game_id for entry in stats.history[:20])
            ),
        )
    return render(request, "accounts/profile.html", context)
