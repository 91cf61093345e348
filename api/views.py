"""Embeds for other sites (a replay in an iframe, a landscape as an image) and the
settings page of personal API tokens. Thin: read the request, call a selector or a
service, render."""

from __future__ import annotations

from csp.decorators import csp_replace
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from api import selectors, services
from api.forms import TokenForm
from api.landscape import landscape_svg
from games.boardview import replay_page
from games.models import Game, Seat
from games.rebuild import player_key, rules_game

# Seconds a browser or a forum's image proxy may keep an embed; a game a moderator hides
# leaves them within this time.
EMBED_SECONDS = 300


def _finished_public_game(pk: int) -> Game:
    # As a visitor sees it, whoever asks: an embed shows the same to everyone, and a
    # signed-in player's private view never ends up inside someone else's page.
    found = selectors.visible_game(pk, AnonymousUser())
    if found is None or not found[0].is_finished:
        raise Http404(_("No such game."))
    return found[0]


def _round(request: HtmxHttpRequest) -> int | None:
    text = request.GET.get("round", "")
    # int() takes unicode digits and any length; a round is one or two ASCII digits.
    if not (text.isascii() and text.isdigit() and len(text) <= 2):
        return None
    return int(text)


# The one page another site may frame: frame-ancestors opened here only, and no
# X-Frame-Options (which would forbid it whatever the policy says).
@require_GET
@xframe_options_exempt
# django-csp types a view as taking the request alone.
@csp_replace({"frame-ancestors": ["*"]})  # type: ignore[arg-type]
@cache_control(public=True, max_age=EMBED_SECONDS)
def embed_game(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A finished game's replay, round by round, to put in an iframe elsewhere; it opens
    on the finished landscapes, what a reader of the page it sits in came to see."""
    game = _finished_public_game(pk)
    wanted = _round(request)
    # Past the last round played: replay_page stops at the last one.
    context = replay_page(game, wanted_round=len(game.cards) if wanted is None else wanted)
    return render(request, "api/embed.html", context)


@require_GET
@cache_control(public=True, max_age=EMBED_SECONDS)
def landscape_image(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A player's final landscape as an SVG image; ``?player=NAME``, else the winner's."""
    game = _finished_public_game(pk)
    seats: list[Seat] = list(game.seats.all())
    wanted = request.GET.get("player")
    if wanted is None:
        # The winner (the first of those sharing first place), or the only player.
        seat = min(seats, key=lambda s: (s.place is None, s.place or 0, s.position))
    else:
        seat = next((s for s in seats if s.player_key == wanted), None)  # type: ignore[assignment]
        if seat is None:
            raise Http404(_("No such player in this game."))
    state = rules_game(game, seats)
    svg = landscape_svg(state.boards[player_key(seat)], seat.display_name)
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


# -- personal tokens (a settings page) ----------------------------------------------------


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The player's API tokens: make one (shown once), see and revoke the others."""
    secret = None
    if request.method == "POST":
        form = TokenForm(request.POST)
        if form.is_valid():
            try:
                made = services.token_create(user=request.user, name=form.cleaned_data["name"])
            except PermissionDenied as error:
                form.add_error(None, str(error))
            except ValidationError as error:
                form.add_error(None, error.messages[0])
            else:
                secret = made.secret
                form = TokenForm()
    else:
        form = TokenForm()
    context = {"form": form, "tokens": selectors.tokens_of(request.user), "secret": secret}
    return render(request, "api/tokens.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def token_revoke(request: AuthenticatedHttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the player's tokens: it opens nothing from now on."""
    try:
        services.token_revoke(user=request.user, token_id=token_id)
    except PermissionDenied as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The token was revoked."))
    return redirect("accounts:api_tokens")
