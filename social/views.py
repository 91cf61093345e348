"""Pages of friends and challenges, and the chat panel of a game page."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from accounts.models import User
from core import tokens
from core.errors import ActionRefused
from core.ids import MAX_ID
from core.polls import poll
from games.models import Game
from social import selectors, services
from social.forms import ChallengeForm, ChatForm
from social.models import GameKind, QuickPhrase
from social.rooms import ChatRoom, room_find, room_key, token_is_valid
from wintergames.models import WinterGame

#: How often an open chat panel asks for news (seconds).
CHAT_POLL_SECONDS = 3


@login_required
@require_GET
def friends(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Friends, requests, challenges, who is playing now and friends' recent games."""
    user = request.user
    friends = list(selectors.friends_of(user))
    context = {
        "friends": friends,
        "online": selectors.friends_online(friends),
        "presence_hidden": selectors.presence_hidden(user),
        "following": list(selectors.followed_by(user)),
        "blocked": list(selectors.blocked_by(user)),
        "requests_received": list(selectors.requests_received(user)),
        "requests_sent": list(selectors.requests_sent(user)),
        "challenges_received": list(selectors.challenges_received(user)),
        "challenges_sent": list(selectors.challenges_sent(user)),
        "playing": selectors.friends_playing(user),
        "recent": selectors.friends_recent_games(user),
        "challenge_form": ChallengeForm(),
    }
    return render(request, "social/friends.html", context)


@login_required
@require_POST
def presence_visibility(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show friends when the player is online, or keep it from them (``hidden=1``)."""
    hidden = request.POST.get("hidden", "")
    if hidden not in ("0", "1"):
        return _refused(request, ActionRefused(_("The form could not be read.")))
    services.presence_hide(user=request.user, hidden=hidden == "1")
    if hidden == "1":
        messages.success(request, _("Your friends no longer see when you are online."))
    else:
        messages.success(request, _("Your friends see when you are online."))
    return redirect("social:friends")


_RELATION_ACTIONS: dict[str, Callable[..., object]] = {
    "follow": services.follow,
    "unfollow": services.unfollow,
    "befriend": services.friend_request_send,
    "accept": services.friend_request_accept,
    "unfriend": services.friend_remove,
    "block": services.block,
    "unblock": services.unblock,
}


@login_required
@require_POST
def relation_change(request: AuthenticatedHttpRequest, username: str, action: str) -> HttpResponse:
    """Follow, befriend, accept, unfriend, block or unblock a player; back where it was."""
    act = _RELATION_ACTIONS.get(action)
    if act is None:
        raise Http404(_("No such page."))
    other = get_object_or_404(User, username=username, deleted_at__isnull=True)
    try:
        act(user=request.user, other=other)
    except (ActionRefused, PermissionDenied) as error:
        return _refused(request, error)
    # Only our own two pages: never an address the form was given.
    if request.POST.get("next") == "friends":
        return redirect("social:friends")
    return redirect("accounts:profile", username=other.username)


def _refused(request: HtmxHttpRequest, error: ActionRefused | PermissionDenied) -> HttpResponse:
    status = error.status if isinstance(error, ActionRefused) else 403
    context = {"message": _message(error)}
    return render(request, "social/refused.html", context, status=status)


@login_required
@require_POST
def challenge_new(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Challenge a friend to a two-player game with the rules and pace of the form."""
    other = get_object_or_404(User, username=username, deleted_at__isnull=True)
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        return _refused(request, ActionRefused(form.refusal()))
    try:
        challenge = services.challenge_create(user=request.user, other=other, terms=form.terms())
    except (ActionRefused, PermissionDenied) as error:
        return _refused(request, error)
    messages.success(request, _("Your challenge is sent to %(name)s.") % {"name": other.username})
    if challenge.pace == Game.Pace.LIVE:  # (Winter's live pace has the same value)
        # A live challenge is answered in minutes: its page waits, and takes the
        # challenger to the game the moment it is accepted.
        return redirect("social:challenge", pk=challenge.pk)
    return redirect("social:friends")


#: How often a challenge's page asks for news while its stream is down (seconds).
CHALLENGE_POLL_SECONDS = 3
#: How often every other page of a signed-in player does (seconds).
ALERTS_POLL_SECONDS = 10


@never_cache
@login_required
@require_GET
def challenge(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """One challenge, for its two players: waiting for an answer, or what became of it.

    Once it is accepted, an htmx request (the page hearing of the change) is sent to the
    game: its clock is running.
    """
    found = selectors.challenge_of(request.user, pk) if pk <= MAX_ID else None
    if found is None:
        raise Http404(_("No such challenge."))
    game_url = found.game_url
    if request.htmx and found.status == found.Status.ACCEPTED and game_url is not None:
        return HttpResponseClientRedirect(game_url)
    context = {
        "challenge": found,
        "is_challenger": found.challenger_id == request.user.pk,
        "poll_seconds": CHALLENGE_POLL_SECONDS,
        "challenges_version": selectors.challenges_version(request.user.pk),
        # A second after the expiry, so that the page finds it expired.
        "expires_in": max(0, int((found.expires_at - timezone.now()).total_seconds())) + 1,
    }
    template = "social/challenge.html"
    return render(request, template + "#status" if request.htmx else template, context)


def alerts_key(version: int, live: selectors.LiveChallenges) -> str:
    """What a page's alerts show: the challenges' version and the challenges listed. A game
    played or over since changes no challenge, but takes its banner away."""
    shown = [challenge.pk for challenge in (*live.received, *live.accepted)]
    return ".".join(str(number) for number in (version, *shown))


def alerts_unchanged(known: str, key: str, shown: bool) -> bool:
    """Whether a page that knows ``known`` (an ``alerts_key``; "" for a page drawn without
    live challenges) shows what it should: ``shown`` says whether there is any to show."""
    return known == key if known else not shown


@poll
@never_cache
@require_GET
def challenge_alerts(request: HtmxHttpRequest) -> HttpResponse:
    """The live challenges every page of a player shows (waiting for their answer, or
    theirs just accepted); 204 if the page shows them as they are (``v``).

    Asked when the player's stream says a challenge changed, or every few seconds while
    it is down. Loads no session: the token ``t`` shows this session is player ``u``'s.
    """
    user_id = tokens.inbox_user(request)
    if user_id is None:
        return HttpResponseBadRequest(_("The request could not be read."))
    user = User.objects.filter(pk=user_id, deleted_at__isnull=True).first()
    if user is None:
        return HttpResponse(status=204)
    live = selectors.live_challenges(user)
    key = alerts_key(selectors.challenges_version(user_id), live)
    if alerts_unchanged(request.GET.get("v", ""), key, bool(live)):
        return HttpResponse(status=204)
    context = {
        "live_challenges": live,
        "challenges_version": key,
        "challenge_inbox": tokens.inbox_query(request, user_id),
        "alerts_poll_seconds": ALERTS_POLL_SECONDS,
        # The menu's badge counts the challenge's notification too.
        "unread_notifications": selectors.notifications_unread_count(user) if live else 0,
    }
    return render(request, "social/_challenge_alerts.html", context)


@login_required
@require_POST
def challenge_answer(request: AuthenticatedHttpRequest, pk: int, answer: str) -> HttpResponse:
    """Accept a challenge (to its new game), decline one, or withdraw one's own."""
    try:
        if answer == "accept":
            game = services.challenge_accept(user=request.user, challenge_id=pk)
            detail = "winter:detail" if isinstance(game, WinterGame) else "games:detail"
            return redirect(detail, pk=game.pk)
        if answer != "decline":
            raise Http404(_("No such page."))
        services.challenge_decline(user=request.user, challenge_id=pk)
    except (ActionRefused, PermissionDenied) as error:
        return _refused(request, error)
    return redirect("social:friends")


def _message(error: ActionRefused | PermissionDenied) -> str:
    if isinstance(error, ActionRefused):
        return str(error.messages[0])
    return str(error) or _("You are not allowed to do this.")


# The chat panel


def _readable(request: HtmxHttpRequest, kind: GameKind, pk: int) -> tuple[ChatRoom, User]:
    room = room_find(kind, pk) if pk <= MAX_ID else None
    user = request.user
    if room is None or not isinstance(user, User) or not room.can_read(user):
        # Not allowed in, or no such game: the same answer.
        raise Http404(_("No such game."))
    return room, user


def _panel_context(request: HtmxHttpRequest, room: ChatRoom, user: User) -> dict[str, object]:
    seated = room.is_seated(user)
    muted = selectors.chat_mute_in_force(user) if seated else None
    shown = selectors.chat_messages(room, user)
    unread: list[int] = []
    if seated:
        # A player's panel shows what is new to them, and from now on it is read.
        read_before = selectors.chat_last_read(room, user)
        unread = [m.pk for m in shown if m.pk > read_before and m.author_id != user.pk]
        newest = max((m.pk for m in shown), default=0)
        if newest > read_before:
            services.chat_read_mark(game=room.game, user=user, up_to=newest)
    return {
        "room": room,
        "game": room.game,
        "chat_messages": shown,
        "first_unread": unread[0] if unread else None,
        "unread_count": len(unread),
        "chat_version": selectors.chat_version(room),
        "chat_token": room.token(tokens.session_cookie(request), user.pk),
        "can_post": muted is None and room.can_post(user),
        "is_player": seated,
        "muted": muted,
        "phrases": QuickPhrase.choices,
        "poll_seconds": CHAT_POLL_SECONDS,
    }


@never_cache
@require_http_methods(["GET", "POST"])
def chat(request: HtmxHttpRequest, pk: int, kind: GameKind = GameKind.LIMES) -> HttpResponse:
    """The game's chat, of either game: the panel (htmx), a page of its own (without
    JavaScript), or a message sent (POST), answered with the panel redrawn."""
    try:
        room, user = _readable(request, kind, pk)
    except Http404:
        if request.htmx and request.method == "GET":
            # The game page's placeholder goes away: a game without a chat for this reader.
            return HttpResponse("")
        raise
    status = 200
    form = ChatForm()
    if request.method == "POST":
        form = ChatForm(request.POST)
        try:
            # A field sent twice is no message a form of ours writes.
            doubled = any(len(request.POST.getlist(name)) > 1 for name in ("text", "phrase"))
            if doubled or not form.is_valid():
                raise ActionRefused(_("This message cannot be sent."))
            services.chat_post(
                game=room.game,
                user=user,
                text=form.cleaned_data["text"],
                phrase=form.cleaned_data["phrase"],
            )
        except ActionRefused as error:
            form.add_error(None, error.messages[0])
            status = error.status
        except PermissionDenied as error:
            form.add_error(None, _message(error))
            status = 403
        else:
            if not request.htmx:
                return redirect(room.game_url + "#chat")
            form = ChatForm()
    context = _panel_context(request, room, user)
    context["form"] = form
    cache.set(selectors.presence_key(room.key, user.pk), 1, selectors.PRESENCE_SECONDS)
    template = "social/_chat_panel.html" if request.htmx else "social/chat.html"
    return render(request, template, context, status=status)


@poll
@never_cache
@require_GET
def chat_poll(request: HtmxHttpRequest, pk: int, kind: GameKind = GameKind.LIMES) -> HttpResponse:
    """Has the chat changed since version ``v``? 204 if not, else the log redrawn.

    As the board's poll (``games.views.game_poll``): the unchanged answer reads the version
    from the cache and loads no session; the panel's token shows this session may read.
    """
    raw_user = request.GET.get("u", "")
    if not (raw_user.isascii() and raw_user.isdigit()) or len(raw_user) > 18:
        return HttpResponseBadRequest(_("The request could not be read."))
    user_id = int(raw_user)
    if pk > MAX_ID:
        raise Http404(_("No such game."))
    session = tokens.session_cookie(request)
    if not token_is_valid(kind, request.GET.get("t", ""), session, pk, user_id):
        raise Http404(_("No such game."))
    key = room_key(kind, pk)
    # The panel is open: its player is not away (see services._notify_away).
    cache.set(selectors.presence_key(key, user_id), 1, selectors.PRESENCE_SECONDS)
    if request.GET.get("v") == selectors.chat_version(pk, kind):
        return HttpResponse(status=204)
    room, user = _readable(request, kind, pk)
    if user.pk != user_id:
        raise Http404(_("No such game."))
    return render(request, "social/_chat_panel.html#chat-log", _panel_context(request, room, user))
