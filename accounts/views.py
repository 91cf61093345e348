from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import DeleteAccountForm, ProfileForm
from accounts.models import User
from accounts.services import user_delete, user_update_profile
from leaderboards import charts
from leaderboards.selectors import player_statistics, solo_by_ruleset


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    """Show and save the signed-in player's profile, with links to account management."""
    user = _user(request)
    if request.method == "POST":
        form = ProfileForm(request.POST)
        if form.is_valid():
            try:
                user_update_profile(
                    user=user,
                    bio=form.cleaned_data["bio"],
                    notify_by_email=form.cleaned_data["notify_by_email"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Your profile was saved."))
                return redirect("accounts:settings")
    else:
        form = ProfileForm(initial={"bio": user.bio, "notify_by_email": user.notify_by_email})
    return render(request, "accounts/settings.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    """Confirm, then anonymise the signed-in player's account and sign them out."""
    user = _user(request)
    if request.method == "POST":
        form = DeleteAccountForm(request.POST, user=user)
        if form.is_valid():
            user_delete(user=user)
            logout(request)
            # After logout: it flushes the session, which may hold pending messages.
            messages.success(request, _("Your account was deleted. Thank you for playing."))
            return redirect("games:home")
        messages.error(request, _("Your account was not deleted."))
    else:
        form = DeleteAccountForm(user=user)
    return render(request, "accounts/delete.html", {"form": form})


def _user(request: HttpRequest) -> User:
    # login_required has run, so this is a real User, not AnonymousUser.
    assert isinstance(request.user, User)
    return request.user


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page: games, solo results against the table, ratings, charts."""
    player = get_object_or_404(User, username=username, deleted_at__isnull=True)
    context: dict[str, object] = {"profile_user": player}
    # A banned account's page says so and nothing more: its results are off the boards too.
    if not player.is_banned:
        stats = player_statistics(player)
        context.update(
            stats=stats,
            solo_rulesets=[
                (solo, charts.score_chart(solo.history)) for solo in solo_by_ruleset(stats.history)
            ],
            band_chart=charts.band_chart(stats.bands),
            rating_chart=charts.rating_chart(stats.rating_history),
        )
    return render(request, "accounts/profile.html", context)
