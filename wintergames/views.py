"""Pages of Carcassonne: Winter Edition. Thin: read the request, call a service, render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.http import replace_url

import winter
from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from core import tokens
from core.durations import duration_label
from core.errors import ActionRefused
from core.ids import is_row_id
from core.polls import poll
from wintergames import boardhtml, selectors, services
from wintergames.boardview import game_page, parse_at, parse_rotation, replay_page
from wintergames.models import WinterGame, WinterSeat
from wintergames.pollstate import poll_states
from wintergames.rebuild import fresh_game, replay, seat_name, winter_game

RULES_TILES = ("WinD", "WinE", "WinF", "WinA", "WinU", "WinL")
FOLLOWER_NAMES = frozenset(("N", "E", "S", "W", "cloister", *winter.HALF_SIDES))


def poll_token(request: HtmxHttpRequest, pk: int) -> str:
    return tokens.mint(tokens.Scope.WINTER_GAME, tokens.session_cookie(request), pk)


#: The new-game form's field of the time per turn, one per timed pace: the one of the
#: pace chosen is read, the other ignored (left out: the pace's default).
TURN_FIELDS = {
    WinterGame.Pace.LIVE: "live_turn",
    WinterGame.Pace.CORRESPONDENCE: "correspondence_turn",
}


def _turn_selects() -> list[dict[str, object]]:
    labels = {
        WinterGame.Pace.LIVE: _("Time per turn (live)"),
        WinterGame.Pace.CORRESPONDENCE: _("Time per turn (correspondence)"),
    }
    selects = []
    for pace, name in TURN_FIELDS.items():
        default = services.DEFAULT_TURN[pace]
        options = [(seconds, duration_label(seconds)) for seconds in services.TURN_SECONDS[pace]]
        selects.append(
            {
                "name": name,
                "label": labels[pace],
                "options": options,
                "default": int(default.total_seconds()),
            }
        )
    return selects


def home(request: HtmxHttpRequest, *, status: int = 200) -> HttpResponse:
    """The game's page: how to play, a new game, the games waiting for players."""
    context = {
        "open_games": selectors.games_open(),
        "mine": selectors.games_of(request.user) if request.user.is_authenticated else [],
        "paces": WinterGame.Pace.choices,
        "levels": WinterSeat.Level.choices,
        "turn_selects": _turn_selects(),
    }
    return render(request, "wintergames/home.html", context, status=status)


def rules_page(request: HtmxHttpRequest) -> HttpResponse:
    """The rules in our own words, with a few tiles drawn."""
    tiles = [(name, boardhtml.tile_svg(name, 0)) for name in RULES_TILES]
    return render(request, "wintergames/rules.html", {"tiles": tiles})


def _turn_seconds(post: QueryDict, pace: str) -> int | None:
    field = TURN_FIELDS.get(WinterGame.Pace(pace)) if pace in WinterGame.Pace.values else None
    raw = post.get(field, "") if field else ""
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 7:
        raise ActionRefused(_("The form could not be read."))
    return int(raw)


def _small_int(raw: str, lowest: int, highest: int) -> int:
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 2:
        raise ActionRefused(_("The form could not be read."))
    value = int(raw)
    if not lowest <= value <= highest:
        raise ActionRefused(_("The form could not be read."))
    return value


@login_required
@require_POST
def game_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Create a game from the form and go to it."""
    post = request.POST
    try:
        game = services.game_create(
            user=request.user,
            players=_small_int(post.get("players", ""), 2, 5),
            computers=_small_int(post.get("computers", "0") or "0", 0, 4),
            level=post.get("level", "normal") or "normal",
            farmers=post.get("farmers") == "on",
            pace=post.get("pace", ""),
            # A checkbox sends nothing when off: only the form's marker tells "off" from an
            # older caller that knows no aids (on for them).
            aids=post.get("aids") == "on" if "aids_shown" in post else True,
            turn_seconds=_turn_seconds(post, post.get("pace", "")),
        )
    except ActionRefused as error:
        # The form's page again, the reason above it, with the refusal's status.
        messages.error(request, error.messages[0])
        return home(request, status=error.status)
    return redirect("winter:detail", pk=game.pk)


def _load(pk: int) -> tuple[WinterGame, list[WinterSeat], winter.Game]:
    game = WinterGame.objects.filter(pk=pk).first()
    if game is None:
        raise Http404(_("No such game."))
    # Clocks are enforced whenever a game is looked at.
    if services.deadline_passed(game) and services.deadlines_enforce(game_id=pk):
        game.refresh_from_db()
    seats = list(game.seats.select_related("user").order_by("position"))
    return game, seats, winter_game(game, seats)


def _viewer(request: HtmxHttpRequest, seats: list[WinterSeat]) -> WinterSeat | None:
    if not request.user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == request.user.pk), None)


def _render(
    request: HtmxHttpRequest,
    game: WinterGame,
    seats: list[WinterSeat],
    state: winter.Game,
    *,
    params: dict[str, str] | None = None,
    fragment: bool = False,
    status: int = 200,
    error: str | None = None,
) -> HttpResponse:
    viewer = _viewer(request, seats)
    base_url = reverse("winter:detail", kwargs={"pk": game.pk})
    context = game_page(game, seats, state, viewer, params=params or {}, base_url=base_url)
    context.update(
        viewer=viewer,
        poll_token=poll_token(request, game.pk),
        error=error,
        joinable=(
            game.status == WinterGame.Status.OPEN
            and viewer is None
            and any(seat.is_open for seat in seats)
        ),
        **_table_context(request, game, seats),
    )
    template = "wintergames/game.html#board" if fragment else "wintergames/game.html"
    return render(request, template, context, status=status)


def _table_context(
    request: HtmxHttpRequest,
    game: WinterGame,
    seats: list[WinterSeat],
) -> dict[str, object]:
    # The clock's length, the open table's controls and the finished game's rematch.
    length = services.turn_length(game)
    context: dict[str, object] = {
        "turn_label": duration_label(int(length.total_seconds())) if length else "",
        "opener": (
            game.status == WinterGame.Status.OPEN
            and request.user.is_authenticated
            and game.created_by_id == request.user.pk
        ),
        "levels": WinterSeat.Level.choices,
        "computer_seats": [seat for seat in seats if seat.is_bot],
        "seat_open": any(seat.is_open for seat in seats),
    }
    if game.is_finished:
        rematch = WinterGame.objects.filter(rematch_of=game).first()
        if rematch is not None:
            by = next((seat for seat in seats if seat.user_id == rematch.created_by_id), None)
            context.update(
                rematch=rematch,
                rematch_by=seat_name(by) if by is not None else "",
                rematch_mine=(
                    request.user.is_authenticated
                    and rematch.seats.filter(user_id=request.user.pk).exists()
                ),
            )
    return context


@never_cache
def game_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The game page; for an htmx request, the board fragment (a draft step)."""
    if not is_row_id(pk):
        raise Http404(_("No such game."))
    game, seats, state = _load(pk)
    params = {key: request.GET.get(key, "")[:20] for key in ("at", "rotation", "follower")}
    return _render(request, game, seats, state, params=params, fragment=bool(request.htmx))


@login_required
@require_POST
def game_play(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Play the signed-in player's turn: ``at`` (``row,col``), ``rotation``, ``follower``."""
    post = request.POST
    url = reverse("winter:detail", kwargs={"pk": pk})
    try:
        at = parse_at(post.get("at", ""))
        rotation = parse_rotation(post.get("rotation", ""))
        follower = post.get("follower", "") or None
        raw_turn = post.get("turn", "")
        if at is None or rotation is None:
            raise ActionRefused(_("The move could not be read: a place and a rotation, please."))
        if follower is not None and follower not in FOLLOWER_NAMES:
            raise ActionRefused(_("The move could not be read: no such follower place."))
        turn_number = None
        if raw_turn:
            if not (raw_turn.isascii() and raw_turn.isdigit()) or len(raw_turn) > 3:
                raise ActionRefused(_("The form could not be read."))
            turn_number = int(raw_turn)
        played = services.turn_play(
            game_id=pk,
            user=request.user,
            at=at,
            rotation=rotation,
            follower=follower,
            turn_number=turn_number,
        )
    except ActionRefused as error:
        message = error.messages[0]
        if error.status == 404:
            raise Http404(message) from None
        if request.htmx and WinterGame.objects.filter(pk=pk).exists():
            game, seats, state = _load(pk)
            return _render(
                request, game, seats, state, fragment=True, status=error.status, error=message
            )
        return HttpResponse(message, status=error.status, content_type="text/plain")
    if request.htmx:
        # Drawn from what the commit read and worked out under its lock: no second load.
        board = _render(request, played.game, played.seats, played.state, fragment=True)
        return replace_url(board, url)
    return redirect(url)


@login_required
@require_POST
def game_join(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Take an open seat."""
    try:
        services.game_join(game_id=pk, user=request.user)
    except ActionRefused as error:
        if error.status == 404:
            raise Http404(error.messages[0]) from None
        messages.error(request, error.messages[0])
    return redirect("winter:detail", pk=pk)


@login_required
@require_POST
def game_resign(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Leave a game in play; the computer plays the seat on."""
    try:
        services.game_resign(game_id=pk, user=request.user)
    except ActionRefused as error:
        if error.status == 404:
            raise Http404(error.messages[0]) from None
        messages.error(request, error.messages[0])
    return redirect("winter:detail", pk=pk)


def _action_refused(request: HtmxHttpRequest, error: ActionRefused, pk: int) -> HttpResponse:
    # A stale button (the table changed meanwhile) brings the page back with the reason;
    # a request that can never succeed gets its status.
    message = error.messages[0]
    if error.status == 404:
        raise Http404(message)
    if error.status == 409:
        messages.error(request, message)
        return redirect("winter:detail", pk=pk)
    return HttpResponse(message, status=error.status, content_type="text/plain")


def _check_pk(pk: int) -> None:
    if not is_row_id(pk):
        raise Http404(_("No such game."))


@login_required
@require_POST
def game_rematch(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Open the rematch of a finished game, or take one's seat in it; go to it."""
    _check_pk(pk)
    try:
        rematch = services.game_rematch(game_id=pk, user=request.user)
    except ActionRefused as error:
        return _action_refused(request, error, pk)
    return redirect("winter:detail", pk=rematch.pk)


@login_required
@require_POST
def game_leave(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Give up one's seat at a game still waiting for players."""
    _check_pk(pk)
    try:
        services.game_leave(game_id=pk, user=request.user)
    except ActionRefused as error:
        return _action_refused(request, error, pk)
    return redirect("winter:home")


@login_required
@require_POST
def game_cancel(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Call off a game still waiting for players (its opener only)."""
    _check_pk(pk)
    try:
        services.game_cancel(game_id=pk, user=request.user)
    except ActionRefused as error:
        if error.status == 404:
            # Gone already: a second click of the same button, say.
            return redirect("winter:home")
        return _action_refused(request, error, pk)
    messages.success(request, _("This game was cancelled."))
    return redirect("winter:home")


@login_required
@require_POST
def computer_add(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Seat a computer player (``level``) in an open seat; ``v``: the version seen."""
    _check_pk(pk)
    raw = request.POST.get("v", "")
    try:
        if raw and not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
            raise ActionRefused(_("The form could not be read."))
        services.seat_add_computer(
            game_id=pk,
            user=request.user,
            level=request.POST.get("level", ""),
            version=int(raw) if raw else None,
        )
    except ActionRefused as error:
        return _action_refused(request, error, pk)
    return redirect("winter:detail", pk=pk)


@login_required
@require_POST
def computer_remove(request: AuthenticatedHttpRequest, pk: int, seat: int) -> HttpResponse:
    """Take a computer player out: its seat is open for a person again."""
    _check_pk(pk)
    if not is_row_id(seat):
        raise Http404(_("No such computer player in this game."))
    try:
        services.seat_remove_computer(game_id=pk, user=request.user, seat_id=seat)
    except ActionRefused as error:
        return _action_refused(request, error, pk)
    return redirect("winter:detail", pk=pk)


def game_record(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The ``winter-game/1`` record so far, with the status, who moves, the tile they drew
    and the scores. Never a tile not yet drawn."""
    if not is_row_id(pk):
        raise Http404(_("No such game."))
    game, seats, state = _load(pk)
    if game.status == WinterGame.Status.OPEN:
        raise Http404(_("The game has not started yet."))
    record = winter.game_to_record(state)
    names = [seat_name(seat) for seat in seats]
    record["status"] = "running" if game.is_running else "finished"
    if game.is_running:
        record["to_move"] = names[state.to_move]
        record["next"] = state.drawn
        totals = state.scores
    else:
        totals = tuple(seat.score or 0 for seat in seats)
    record["scores"] = dict(zip(names, totals, strict=True))
    answer = JsonResponse(record, json_dumps_params={"indent": 1})
    if request.GET.get("download") == "1":
        answer["Content-Disposition"] = f'attachment; filename="winter-game-{game.pk}.json"'
    return answer


#: Longest ``turn`` read as a number: anything longer is past the last turn anyway.
TURN_DIGITS = 6


@never_cache
def game_replay(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The board after turn ``turn`` (0 is the start; none or past the end: the last turn
    played), with links to step through. Public for a started game: it shows only turns
    already played, never a drawn tile."""
    if not is_row_id(pk):
        raise Http404(_("No such game."))
    game = WinterGame.objects.filter(pk=pk).first()
    if game is None or game.status == WinterGame.Status.OPEN:
        raise Http404(_("No such game."))
    seats = list(game.seats.select_related("user").order_by("position"))
    entries = [turn.entry for turn in game.turns.order_by("number")]
    raw = request.GET.get("turn", "")
    if raw and not (raw.isascii() and raw.isdigit()):
        return HttpResponse(_("The turn could not be read."), status=400)
    number = len(entries) if not raw or len(raw) > TURN_DIGITS else min(int(raw), len(entries))
    state = replay(fresh_game(game, seats), entries[:number]).copy(hide_order=True)
    context = replay_page(game, seats, state, number, len(entries))
    return render(request, "wintergames/replay.html", context)


@poll
def game_poll(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Has the game changed since version ``v``? 204 if not; else the board fragment.

    The unchanged answer, which almost every poll gets, reads the version from the cache
    (``wintergames.pollstate``), not the database, and does not load the session; the
    page's token shows that this session may watch the game, and without it the game
    answers as a missing one.
    """
    if not tokens.is_valid(
        request.GET.get("t", ""), tokens.Scope.WINTER_GAME, tokens.session_cookie(request), pk
    ):
        raise Http404(_("No such game."))
    raw = request.GET.get("v", "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        return HttpResponse(_("The version could not be read."), status=400)
    row = poll_states.get(pk)
    if row is None:
        raise Http404(_("No such game."))
    version, deadline = row
    if version == int(raw) and (deadline is None or deadline > timezone.now()):
        return HttpResponse(status=204)
    game, seats, state = _load(pk)
    return _render(request, game, seats, state, fragment=True)
