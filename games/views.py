"""Pages and HTMX fragments of games. Thin: read the request, call a service, render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

import rules
from games import selectors, services
from games.boardview import Draft, card_zones, landscape_view, round_view
from games.forms import NewGameForm
from games.models import Game, Seat


def home(request: HttpRequest) -> HttpResponse:
    """The front page: start a solo game, and the player's running and recent games."""
    context: dict[str, object] = {"form": NewGameForm()}
    if request.user.is_authenticated:
        games = list(selectors.games_of(request.user)[:20])
        context["running"] = [g for g in games if not g.is_finished]
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
    game = services.game_create_solo(
        user=request.user,
        diagonal=form.cleaned_data["diagonal"],
        ferryman=form.cleaned_data["ferryman"],
    )
    return redirect("games:detail", pk=game.pk)


def _with_seats() -> QuerySet[Game]:
    return Game.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def _load(request: HttpRequest, pk: int) -> tuple[Game, rules.Game, Seat | None]:
    game = get_object_or_404(_with_seats(), pk=pk)
    seat = selectors.seat_for(game, request.user)
    if not game.is_finished and seat is None:
        # A game in play shows the revealed card; only its players may see it.
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
) -> HttpResponse:
    context: dict[str, object] = {"game": game, "state": state, "seat": seat}
    if state.is_over or seat is None:
        context["final"] = [
            {
                "seat": s,
                "score": state.boards[selectors.player_key(s)].landscape.score(),
                "board": landscape_view(state.boards[selectors.player_key(s)]),
            }
            for s in game.seats.all()
        ]
        if game.mode == Game.Mode.SOLO and state.is_over:
            total = context["final"][0]["score"].total  # type: ignore[index]
            context["rating"] = rules.solo_rating(total)
    else:
        player = selectors.player_key(seat)
        card = state.current_card
        assert card is not None
        try:
            draft = Draft.from_params(draft_params)
        except ValueError:
            draft = Draft()
            error = error or _("That choice could not be read; start the round again.")
        view = round_view(state.boards[player], card, state.variants, draft)
        context.update(round=view, card=card, error=error or view.error)
    template = "games/game.html"
    if request.htmx:
        template += "#board"
    return render(request, template, context, status=status)


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
        response = _render_game(request, game, state, seat, draft_params=QueryDict())
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
    full = selectors.rules_game(game, list(game.seats.all()))
    try:
        shown_round = max(0, min(rules.ROUNDS, int(request.GET.get("round", rules.ROUNDS))))
    except ValueError:
        shown_round = rules.ROUNDS
    partial = rules.Game(full.players, full.cards, variants=full.variants, deck=full.deck)
    partial.replay_turns(full.turns[:shown_round])
    context = {
        "game": game,
        "shown_round": shown_round,
        "card": partial.deck.card(full.cards[shown_round - 1]) if shown_round else None,
        "seats": [
            {
                "seat": s,
                "board": landscape_view(partial.boards[selectors.player_key(s)]),
                "score": partial.boards[selectors.player_key(s)].landscape.score(),
            }
            for s in game.seats.all()
        ],
        "rounds": range(rules.ROUNDS + 1),
    }
    template = "games/replay.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


def game_record(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's ``limes-game/1`` record as a JSON download."""
    game, state, _seat = _load(request, pk)
    response = JsonResponse(rules.game_to_record(state), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="limes-game-{game.pk}.json"'
    return response
