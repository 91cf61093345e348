from __future__ import annotations

import time

from allauth.account import app_settings as allauth_account
from allauth.account.authentication import get_authentication_records
from allauth.account.decorators import reauthentication_required
from allauth.mfa.utils import is_mfa_enabled
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.i18n import set_language

from accounts import devices, selectors
from accounts.forms import (
    DeleteAccountForm,
    NotificationPreferencesForm,
    ProfileForm,
    PushSubscriptionForm,
    VacationForm,
    preference_field_name,
)
from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from accounts.models import User
from accounts.notifications import Channel
from accounts.selectors import vacation_current, vacation_days_used
from accounts.services import (
    notification_preferences_set,
    push_subscription_remove,
    push_subscription_save,
    turn_mail_off,
    turn_mail_off_user,
    user_delete,
    user_set_language,
    user_update_profile,
    vacation_end,
    vacation_start,
)
from accounts.vapid import push_enabled
from core.clients import client_address
from core.counters import window_count
from core.errors import ActionRefused


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
                    move_sound=form.cleaned_data["move_sound"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Your profile was saved."))
                return redirect("accounts:settings")
        return render(request, "accounts/settings.html", _settings_context(request, form=form))
    return render(request, "accounts/settings.html", _settings_context(request))


def _settings_context(
    request: AuthenticatedHttpRequest,
    *,
    form: ProfileForm | None = None,
    vacation_form: VacationForm | None = None,
) -> dict[str, object]:
    user = request.user
    now = timezone.now()
    used = vacation_days_used(user, now.year)
    preferences = selectors.notification_preferences(user)
    return {
        "form": form or ProfileForm(initial={"bio": user.bio, "move_sound": user.move_sound}),
        "vacation": vacation_current(user, now),
        "vacation_form": vacation_form or VacationForm(),
        "vacation_days_left": max(settings.LIMES_VACATION_DAYS_PER_YEAR - used, 0),
        "vacation_days_per_year": settings.LIMES_VACATION_DAYS_PER_YEAR,
        "notification_form": NotificationPreferencesForm(
            initial={
                preference_field_name(event, channel): on
                for (event, channel), on in preferences.items()
            }
        ),
        "channels": list(Channel),
        "push_subscriptions": selectors.push_subscriptions(user),
        # The public key only: the private one never leaves the task worker's settings.
        "vapid_public_key": settings.LIMES_VAPID_PUBLIC_KEY if push_enabled() else "",
    }


@login_required
@require_POST
def vacation(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Start a vacation (to the day chosen) or end the one running; errors show on the form."""
    if request.POST.get("action") == "end":
        if vacation_end(user=request.user):
            messages.success(request, _("Welcome back: your vacation ended."))
        return redirect("accounts:settings")
    form = VacationForm(request.POST)
    if form.is_valid():
        try:
            vacation_start(user=request.user, until=form.cleaned_data["until"])
        except ValidationError as error:
            form.add_error("until", error)
        else:
            messages.success(
                request, _("Enjoy your vacation: your correspondence clocks stand still.")
            )
            return redirect("accounts:settings")
    context = _settings_context(request, vacation_form=form)
    return render(request, "accounts/settings.html", context, status=400)


@login_required
@require_POST
def notification_preferences(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Save the table of notifications (a box left unticked is off)."""
    form = NotificationPreferencesForm(request.POST)
    if not form.is_valid():  # pragma: no cover - every box is optional
        return HttpResponseBadRequest(_("The form could not be read."))
    notification_preferences_set(user=request.user, choices=form.choices())
    messages.success(request, _("Your notification choices are saved."))
    return redirect(reverse("accounts:settings") + "#notifications")


@login_required
@require_POST
def push_subscribe(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Subscribe this device to push (``static/js/webpush.js`` posts its subscription)."""
    if not push_enabled():
        return JsonResponse({"error": _("Push notifications are not set up here.")}, status=409)
    form = PushSubscriptionForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"error": _("This is not a push subscription.")}, status=400)
    try:
        subscription = push_subscription_save(
            user=request.user,
            endpoint=form.cleaned_data["endpoint"],
            p256dh=form.cleaned_data["p256dh"],
            auth=form.cleaned_data["auth"],
            label=form.cleaned_data["label"],
        )
    except ActionRefused as refusal:
        return JsonResponse({"error": refusal.message}, status=refusal.status)
    except ValidationError:
        return JsonResponse({"error": _("This is not a push subscription.")}, status=400)
    devices.remember(request, subscription.pk)  # signing out unsubscribes it
    return JsonResponse({"id": subscription.pk}, status=201)


@login_required
@require_POST
def push_unsubscribe(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Remove one of the player's devices from push."""
    if not push_subscription_remove(user=request.user, subscription_id=pk):
        raise Http404(_("No such device."))
    messages.success(request, _("That device gets no more notifications."))
    return redirect(reverse("accounts:settings") + "#notifications")


@login_required
@require_http_methods(["GET", "POST"])
# The deletion itself needs the password again (allauth's reauthentication), not just a
# session someone might have left open: the page shows, the POST is held until then.
@reauthentication_required(allow_get=True)  # type: ignore[untyped-decorator]
def account_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Confirm, then anonymise the signed-in player's account and sign them out."""
    user = request.user
    if request.method == "POST" and not _second_factor_recent(request):
        # Where a second factor is set, it is asked for too.
        query = urlencode({REDIRECT_FIELD_NAME: request.path})
        return redirect(f"{reverse('mfa_reauthenticate')}?{query}")
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


def _second_factor_recent(request: AuthenticatedHttpRequest) -> bool:
    # True for an account without a second factor.
    if not is_mfa_enabled(request.user):
        return True
    timeout = allauth_account.REAUTHENTICATION_TIMEOUT
    return any(
        record.get("method") == "mfa" and time.time() - record.get("at", 0) < timeout
        for record in get_authentication_records(request, request.user)
    )


@require_POST
def language_set(request: HtmxHttpRequest) -> HttpResponse:
    """The language menu: Django's cookie and redirect, and the account's choice if signed in."""
    response = set_language(request)
    language = request.POST.get("language", "")
    user = request.user
    if isinstance(user, User) and user.is_authenticated and language in dict(settings.LANGUAGES):
        user_set_language(user=user, language=language)
    return response


@require_GET
def player_search(request: HtmxHttpRequest) -> HttpResponse:
    """Find a player by the start of their name: ``/players/?q=ana``."""
    query = request.GET.get("q", "").strip()
    error = None
    status = 400
    players: list[User] = []
    if len(query) > selectors.NAME_MAX_LENGTH:
        error = _("No name is that long.")
    elif any(not character.isprintable() for character in query):
        error = _("A name has only letters, digits and the signs @ . + - _")
    elif query and not _search_allowed(request):
        error = _("That is a lot of searches at once: wait a minute.")
        status = 429
    elif query:
        players = selectors.players_named(query)
    context = {
        "query": query,
        "players": players,
        "error": error,
        "limit": selectors.SEARCH_LIMIT,
    }
    return render(request, "accounts/search.html", context, status=status if error else 200)


#: Searches one address may make in ``SEARCH_WINDOW_SECONDS``: a person types a few names.
SEARCHES_PER_WINDOW = 60
SEARCH_WINDOW_SECONDS = 60


def _search_allowed(request: HttpRequest) -> bool:
    # Counted by address, as the site's other throttles count.
    key = f"throttle:player-search:{client_address(request)}"
    return window_count(key, SEARCH_WINDOW_SECONDS) <= SEARCHES_PER_WINDOW


# No CSRF token: a mail program's one-click unsubscribe (RFC 8058) POSTs here without one,
# and the signed token in the address is what proves the player sent the link.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def turn_mail_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The turn mails' unsubscribe link, no sign-in needed: GET asks, POST turns them off."""
    user = turn_mail_off_user(token)
    if user is None:
        raise Http404(_("This unsubscribe link is not valid."))
    done = request.method == "POST"
    if done:
        turn_mail_off(user=user)
    return render(request, "accounts/turn_mail_unsubscribe.html", {"done": done})
