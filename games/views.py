"""Pages and HTMX fragments of games. Thin: read the request, call a service, render."""

from __future__ import annotations

import datetime
from urllib.parse import quote

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import (
    Http404,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
    QueryDict,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh, replace_url

import rules
from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from accounts.selectors import vacations_until
from core import tokens
from core.errors import ActionRefused
from core.polls import poll
from games import (
    analysis,
    computer,
    export,
    framing,
    policy,
    rebuild,
    selectors,
    services,
    throttle,
)
from games.boardview import Draft, game_page, replay_page
from games.forms import (
    AddBotForm,
    JoinByCodeForm,
    MyGamesFilterForm,
    NewGameForm,
    NewMultiGameForm,
)
from games.models import DataExport, Game, Lockstep, Seat
from games.pollstate import poll_state
from games.showcase import showcase


def home(request: HtmxHttpRequest) -> HttpResponse:
    """The front page: start a solo game, and the player's running and recent games."""
    context: dict[str, object] = {"form": NewGameForm()}
    if request.user.is_authenticated:
        games = list(selectors.games_of(request.user)[:20])
        context["running"] = [g for g in games if g.is_active or g.is_open]
        context["finished"] = [g for g in games if g.is_finished][:10]
    else:
        context["showcase"] = showcase()
    return render(request, "games/home.html", context)


def rules_page(request: HtmxHttpRequest) -> HttpResponse:
    """How to play, in our own words, with the deck's cards drawn."""
    return render(request, "games/rules.html", {"cards": list(rebuild.deck())})


@login_required
@require_POST
def game_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Start a solo game with the chosen variants."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Please choose the variants again."))
        return redirect("games:home")
    try:
        game = services.game_create_solo(
            user=request.user,
            diagonal=form.cleaned_data["diagonal"],
            ferryman=form.cleaned_data["ferryman"],
        )
    except ActionRefused as error:
        messages.error(request, error.messages[0])
        return redirect("games:home")
    return redirect("games:detail", pk=game.pk)


def _game_or_404(pk: int) -> Game:
    game = selectors.game_with_seats(pk)
    if game is None:
        raise Http404(_("No such game."))
    return game


def _load(request: HtmxHttpRequest, pk: int) -> tuple[Game, rules.Game, Seat | None]:
    game = _game_or_404(pk)
    # Deadlines are enforced whenever a game is looked at, not only by the scheduler.
    if services.deadlines_enforce(game=game):
        game = _game_or_404(pk)
    seat = policy.seat_of(game.seats.all(), request.user)
    if not policy.can_watch(game, request.user, seat):
        raise Http404(_("No such game."))
    return game, rebuild.rules_game(game, list(game.seats.all())), seat


# The page must be asked for again on Back: a copy from the cache would offer a round
# that was already committed.
@never_cache
def game_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The game page; for an htmx request, just the board fragment for the draft."""
    game, state, seat = _load(request, pk)
    return _render_game(request, game, state, seat, draft_params=request.GET)


def _render_game(
    request: HtmxHttpRequest,
    game: Game,
    state: rules.Game,
    seat: Seat | None,
    *,
    draft_params: QueryDict,
    error: str | None = None,
    status: int = 200,
    template: str = "games/game.html#board",
    committed: dict[str, int] | None = None,
) -> HttpResponse:
    if not request.htmx:
        template = "games/game.html"
    # A draft's fragment is the board alone: the table is drawn only where it is shown.
    with_table = template != "games/game.html#board"
    context = game_page(
        game,
        state,
        seat,
        draft_params=draft_params,
        error=error,
        with_table=with_table,
        # A commit's answer draws the round it began, if any: no drafting data kept yet.
        round_begun=committed is not None,
    )
    context["committed"] = committed
    if with_table:
        context["frame"] = frame = framing.frame_of(game)
        context.update(
            _page_extras(request, game, seat, final="final" in context, framed=frame is not None)
        )
        context["shareable"] = policy.can_share(game, game.seats.all())
        context["away"] = _away(game, seat)
    context["poll_token"] = tokens.poll_token(game.pk, tokens.session_cookie(request))
    return render(request, template, context, status=status)


def _away(game: Game, viewer: Seat | None) -> list[tuple[str, datetime.datetime, bool]]:
    """The players of a correspondence game in play who are on vacation, until when, and
    whether that player is the one looking (who reads of "you", not of their own name)."""
    if not game.is_active or game.pace != Game.Pace.CORRESPONDENCE or game.lockstep_id:
        return []
    seats = [s for s in game.seats.all() if s.user_id and s.status == Seat.Status.PLAYING]
    until = vacations_until(s.user_id for s in seats if s.user_id)
    mine = viewer.pk if viewer is not None else None
    return [(s.display_name, until[s.user_id], s.pk == mine) for s in seats if s.user_id in until]


def _page_extras(
    request: HtmxHttpRequest, game: Game, seat: Seat | None, *, final: bool, framed: bool = False
) -> dict[str, object]:
    """What the whole page shows around the board: a hidden result, Play again, bests."""
    extras: dict[str, object] = {}
    if seat is None or not game.is_finished:
        return extras
    if game.hidden:
        extras["hidden_notice"] = _(
            "A moderator hid this game: it counts on no board. It stays here for you."
        )
    if game.mode == Game.Mode.SOLO:
        standing = selectors.solo_standing(game, seat.user) if seat.user else None
        # A sealed deal's result joins the boards when the tournament ends: no rank yet.
        if standing is not None and not game.hidden and not policy.is_sealed(game):
            result = game.solo_result
            if result.hidden:
                extras["hidden_notice"] = _(
                    "A moderator hid this result: it counts on no board. It stays here for you."
                )
            extras["standing"] = {
                "best": standing.best,
                "is_new_best": standing.is_new_best,
                "is_best": standing.is_best,
                "rank": standing.rank,
                "board_url": reverse(
                    "leaderboards:board", kwargs={"ruleset": game.ruleset, "kind": "best"}
                ),
            }
    if final and framed:
        pass  # made by an app above (a tournament's deal): it says what comes next
    elif final and game.lockstep_id is not None:
        # A live table's game: the next deal is dealt from where the table came from.
        back = Lockstep.objects.filter(pk=game.lockstep_id).values_list("back_url", flat=True)
        extras["live_back"] = back.first() or ""
    elif final:
        extras["play_again"] = _play_again(game, seat)
    return extras


def _play_again(game: Game, seat: Seat) -> dict[str, object] | None:
    """A form that opens a new game with this game's rules (a solo game after a daily).

    After a multiplayer game, a rematch: the first to ask opens it, the others see the
    offer here and accept it with one click.
    """
    if game.mode == Game.Mode.SOLO:
        fields: list[tuple[str, object]] = []
        if game.diagonal:
            fields.append(("diagonal", "on"))
        if game.ferryman:
            fields.append(("ferryman", "on"))
        return {"url": reverse("games:new"), "fields": fields}
    if seat.user_id is None:
        return None
    url = reverse("games:rematch", kwargs={"pk": game.pk})
    rematch = selectors.rematch_offer(game)
    if rematch is None:
        return {"url": url, "fields": []}
    joined = any(s.user_id == seat.user_id for s in rematch.seats.all())
    if not joined and not rematch.is_open:
        return None
    return {
        "url": url,
        "fields": [],
        "rematch": rematch,
        "joined": joined,
        "offered_by": rematch.created_by.username if rematch.created_by else "",
    }


def _total(state: rules.Game, seat: Seat | None) -> int | None:
    if seat is None:
        return None
    return state.boards[rebuild.player_key(seat)].landscape.score().total


@login_required
@require_POST
def game_play(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Commit the round in the POSTed draft; errors re-render the board with a message."""
    try:
        round_number = int(request.POST.get("round", ""))
        draft = Draft.from_params(request.POST)
    except ValueError:
        return _rejected(request, pk, _("The move could not be read."), 400)
    try:
        turn = draft.turn()
    except ValueError as error:
        return _rejected(request, pk, str(error), 400)
    try:
        # The service reads the game under its lock: no need to read it here first.
        commit = services.move_submit(
            game_id=pk, user=request.user, round_number=round_number, turn=turn
        )
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None
    except ActionRefused as error:
        return _rejected(request, pk, error.messages[0], error.status)
    except PermissionDenied:
        return _rejected(request, pk, _("You do not play in this game."), 403)
    url = reverse("games:detail", kwargs={"pk": pk})
    if request.htmx:
        # Drawn from what the commit read and worked out under its lock: no second load,
        # no replay. The player's own seat: the page is theirs to see.
        game = selectors.with_seats(commit.game, commit.seats)
        state, seat = commit.state, commit.seat
        committed = None
        if commit.before is not None:
            after = _total(state, seat)
            assert after is not None
            committed = {"gained": after - commit.before.landscape.score().total, "total": after}
        # The answer also refreshes the table: this player now shows as having played.
        response = _render_game(
            request,
            game,
            state,
            seat,
            draft_params=QueryDict(),
            template="games/_update.html",
            committed=committed,
        )
        # A new round is no new page: Back leaves the game rather than step through rounds.
        return replace_url(response, url)
    return redirect(url)


def _rejected(
    request: AuthenticatedHttpRequest, pk: int, message: str, status: int
) -> HttpResponse:
    game = get_object_or_404(selectors.games_with_seats(), pk=pk)
    seat = policy.seat_of(game.seats.all(), request.user)
    if seat is None:
        if request.htmx:
            return HttpResponseClientRedirect(reverse("games:home"))
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    if not request.htmx:
        messages.error(request, message)
    game, state, seat = _load(request, game.pk)
    return _render_game(
        request, game, state, seat, draft_params=request.POST, error=message, status=status
    )


def game_replay(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Step through a finished game's rounds; ``?round=N`` shows the board after round N."""
    game = get_object_or_404(selectors.games_with_seats(), pk=pk)
    if not game.is_finished:
        raise Http404(_("A game can be replayed once it is over."))
    if not policy.can_watch(game, request.user, policy.seat_of(game.seats.all(), request.user)):
        raise Http404(_("No such game."))
    try:
        wanted = int(request.GET.get("round", ""))
    except ValueError:
        wanted = None
    context = replay_page(game, wanted_round=wanted)
    template = "games/replay.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


def game_record(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The game's ``limes-game/1`` record as a JSON download."""
    game, state, seat = _load(request, pk)
    if not (game.is_finished or (game.mode == Game.Mode.SOLO and seat is not None)):
        # A record in play would show the others' choices of the round before its end.
        raise Http404(_("The record is available once the game is over."))
    response = JsonResponse(rules.game_to_record(state), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="limes-game-{game.pk}.json"'
    return response


@login_required
@never_cache
def data_export(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The signed-in player's zip, once the task worker has prepared it; else its page."""
    made = selectors.data_export_of(request.user)
    if made is None or made.status != DataExport.Status.READY:
        return redirect("accounts:data_export_page")
    data = DataExport.objects.filter(pk=made.pk).values_list("archive", flat=True).get()
    response = HttpResponse(bytes(data), content_type="application/zip")
    name = f"limes-data-{request.user.username}.zip"
    response["Content-Disposition"] = f'attachment; filename="{quote(name)}"'
    return response


@login_required
@never_cache
def data_export_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Download my data: ask for the zip, see it being prepared (the fragment polls), get it."""
    return _data_export_render(request)


@login_required
@require_POST
def data_export_prepare(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Ask the task worker for the player's zip."""
    try:
        services.data_export_request(user=request.user)
    except ActionRefused as error:
        return _data_export_render(request, error=error.messages[0], status=error.status)
    if request.htmx:
        return _data_export_render(request)
    return redirect("accounts:data_export_page")


def _data_export_render(
    request: AuthenticatedHttpRequest, *, error: str = "", status: int = 200
) -> HttpResponse:
    made = selectors.data_export_of(request.user)
    finished = made.finished_at if made is not None else None
    context = {
        "data_export": made,
        "expires": finished + export.KEEP if finished is not None else None,
        "renewable": made is not None
        and finished is not None
        and made.requested_at <= timezone.now() - export.INTERVAL,
        "error": error,
    }
    template = "games/data_export.html"
    if request.htmx:
        template += "#data-export"
    return render(request, template, context, status=status)


# -- multiplayer -------------------------------------------------------------------------


def lobby(request: HtmxHttpRequest) -> HttpResponse:
    """Open games waiting for players, games to watch, and forms to open or join one."""
    return _render_lobby(request, "games/lobby.html")


@poll
def lobby_poll(request: HtmxHttpRequest) -> HttpResponse:
    """The lobby's list of open games if it changed ``since`` the signature; else 204."""
    if request.GET.get("since") == selectors.lobby_signature():
        return HttpResponse(status=204)
    return _render_lobby(request, "games/lobby.html#lobby-list")


def _render_lobby(request: HtmxHttpRequest, template: str) -> HttpResponse:
    signature = selectors.lobby_signature()
    page = _lobby_page_number(request)
    size = selectors.LOBBY_PAGE_SIZE
    games = list(selectors.lobby_games()[(page - 1) * size : page * size + 1])
    watch = list(selectors.games_to_watch()) if request.user.is_authenticated else []
    context = {
        "games": games[:size],
        "page": page,
        "has_next": len(games) > size,
        "watch": watch,
        # Who of the players listed is on vacation (their correspondence clocks stand still).
        "away": vacations_until(
            s.user_id for g in [*games, *watch] for s in g.seats.all() if s.user_id
        ),
        "signature": signature,
        "form": NewMultiGameForm(),
        "code_form": JoinByCodeForm(),
    }
    return render(request, template, context)


def _lobby_page_number(request: HtmxHttpRequest) -> int:
    value = request.GET.get("page", "1")
    # ASCII digits only ("²" is a digit to str.isdigit), and no more pages than games.
    if not (value.isascii() and value.isdigit()) or len(value) > 6:
        return 1
    return max(1, int(value))


@login_required
@require_POST
def game_new_multi(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Open a game for several players and go to its waiting room."""
    form = NewMultiGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Please check the choices for the new game."))
        return redirect("games:lobby")
    try:
        game = services.game_create_multi(
            user=request.user,
            seats_max=form.cleaned_data["seats_max"],
            pace=form.cleaned_data["pace"],
            round_seconds=form.round_seconds,
            listed=form.cleaned_data["listed"],
            diagonal=form.cleaned_data["diagonal"],
            ferryman=form.cleaned_data["ferryman"],
            bots=form.bot_levels,
        )
    except ActionRefused as error:
        messages.error(request, error.messages[0])
        return redirect("games:lobby")
    return redirect("games:detail", pk=game.pk)


@login_required
@require_POST
def game_add_bot(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The creator seats a computer player in a game that has not started."""
    game = get_object_or_404(Game, pk=pk)
    form = AddBotForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a level for the computer player."))
        return redirect("games:detail", pk=pk)
    try:
        services.seat_add_bot(game=game, user=request.user, level=form.cleaned_data["level"])
    except (ActionRefused, PermissionDenied) as error:
        messages.error(request, _message(error))
    return redirect("games:detail", pk=pk)


@login_required
@require_POST
def game_remove_bot(request: AuthenticatedHttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    """The creator takes a computer player out of a game that has not started."""
    game = get_object_or_404(Game, pk=pk)
    try:
        services.seat_remove_bot(game=game, user=request.user, seat_id=seat_pk)
    except (ActionRefused, PermissionDenied) as error:
        messages.error(request, _message(error))
    return redirect("games:detail", pk=pk)


@login_required
@require_POST
def game_hint(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Show the strong bot's turn as the player's draft; they may commit or change it."""
    game = get_object_or_404(Game, pk=pk)
    try:
        turn = computer.hint_take(game=game, user=request.user)
    except ActionRefused as error:
        return _rejected(request, pk, error.messages[0], error.status)
    except PermissionDenied:
        return _rejected(request, pk, _("You do not play in this game."), 403)
    draft = Draft.from_turn(turn)
    url = reverse("games:detail", kwargs={"pk": pk}) + "?" + draft.params()
    if not request.htmx:
        return redirect(url)
    game, state, seat = _load(request, pk)
    params = QueryDict(draft.params())
    response = _render_game(request, game, state, seat, draft_params=params)
    return replace_url(response, url)


@login_required
@require_POST
def game_rematch(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Open the rematch of a finished multiplayer game, or take a seat in it."""
    game = get_object_or_404(Game, pk=pk)
    try:
        rematch = services.game_rematch(game=game, user=request.user)
    except (ActionRefused, PermissionDenied) as error:
        messages.error(request, _message(error))
        return redirect("games:detail", pk=pk)
    return redirect("games:detail", pk=rematch.pk)


def game_analysis(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The post-game analysis fragment; while it is being computed, it polls for itself."""
    game = get_object_or_404(selectors.games_with_seats(), pk=pk)
    if not policy.can_watch(game, request.user, policy.seat_of(game.seats.all(), request.user)):
        raise Http404(_("No such game."))
    if not game.is_finished:
        raise Http404(_("A game is analysed once it is over."))
    context = {"game": game, "analysis": analysis.report(game)}
    return render(request, "games/_analysis.html", context)


def _act(request: AuthenticatedHttpRequest, pk: int, action: str) -> HttpResponse:
    """Run a game service for the signed-in user and go back to the game page."""
    game = get_object_or_404(Game, pk=pk)
    service = {
        "join": services.game_join,
        "leave": services.game_leave,
        "cancel": services.game_cancel,
        "start": services.game_start,
        "resign": services.seat_resign,
    }[action]
    try:
        service(game=game, user=request.user)
    except ActionRefused as error:
        messages.error(request, error.messages[0])
    except PermissionDenied as error:
        messages.error(request, str(error) or _("You can't do that in this game."))
        return redirect("games:lobby")
    if action in ("leave", "cancel"):
        return redirect("games:lobby")
    return redirect("games:detail", pk=pk)


@login_required
@require_POST
def game_join(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Take a seat in a game of the lobby."""
    return _act(request, pk, "join")


@login_required
@require_POST
def game_leave(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Give up one's seat before the game starts."""
    return _act(request, pk, "leave")


@login_required
@require_POST
def game_cancel(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The creator calls off a game that has not started."""
    return _act(request, pk, "cancel")


@login_required
@require_POST
def game_start(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The creator starts the game with the players who have joined."""
    return _act(request, pk, "start")


@login_required
@require_POST
def game_resign(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Leave a game in play for good (a solo game ends with the score so far)."""
    return _act(request, pk, "resign")


@login_required
def join_by_code(request: AuthenticatedHttpRequest, code: str | None = None) -> HttpResponse:
    """An invitation: show the game behind the code, and join it on POST."""
    if code is None:
        form = JoinByCodeForm(request.GET)
        if not form.is_valid():
            messages.error(request, _("Enter the invitation code you were given."))
            return redirect("games:lobby")
        return redirect("games:join", code=form.cleaned_data["code"])
    # Every look-up waits while too many wrong guesses are counted, the right code too:
    # otherwise guessing could go on, with only the hits answered.
    if throttle.code_guesses_blocked(request):
        return render(request, "429.html", status=429)
    game = selectors.game_by_invite_code(code)
    if game is None:
        throttle.code_miss_record(request)
        messages.error(request, _("No game has the invitation code %s.") % code)
        return redirect("games:lobby")
    if request.method == "POST":
        try:
            services.game_join(game=game, user=request.user, code=code.upper())
        except (ActionRefused, PermissionDenied) as error:
            messages.error(request, _message(error))
        return redirect("games:detail", pk=game.pk)
    game = get_object_or_404(selectors.games_with_seats(), pk=game.pk)
    return render(request, "games/invitation.html", {"game": game, "code": code.upper()})


def _message(error: Exception) -> str:
    if isinstance(error, ActionRefused):
        return str(error.messages[0])
    return str(error)


@poll
def game_poll(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Has the game changed since version ``v``? 204 if not; else the parts to redraw.

    The unchanged answer, which almost every poll gets, reads the version from the cache
    (``games.pollstate``), not the database, and does not even load the session; the
    page's token (``core.tokens.poll_token``) shows that this session may watch the game,
    and without it the game answers as a missing one.
    """
    if not tokens.is_valid(
        request.GET.get("t", ""), tokens.Scope.GAME, tokens.session_cookie(request), pk
    ):
        # Without a page drawn for this session, a game is as missing as one that is.
        raise Http404(_("No such game."))
    try:
        version = int(request.GET.get("v", ""))
    except ValueError:
        return HttpResponseBadRequest(_("The version could not be read."))
    row = poll_state(pk)
    if row is None:
        raise Http404(_("No such game."))
    current, deadline = row
    if current == version and (deadline is None or deadline > timezone.now()):
        return HttpResponse(status=204)
    game, state, seat = _load(request, pk)
    if request.GET.get("s") != game.status:
        # The game started, ended or was cancelled: the whole page changes.
        return HttpResponseClientRefresh()
    context = game_page(game, state, seat, draft_params=QueryDict())
    # A player in the middle of a draft keeps it (only the table is redrawn) unless the
    # draft is over for them: they timed out, say.
    # At a live table the board changes only with a new card, which no draft outlives.
    drafting = request.GET.get("draft") == "1" and "round" in context and game.lockstep_id is None
    if "final" in context:
        # A finished game's board keeps Play again (or the rematch offered since).
        context["frame"] = frame = framing.frame_of(game)
        context.update(_page_extras(request, game, seat, final=True, framed=frame is not None))
    context.update(poll=True, with_board=not drafting, poll_token=request.GET["t"])
    context["away"] = _away(game, seat)  # a vacation begun or ended since (out of band)
    return render(request, "games/_update.html", context)


@login_required
def my_games(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The player's games in play or waiting for players, those waiting for them first."""
    now = timezone.now()
    # The filters come from the address; one that cannot be read is named on the page
    # (400) and the others still apply.
    form = MyGamesFilterForm(request.GET if _FILTER_FIELDS & set(request.GET) else None)
    valid = form.is_valid() or not form.is_bound
    filters = form.filters()
    entries = selectors.my_games(request.user, filters)
    # A round past its deadline is closed now, as opening the game would, so the list
    # never offers a move that can no longer be made.
    if any([services.deadlines_enforce(game=e.game, now=now) for e in entries]):
        entries = selectors.my_games(request.user, filters)
    finished = Paginator(selectors.my_finished_games(request.user, filters), FINISHED_PER_PAGE)
    kept = QueryDict(mutable=True)
    for name in sorted(_FILTER_FIELDS & set(request.GET)):
        kept[name] = request.GET[name][:150]
    context = {
        "entries": entries,
        "finished": finished.get_page(request.GET.get("page")),
        "now": now,
        "in_a_minute": now + datetime.timedelta(minutes=1),
        "filter_form": form,
        "filtered": bool(filters),
        # The filters again on the pager's links.
        "filter_query": kept.urlencode(),
    }
    return render(request, "games/mine.html", context, status=200 if valid else 400)


_FILTER_FIELDS = {"mode", "rules", "opponent", "tournament"}


FINISHED_PER_PAGE = 20
