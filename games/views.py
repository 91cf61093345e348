"""Pages and HTMX fragments of games. Thin: read the request, call a service, render."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, QuerySet
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
    QueryDict,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

import rules
from games import selectors, services, throttle
from games.boardview import Draft, card_zones, landscape_view, round_view
from games.decorators import poll
from games.forms import JoinByCodeForm, NewGameForm, NewMultiGameForm
from games.models import Game, Move, Seat


def home(request: HttpRequest) -> HttpResponse:
    """The front page: start a solo game, and the player's running and recent games."""
    context: dict[str, object] = {"form": NewGameForm()}
    if request.user.is_authenticated:
        games = list(selectors.games_of(request.user)[:20])
        context["running"] = [g for g in games if g.is_active or g.is_open]
        context["finished"] = [g for g in games if g.is_finished][:10]
    return render(request, "games/home.html", context)


def rules_page(request: HttpRequest) -> HttpResponse:
    """How to play, in our own words, with the deck's cards drawn."""
    cards = [(card.number, card_zones(card)) for card in selectors.deck()]
    return render(request, "games/rules.html", {"cards": cards})


@login_required
@require_POST
def game_new(request: HttpRequest) -> HttpResponse:
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
    except services.MoveRejected as error:
        messages.error(request, error.messages[0])
        return redirect("games:home")
    return redirect("games:detail", pk=game.pk)


def _with_seats() -> QuerySet[Game]:
    return Game.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def _load(request: HttpRequest, pk: int) -> tuple[Game, rules.Game, Seat | None]:
    game = get_object_or_404(_with_seats(), pk=pk)
    # Deadlines are enforced whenever a game is looked at, not only by the scheduler.
    if services.deadlines_enforce(game=game):
        game = get_object_or_404(_with_seats(), pk=pk)
    seat = selectors.seat_for(game, request.user)
    if not selectors.can_watch(game, request.user, seat):
        raise Http404(_("No such game."))
    return game, selectors.rules_game(game, list(game.seats.all())), seat


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The game page; for an htmx request, just the board fragment for the draft."""
    game, state, seat = _load(request, pk)
    return _render_game(request, game, state, seat, draft_params=request.GET)


def _render_game(
    request: HttpRequest,
    game: Game,
    state: rules.Game,
    seat: Seat | None,
    *,
    draft_params: QueryDict,
    error: str | None = None,
    status: int = 200,
    template: str = "games/game.html#board",
) -> HttpResponse:
    if not request.htmx:
        template = "games/game.html"
    # A draft's fragment is the board alone: the table is drawn only where it is shown.
    with_table = template != "games/game.html#board"
    context = _game_context(
        game, state, seat, draft_params=draft_params, error=error, with_table=with_table
    )
    context["poll_token"] = poll_token(game.pk, _session_cookie(request))
    return render(request, template, context, status=status)


def poll_token(pk: int, session_cookie: str) -> str:
    """What a game page gives its polls to show it was drawn for this browser session.

    A poll that finds nothing new must not load the session, yet must not tell anyone
    else that the game exists or how far it is: the token, checked without a query,
    proves that the permission check of the page already let this session watch.
    """
    return salted_hmac("games.poll", f"{pk}:{session_cookie}").hexdigest()[:32]


def _session_cookie(request: HttpRequest) -> str:
    return request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")


def _game_context(
    game: Game,
    state: rules.Game,
    seat: Seat | None,
    *,
    draft_params: QueryDict,
    error: str | None = None,
    with_table: bool = True,
) -> dict[str, object]:
    context: dict[str, object] = {"game": game, "state": state, "seat": seat, "error": error}
    seats = list(game.seats.all())
    if with_table and game.mode == Game.Mode.MULTI and not game.is_finished:
        context["table"] = _table(game, state, seats, seat)
    if state.is_over or game.is_finished:
        context["final"] = [
            {
                "seat": s,
                "score": state.boards[selectors.player_key(s)].landscape.score(),
                "board": landscape_view(state.boards[selectors.player_key(s)]),
            }
            for s in sorted(seats, key=lambda s: (s.place or 99, s.position))
        ]
        if game.mode == Game.Mode.SOLO and state.is_over:
            total = context["final"][0]["score"].total  # type: ignore[index]
            context["rating"] = rules.solo_rating(total)
        return context
    if seat is None or not game.is_active:
        return context
    player = selectors.player_key(seat)
    if player not in state.waiting_for():
        # Played this round already, or left the game: their landscape, nothing to draft.
        context["own"] = {
            "board": landscape_view(state.boards[player]),
            "score": state.boards[player].landscape.score(),
        }
        return context
    card = state.current_card
    assert card is not None
    try:
        draft = Draft.from_params(draft_params)
    except ValueError:
        draft = Draft()
        error = error or _("That choice could not be read; start the round again.")
    view = round_view(state.boards[player], card, state.variants, draft)
    context.update(round=view, card=card, error=error or view.error)
    return context


def _table(
    game: Game, state: rules.Game, seats: list[Seat], viewer: Seat | None
) -> dict[str, object]:
    """What everyone at the table may see: each landscape as of the last complete round.

    A choice made in the round in play stays hidden from the others (and from
    spectators) until every player has made theirs.
    """
    public = _completed_rounds(game, seats) if game.is_active else state
    waiting = set(state.waiting_for()) if game.is_active else set()
    entries = []
    for s in seats:
        key = selectors.player_key(s)
        board = public.boards[key]
        entries.append(
            {
                "seat": s,
                "is_viewer": viewer is not None and s.pk == viewer.pk,
                "has_played": (
                    game.is_active and s.status == Seat.Status.PLAYING and key not in waiting
                ),
                "board": landscape_view(board),
                "score": board.landscape.score().total,
            }
        )
    return {
        "entries": entries,
        "waiting": [s for s in seats if selectors.player_key(s) in waiting],
        "shown_round": game.round - 1 if game.is_active else None,
    }


def _completed_rounds(game: Game, seats: list[Seat]) -> rules.Game:
    moves = list(Move.objects.filter(seat__game=game, round__lt=game.round).order_by("round", "id"))
    return selectors.rules_game(game, seats, moves)


@login_required
@require_POST
def game_play(request: HttpRequest, pk: int) -> HttpResponse:
    """Commit the round in the POSTed draft; errors re-render the board with a message."""
    game = get_object_or_404(Game, pk=pk)
    try:
        round_number = int(request.POST.get("round", ""))
        draft = Draft.from_params(request.POST)
    except ValueError:
        return _rejected(request, game, _("The move could not be read."), 400)
    try:
        turn = draft.turn()
    except ValueError as error:
        return _rejected(request, game, str(error), 400)
    try:
        services.move_submit(game=game, user=request.user, round_number=round_number, turn=turn)
    except services.MoveRejected as error:
        return _rejected(request, game, error.messages[0], error.status)
    except PermissionDenied:
        return _rejected(request, game, _("You do not play in this game."), 403)
    url = reverse("games:detail", kwargs={"pk": pk})
    if request.htmx:
        game, state, seat = _load(request, pk)
        # The answer also refreshes the table: this player now shows as having played.
        response = _render_game(
            request, game, state, seat, draft_params=QueryDict(), template="games/_update.html"
        )
        response["HX-Push-Url"] = url
        return response
    return redirect(url)


def _rejected(request: HttpRequest, game: Game, message: str, status: int) -> HttpResponse:
    seat = selectors.seat_for(game, request.user)
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


def game_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """Step through a finished game's rounds; ``?round=N`` shows the board after round N."""
    game = get_object_or_404(_with_seats(), pk=pk)
    if not game.is_finished:
        raise Http404(_("A game can be replayed once it is over."))
    if not selectors.can_watch(game, request.user, selectors.seat_for(game, request.user)):
        raise Http404(_("No such game."))
    seats = list(game.seats.all())
    moves = selectors.game_moves(game)
    # A game that ended early (everyone left) has fewer rounds, and its later cards were
    # never revealed: the replay stops where the play did.
    played = max((m.round for m in moves), default=0)
    try:
        shown_round = max(0, min(played, int(request.GET.get("round", played))))
    except ValueError:
        shown_round = played
    # Rebuilt like the game itself, so players who left leave at the same point.
    partial = selectors.rules_game(game, seats, [m for m in moves if m.round <= shown_round])
    context = {
        "game": game,
        "shown_round": shown_round,
        "card": partial.deck.card(game.cards[shown_round - 1]) if shown_round else None,
        "seats": [
            {
                "seat": s,
                "board": landscape_view(partial.boards[selectors.player_key(s)]),
                "score": partial.boards[selectors.player_key(s)].landscape.score(),
            }
            for s in game.seats.all()
        ],
        "rounds": range(played + 1),
        "last_round": played,
    }
    template = "games/replay.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


def game_record(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's ``limes-game/1`` record as a JSON download."""
    game, state, seat = _load(request, pk)
    if not (game.is_finished or (game.mode == Game.Mode.SOLO and seat is not None)):
        # A record in play would show the others' choices of the round before its end.
        raise Http404(_("The record is available once the game is over."))
    response = JsonResponse(rules.game_to_record(state), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="limes-game-{game.pk}.json"'
    return response


# -- multiplayer -------------------------------------------------------------------------


def lobby(request: HttpRequest) -> HttpResponse:
    """Open games waiting for players, games to watch, and forms to open or join one."""
    return _render_lobby(request, "games/lobby.html")


@poll
def lobby_poll(request: HttpRequest) -> HttpResponse:
    """The lobby's list of open games if it changed ``since`` the signature; else 204."""
    if request.GET.get("since") == selectors.lobby_signature():
        return HttpResponse(status=204)
    return _render_lobby(request, "games/lobby.html#lobby-list")


def _render_lobby(request: HttpRequest, template: str) -> HttpResponse:
    signature = selectors.lobby_signature()
    page = _lobby_page_number(request)
    size = selectors.LOBBY_PAGE_SIZE
    games = list(selectors.lobby_games()[(page - 1) * size : page * size + 1])
    context = {
        "games": games[:size],
        "page": page,
        "has_next": len(games) > size,
        "watch": selectors.games_to_watch() if request.user.is_authenticated else [],
        "signature": signature,
        "form": NewMultiGameForm(),
        "code_form": JoinByCodeForm(),
    }
    return render(request, template, context)


def _lobby_page_number(request: HttpRequest) -> int:
    value = request.GET.get("page", "1")
    # ASCII digits only ("²" is a digit to str.isdigit), and no more pages than games.
    if not (value.isascii() and value.isdigit()) or len(value) > 6:
        return 1
    return max(1, int(value))


@login_required
@require_POST
def game_new_multi(request: HttpRequest) -> HttpResponse:
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
        )
    except services.MoveRejected as error:
        messages.error(request, error.messages[0])
        return redirect("games:lobby")
    return redirect("games:detail", pk=game.pk)


def _act(request: HttpRequest, pk: int, action: str) -> HttpResponse:
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
    except services.MoveRejected as error:
        messages.error(request, error.messages[0])
    except PermissionDenied as error:
        messages.error(request, str(error) or _("You can't do that in this game."))
        return redirect("games:lobby")
    if action in ("leave", "cancel"):
        return redirect("games:lobby")
    return redirect("games:detail", pk=pk)


@login_required
@require_POST
def game_join(request: HttpRequest, pk: int) -> HttpResponse:
    """Take a seat in a game of the lobby."""
    return _act(request, pk, "join")


@login_required
@require_POST
def game_leave(request: HttpRequest, pk: int) -> HttpResponse:
    """Give up one's seat before the game starts."""
    return _act(request, pk, "leave")


@login_required
@require_POST
def game_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator calls off a game that has not started."""
    return _act(request, pk, "cancel")


@login_required
@require_POST
def game_start(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator starts the game with the players who have joined."""
    return _act(request, pk, "start")


@login_required
@require_POST
def game_resign(request: HttpRequest, pk: int) -> HttpResponse:
    """Leave a game in play for good (a solo game ends with the score so far)."""
    return _act(request, pk, "resign")


@login_required
def join_by_code(request: HttpRequest, code: str | None = None) -> HttpResponse:
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
    game = Game.objects.filter(invite_code=code.upper()).first()
    if game is None:
        throttle.code_miss_record(request)
        messages.error(request, _("No game has the invitation code %s.") % code)
        return redirect("games:lobby")
    if request.method == "POST":
        try:
            services.game_join(game=game, user=request.user, code=code.upper())
        except (services.MoveRejected, PermissionDenied) as error:
            messages.error(request, _message(error))
        return redirect("games:detail", pk=game.pk)
    game = get_object_or_404(_with_seats(), pk=game.pk)
    return render(request, "games/invitation.html", {"game": game, "code": code.upper()})


def _message(error: Exception) -> str:
    if isinstance(error, services.MoveRejected):
        return str(error.messages[0])
    return str(error)


@poll
def game_poll(request: HttpRequest, pk: int) -> HttpResponse:
    """Has the game changed since version ``v``? 204 if not; else the parts to redraw.

    The unchanged answer, which almost every poll gets, costs one primary-key query and
    does not even load the session: the version number tells nobody anything.
    """
    if not constant_time_compare(
        request.GET.get("t", ""), poll_token(pk, _session_cookie(request))
    ):
        # Without a page drawn for this session, a game is as missing as one that is.
        raise Http404(_("No such game."))
    try:
        version = int(request.GET.get("v", ""))
    except ValueError:
        return HttpResponseBadRequest(_("The version could not be read."))
    row = Game.objects.filter(pk=pk).values_list("version", "deadline").first()
    if row is None:
        raise Http404(_("No such game."))
    current, deadline = row
    if current == version and (deadline is None or deadline > timezone.now()):
        return HttpResponse(status=204)
    game, state, seat = _load(request, pk)
    if request.GET.get("s") != game.status:
        # The game started, ended or was cancelled: the whole page changes.
        return HttpResponseClientRefresh()
    context = _game_context(game, state, seat, draft_params=QueryDict())
    # A player in the middle of a draft keeps it (only the table is redrawn) unless the
    # draft is over for them: they timed out, say.
    drafting = request.GET.get("draft") == "1" and "round" in context
    context.update(poll=True, with_board=not drafting, poll_token=request.GET["t"])
    return render(request, "games/_update.html", context)


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """The player's games in play or waiting for players, those waiting for them first."""
    return render(request, "games/mine.html", {"entries": selectors.my_games(request.user)})
