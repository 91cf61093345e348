"""The first game's pages. Thin: read the request, ask the lesson's judge, render.

Progress lives in a signed cookie (no account, no session row): the numbers of the steps
passed, for signed-in learners too.
Nothing is stored but a passed step, so a refused or malformed action changes nothing.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import replace_url

from accounts.http import HtmxHttpRequest, read_numbers_cookie, write_numbers_cookie
from games.boardview import Draft, landscape_view, round_view
from learn.lessons import STEPS, Step, Verdict

COOKIE = "learn_passed"


def _passed(request: HtmxHttpRequest) -> set[int]:
    steps = {s.number for s in STEPS}
    return {n for n in read_numbers_cookie(request, COOKIE) if n in steps}


def _next_url(passed: set[int]) -> str:
    """The first step not passed yet; the finish page once all are."""
    number = next((s.number for s in STEPS if s.number not in passed), None)
    return reverse("learn:finish") if number is None else reverse("learn:step", args=[number])


@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    """The overview: what the first game teaches, and where to start or go on."""
    passed = _passed(request)
    return render(
        request,
        "learn/index.html",
        {"steps": STEPS, "passed": passed, "next_url": _next_url(passed)},
    )


@require_http_methods(["GET", "POST"])
def step(request: HtmxHttpRequest, number: int) -> HttpResponse:
    """A lesson: GET shows it with the draft of the address; POST submits the turn."""
    if not 1 <= number <= len(STEPS):
        raise Http404
    lesson = STEPS[number - 1]
    params: QueryDict = request.POST if request.method == "POST" else request.GET
    try:
        draft = Draft.from_params(params)
    except ValueError:
        return HttpResponse(
            _("That choice could not be read."), status=400, content_type="text/plain"
        )
    if request.method == "GET":
        return _render(request, lesson, draft, shown=params.get("show") == "1")
    try:
        turn = draft.turn()
    except ValueError as error:
        return HttpResponse(str(error), status=400, content_type="text/plain")
    verdict = lesson.judge(turn)
    passed = _passed(request) | ({lesson.number} if verdict.passed else set())
    # A refused move stays on the board (and in the address) to be turned or moved.
    kept = Draft() if verdict.passed else draft
    response = _render(request, lesson, kept, verdict=verdict, passed=passed)
    if verdict.passed:
        write_numbers_cookie(response, COOKIE, sorted(passed))
    if not verdict.legal:
        response.status_code = 422
    url = reverse("learn:step", args=[lesson.number])
    return replace_url(response, f"{url}?{kept.params()}" if kept.card_at is not None else url)


def _render(
    request: HtmxHttpRequest,
    lesson: Step,
    draft: Draft,
    *,
    verdict: Verdict | None = None,
    shown: bool = False,
    passed: set[int] | None = None,
) -> HttpResponse:
    passed = _passed(request) if passed is None else passed
    context: dict[str, object] = {
        "lesson": lesson,
        "steps": STEPS,
        "total": len(STEPS),
        "passed": passed,
        "verdict": verdict,
        "shown": shown,
        "show_me": Draft.from_turn(lesson.expected).params() + "&show=1",
        "oob": bool(request.htmx),
    }
    if verdict is not None and verdict.passed:
        context["result"] = landscape_view(verdict.board, draft_at=_placed_at(verdict))
    else:
        context["round"] = round_view(lesson.board, lesson.card, lesson.variants, draft)
    if lesson.number < len(STEPS):
        context["next_url"] = reverse("learn:step", args=[lesson.number + 1])
    else:
        context["next_url"] = reverse("learn:finish")
    template = "learn/step.html"
    if request.htmx and not request.htmx.boosted:
        template += "#board"
    return render(request, template, context)


def _placed_at(verdict: Verdict) -> tuple[int, int]:
    return verdict.board.cards[-1].card_at


@require_GET
def finish(request: HtmxHttpRequest) -> HttpResponse:
    """The end of the first game: how far the learner got, and where to play next."""
    passed = _passed(request)
    done = len(passed & {s.number for s in STEPS})
    return render(
        request,
        "learn/finish.html",
        {
            "passed": done,
            "total": len(STEPS),
            "complete": done == len(STEPS),
            "next_url": _next_url(passed),
        },
    )
