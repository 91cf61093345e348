from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from accounts.forms import DeleteAccountForm, ProfileForm
from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from accounts.models import User
from accounts.services import user_delete, user_set_language, user_update_profile


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Show and save the signed-in player's profile, with links to account management."""
    user = request.user
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
def account_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Confirm, then anonymise the signed-in player's account and sign them out."""
    user = request.user
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


@require_POST
def language_set(request: HtmxHttpRequest) -> HttpResponse:
    """The language menu: Django's cookie and redirect, and the account's choice if signed in."""
    response = set_language(request)
    language = request.POST.get("language", "")
    user = request.user
    if isinstance(user, User) and user.is_authenticated and language in dict(settings.LANGUAGES):
        user_set_language(user=user, language=language)
    return response
