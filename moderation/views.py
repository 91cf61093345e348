"""Players' side of moderation: reports, notifications, the ban page, choosing a new name."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.adapter import BAN_SESSION_KEY
from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from accounts.models import User
from core.errors import ActionRefused
from games.models import Game
from games.policy import can_watch, seat_of
from moderation.forms import ReportForm, UsernameForm
from moderation.models import Report
from moderation.selectors import chat_message_readable
from moderation.selectors import notification_list as select_notifications
from moderation.services import (
    PERMANENT,
    notifications_mark_read,
    report_create,
    user_choose_username,
)
from social.models import ChatMessage
from wintergames.models import WinterGame


@login_required
def notification_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The player's notifications, newest first; opening the page marks them read."""
    user = request.user
    notifications = select_notifications(user=user)
    notifications_mark_read(user=user)
    return render(request, "moderation/notifications.html", {"notifications": notifications})


@login_required
@require_http_methods(["GET", "POST"])
def report_new(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Report ``username`` to the moderators, optionally about one game (``?game=`` for
    Limes, ``?winter_game=`` for Winter) or one chat message of theirs (``?message=``)."""
    reporter = request.user
    target = get_object_or_404(User, username=username, deleted_at__isnull=True)
    game_id = _game_id(_param(request, "game"))
    winter_game_id = _game_id(_param(request, "winter_game"))
    message = _chat_message(_game_id(_param(request, "message")), reporter, target)
    if message is not None:
        # The message names its own game, whatever the address says.
        game_id, winter_game_id = message.game_id, message.winter_game_id
    game = Game.objects.filter(pk=game_id).first() if game_id is not None else None
    winter_game = (
        WinterGame.objects.filter(pk=winter_game_id).first() if winter_game_id is not None else None
    )
    # The page names only a game the reporter may see; of any other it says nothing, not
    # even whether it exists: the number asked for is merely sent back with the form.
    # (Every Winter game's page is public.)
    shown = (
        game
        if game is not None and can_watch(game, reporter, seat_of(game.seats.all(), reporter))
        else None
    )
    if target.pk == reporter.pk:
        messages.error(request, _("You cannot report yourself."))
        return redirect("accounts:profile", username=target.username)
    if request.method == "POST":
        form = ReportForm(request.POST)
        if form.is_valid():
            try:
                report_create(
                    reporter=reporter,
                    target=target,
                    category=form.cleaned_data["category"],
                    text=form.cleaned_data["text"],
                    game=game,
                    winter_game=winter_game,
                    chat_message=message,
                )
            except ActionRefused as error:
                form.add_error(None, error)
            else:
                messages.success(
                    request,
                    _(
                        "Thank you. A moderator will look at your report; you will get a "
                        "notification when they have."
                    ),
                )
                # Back to the game only if its page will show, else to the profile.
                if shown is not None:
                    return redirect("games:detail", pk=shown.pk)
                if winter_game is not None:
                    return redirect("winter:detail", pk=winter_game.pk)
                return redirect("accounts:profile", username=target.username)
    else:
        form = ReportForm(initial={"category": Report.Category.CHAT} if message else None)
    context = {
        "form": form,
        "target": target,
        "game": shown,
        "game_id": game_id,
        "winter_game": winter_game,
        "winter_game_id": winter_game_id,
        "chat_message": message,
    }
    return render(request, "moderation/report.html", context)


def banned(request: HtmxHttpRequest) -> HttpResponse:
    """Why and until when the account is closed (the session keeps it after sign-out)."""
    if request.user.is_authenticated:
        # Signed in again: the ban has ended, and what the session kept of it is stale.
        request.session.pop(BAN_SESSION_KEY, None)
    ban = request.session.get(BAN_SESSION_KEY)
    until = None
    if ban and ban.get("until"):
        until = datetime.datetime.fromisoformat(ban["until"])
    context = {
        "ban": ban,
        "until": until,
        "permanent": until is not None and until >= PERMANENT,
    }
    return render(request, "moderation/banned.html", context, status=403 if ban else 200)


@login_required
@require_http_methods(["GET", "POST"])
def rename(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Choose a new username after a moderator reset an offensive one."""
    user = request.user
    if not user.must_rename:
        return redirect("accounts:settings")
    if request.method == "POST":
        form = UsernameForm(request.POST)
        if form.is_valid():
            try:
                user_choose_username(user=user, username=form.cleaned_data["username"])
            except ValidationError as error:
                # A refusal (``ActionRefused``), or the sign-up's own checks of a name.
                form.add_error("username", error)
            except PermissionDenied:
                return redirect("accounts:settings")
            else:
                messages.success(request, _("Your new username is saved. Welcome back!"))
                return redirect("games:home")
    else:
        form = UsernameForm()
    return render(request, "moderation/rename.html", {"form": form})


def _chat_message(message_id: int | None, reporter: User, target: User) -> ChatMessage | None:
    # Only a message of the target's that the reporter may read is named on the page.
    if message_id is None:
        return None
    message = (
        ChatMessage.objects.select_related("game")
        .filter(pk=message_id, author=target, hidden=False)
        .first()
    )
    if message is None or not chat_message_readable(message, reporter):
        return None
    return message


def _param(request: AuthenticatedHttpRequest, name: str) -> str | None:
    return request.GET.get(name) or request.POST.get(name)


def _game_id(value: str | None) -> int | None:
    # str.isdigit() also accepts "²" and other digits int() refuses: ASCII digits only,
    # and no more than a game id can have.
    if not value or not (value.isascii() and value.isdigit()) or len(value) > 18:
        return None
    return int(value)
