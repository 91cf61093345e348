"""Puzzle pages. Thin: read the request, call a service or selector, render."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import InvalidPage, Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

import rules
from accounts.http import (
    AuthenticatedHttpRequest,
    HtmxHttpRequest,
    read_numbers_cookie,
    write_numbers_cookie,
)
from core.errors import ActionRefused
from games import analysis
from games.boardview import BoardView, Draft, landscape_view, round_view
from games.daily import today
from puzzles import selectors, services
from puzzles.models import Attempt, Puzzle, PuzzlePlayer
from puzzles.positions import NEAR_MISS, Grade, Position

#: Puzzles answered signed out in this browser (their solutions shown), skipped by the next
#: one. Kept in a signed cookie, not the session (a visitor's POST adds no session row); it
#: outlives signing in: an answer to one of them once signed in is not rated.
SEEN_COOKIE = "puzzles_seen"
MAX_SEEN = 200
#: Answers a page of the history lists.
HISTORY_PAGE = 25


@dataclass(frozen=True)
class Result:
    """An answer as the page shows it, the computer's turn beside it."""

    grade: str
    turn_board: BoardView
    best_board: BoardView | None
    value: str
    best_value: str
    loss: str
    gap: str
    advice: str
    rated: bool
    solution_seen: bool
    repeated: bool
    retry: bool
    rating_before: str
    rating_after: str


@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    """The next puzzle, chosen near the player's puzzle rating; never the day's puzzle,
    which a newcomer's first answer would otherwise spend without their knowing it."""
    player = selectors.player_of(request.user)
    seen = _seen(request)
    daily = selectors.daily_puzzle_id(today())
    # The same puzzle until it is answered: a reload shows it again.
    seed = (request.user.pk, player.attempts if player else 0, len(seen))
    puzzle = selectors.next_puzzle(
        request.user,
        player.rating if player else None,
        exclude=[*seen, *([daily] if daily else [])],
        seed=seed,
    )
    return _page(request, puzzle, player, kind="next")


@require_GET
def daily(request: HtmxHttpRequest) -> HttpResponse:
    """The day's puzzle, the same for everyone."""
    player = selectors.player_of(request.user)
    return _page(request, selectors.daily_puzzle(today()), player, kind="daily")


@require_GET
def detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """One puzzle; the draft of the answer lives in the address, as on the game page."""
    puzzle = get_object_or_404(Puzzle, pk=pk)
    return _page(request, puzzle, selectors.player_of(request.user), kind="one")


@require_POST
def answer(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Grade the POSTed turn; show the computer's best turn and why."""
    puzzle = get_object_or_404(Puzzle, pk=pk)
    given = _graded(
        request,
        puzzle,
        "one",
        lambda turn: services.puzzle_answer(
            puzzle=puzzle, user=request.user, turn=turn, solution_seen=puzzle.pk in _seen(request)
        ),
    )
    if isinstance(given, HttpResponse):
        return given
    result = _result(
        given.puzzle,
        selectors.position_of(puzzle),
        given.turn,
        given.value,
        given.grade,
        given.attempt,
        repeated=given.repeated,
        # Shown signed out, the computer's turn would hand the answer to an account that
        # then answers rated (in another session as easily as in this one): a visitor
        # learns how good their turn was, and the best one by finding it.
        show_best=request.user.is_authenticated or given.grade == Grade.SOLVED,
    )
    player = selectors.player_of(request.user)
    response = _page(request, given.puzzle, player, kind="one", result=result)
    if not request.user.is_authenticated:
        seen = [pk for pk in _seen(request) if pk != puzzle.pk]
        write_numbers_cookie(response, SEEN_COOKIE, [*seen, puzzle.pk][-MAX_SEEN:])
    return response


@login_required
@require_GET
def retry(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A fresh board of a puzzle the player has answered, to try again unrated; a puzzle
    not answered yet is answered on its own page first."""
    puzzle = get_object_or_404(Puzzle, pk=pk)
    if selectors.attempt_of(request.user, puzzle) is None:
        return redirect("puzzles:detail", pk=puzzle.pk)
    return _page(request, puzzle, selectors.player_of(request.user), kind="retry")


@login_required
@require_POST
def retry_answer(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Grade a retry: its grade and the computer's turn, no rating moved."""
    puzzle = get_object_or_404(Puzzle, pk=pk)
    given = _graded(
        request,
        puzzle,
        "retry",
        lambda turn: services.puzzle_retry(puzzle=puzzle, user=request.user, turn=turn),
    )
    if isinstance(given, HttpResponse):
        return given
    result = _result(
        puzzle,
        selectors.position_of(puzzle),
        given.turn,
        given.value,
        given.grade,
        given.attempt,
        repeated=False,
        retry=True,
    )
    return _page(request, puzzle, selectors.player_of(request.user), kind="retry", result=result)


@login_required
@require_GET
def history(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The player's answers to puzzles, the latest first: grade and rating change."""
    number = request.GET.get("page", "1")
    try:
        page = Paginator(selectors.attempts_of(request.user), HISTORY_PAGE).page(number)
    except InvalidPage:
        raise Http404 from None
    context = {"page": page, "player": selectors.player_of(request.user)}
    return render(request, "puzzles/history.html", context)


def _graded(
    request: HtmxHttpRequest,
    puzzle: Puzzle,
    kind: str,
    grade: Callable[[rules.Turn], services.Answer],
) -> services.Answer | HttpResponse:
    # The POSTed turn graded by ``grade``, or the page again with why not: an unreadable
    # turn or a refusal (400), a forbidden answer (403).
    status = 400
    try:
        turn = Draft.from_params(request.POST).turn()
    except ValueError:
        error = _("The turn could not be read.")
    else:
        try:
            return grade(turn)
        except ActionRefused as refused:
            error = refused.messages[0]
        except PermissionDenied as refused:
            error, status = str(refused), 403
    player = selectors.player_of(request.user)
    return _page(request, puzzle, player, kind=kind, error=error, status=status)


def _seen(request: HtmxHttpRequest) -> list[int]:
    return read_numbers_cookie(request, SEEN_COOKIE)[-MAX_SEEN:]


def _page(
    request: HtmxHttpRequest,
    puzzle: Puzzle | None,
    player: PuzzlePlayer | None,
    *,
    kind: str,
    result: Result | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    context: dict[str, object] = {
        "puzzle": puzzle,
        "player": player,
        "kind": kind,
        "error": error,
        "near_miss": number_format(NEAR_MISS, 1),
        # Answered with htmx, the board alone is drawn: the status line above it follows.
        "oob_status": bool(request.htmx) and result is not None,
    }
    if puzzle is not None:
        position = selectors.position_of(puzzle)
        context["card"] = position.card
        if kind == "one":
            # Not spent unknowingly: its own page says that it is the day's puzzle.
            context["is_daily"] = puzzle.pk == selectors.daily_puzzle_id(today())
        # The next puzzle is one the player has not answered: no need to look; a retry
        # draws a fresh board whatever the first answer was.
        if result is None and kind not in ("next", "retry"):
            attempt = selectors.attempt_of(request.user, puzzle)
            if attempt is not None:
                result = _result(
                    puzzle,
                    position,
                    rules.turn_from_json(attempt.turn),
                    attempt.value,
                    Grade(attempt.result),
                    attempt,
                    repeated=True,
                )
        if result is None:
            params = request.POST if request.method == "POST" else request.GET
            try:
                draft = Draft.from_params(params)
            except ValueError:
                draft, error, status = Draft(), _("The turn could not be read."), 400
                context["error"] = error
            context["round"] = round_view(position.board, position.card, position.variants, draft)
        context["result"] = result
        if kind == "retry":
            context["base_url"] = reverse("puzzles:retry", kwargs={"pk": puzzle.pk})
            context["answer_url"] = reverse("puzzles:retry_answer", kwargs={"pk": puzzle.pk})
        else:
            context["base_url"] = reverse("puzzles:detail", kwargs={"pk": puzzle.pk})
            context["answer_url"] = reverse("puzzles:answer", kwargs={"pk": puzzle.pk})
    template = "puzzles/puzzle.html"
    if request.htmx:
        template += "#board"
    return render(request, template, context, status=status)


def _result(
    puzzle: Puzzle,
    position: Position,
    turn: rules.Turn,
    value: float,
    grade: Grade,
    attempt: Attempt | None,
    *,
    repeated: bool,
    show_best: bool = True,
    retry: bool = False,
) -> Result:
    best_value, best = position.valued()[0]
    played = rules.turn_to_json(turn)
    advice = ""
    if show_best and grade != Grade.SOLVED:
        advice = analysis.advice(played, rules.turn_to_json(best))
    board = position.board
    return Result(
        grade=grade.value,
        turn_board=landscape_view(board.play(position.card, turn, position.variants)),
        best_board=(
            landscape_view(board.play(position.card, best, position.variants))
            if show_best
            else None
        ),
        value=number_format(round(value, 1), 1),
        best_value=number_format(round(best_value, 1), 1),
        loss=number_format(round(max(0.0, best_value - value), 1), 1),
        gap=number_format(round(puzzle.gap, 1), 1),
        advice=advice,
        rated=not retry and attempt is not None and attempt.rated,
        solution_seen=not retry and attempt is not None and not attempt.rated,
        repeated=repeated,
        retry=retry,
        rating_before=number_format(round(attempt.rating_before), 0) if attempt else "",
        rating_after=number_format(round(attempt.rating_after), 0) if attempt else "",
    )
