"""Writes to accounts. Keyword-only, one transaction each."""

from __future__ import annotations

import base64
import datetime
import hmac
from collections.abc import Iterable
from importlib import import_module

from allauth.account.models import EmailAddress
from allauth.usersessions.models import UserSession
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.adapter import DELETED_USERNAME_PREFIX, FAREWELL_PREFIX, FAREWELL_SECONDS
from accounts.models import NotificationPreference, PushSubscription, User, Vacation
from accounts.notifications import CHANNELS, CHOOSABLE, Channel, Event
from accounts.pushendpoint import push_endpoint
from accounts.selectors import vacation_current, vacation_days_used
from accounts.signals import user_deleting, vacation_changed
from core.errors import ActionRefused


@transaction.atomic
def user_update_profile(*, user: User, bio: str, move_sound: bool | None = None) -> User:
    """Save the player's profile text and choices; raises ValidationError if too long."""
    user.bio = bio
    if move_sound is not None:
        user.move_sound = move_sound
    user.full_clean()
    user.save(update_fields=["bio", "move_sound"])
    return user


# The turn mails' one-click unsubscribe link: signed, so no sign-in is needed and nobody
# can forge one for another player; the salt keeps other signed values from passing.
TURN_MAIL_OFF_SALT = "limes.turn-mail-off"


def turn_mail_off_token(user: User) -> str:
    """The token of ``user``'s link that turns their turn mails off."""
    return signing.dumps({"u": user.pk}, salt=TURN_MAIL_OFF_SALT, compress=True)


def turn_mail_off_user(token: str) -> User | None:
    """The player a turn-mail-off token was made for, or None (forged, altered, gone)."""
    try:
        value = signing.loads(token, salt=TURN_MAIL_OFF_SALT)
    except signing.BadSignature:
        return None
    user_id = value.get("u") if isinstance(value, dict) else None
    if not isinstance(user_id, int) or isinstance(user_id, bool):
        return None
    return User.objects.filter(pk=user_id, deleted_at__isnull=True).first()


@transaction.atomic
def turn_mail_off(*, user: User) -> User:
    """Stop the e-mails telling ``user`` that a correspondence game waits for them."""
    notification_preferences_set(
        user=user, choices={(Event.TURN.value, Channel.EMAIL.value): False}
    )
    return user


@transaction.atomic
def user_set_language(*, user: User, language: str) -> User:
    """Store the language the player reads the site, emails and notifications in.

    ``""`` means the browser's choice. Raises ValidationError for a language not offered.
    """
    # Only this field: a language change must not fail on an older, now-invalid value
    # elsewhere in the row.
    user.language = User._meta.get_field("language").clean(language, user)
    user.save(update_fields=["language"])
    return user


@transaction.atomic
def user_delete(*, user: User) -> User:
    """Anonymise the account so the player's games stay, shown as by "deleted player".

    Personal data goes, the account can no longer sign in, and every session it has is
    ended. First, in the same transaction, ``user_deleting`` lets the games app take the
    player out of every game in play or waiting, as a ban does.
    """
    user_deleting.send(sender=User, user=user)
    user.username = _free_deleted_username(user)
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.bio = ""
    user.set_unusable_password()
    user.is_active = False
    user.deleted_at = timezone.now()
    user.full_clean()
    user.save()
    EmailAddress.objects.filter(user=user).delete()
    PushSubscription.objects.filter(user=user).delete()
    NotificationPreference.objects.filter(user=user).delete()
    user_sessions_end(user=user)
    return user


def _free_deleted_username(user: User) -> str:
    # Sign-up refuses this prefix, but staff can still create such names in the admin.
    base = f"{DELETED_USERNAME_PREFIX}{user.pk}"
    candidate, n = base, 1
    while User.objects.filter(username__iexact=candidate).exclude(pk=user.pk).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def user_sessions_end(*, user: User, farewell: dict[str, str | None] | None = None) -> int:
    """End every session ``user`` is signed in with, on every device: their open pages,
    polls and streams go on only as a signed-out visitor's. How many were ended.

    For a ban or a deleted account. Each session goes from the cache as well as the
    database (a cached session would outlive its row). ``farewell`` (a ban's memo) is
    kept a while under each ended key, for the next page of that browser to say why.
    """
    keys = set(UserSession.objects.filter(user=user).values_list("session_key", flat=True))
    # Sessions from before allauth kept its list: keyed by an opaque id, so the user's own
    # are found by decoding the live ones (rare enough for that to be fine).
    user_pk = str(user.pk)
    keys.update(
        session.session_key
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if session.get_decoded().get("_auth_user_id") == user_pk
    )
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in keys:
        store(session_key=key).delete()
    UserSession.objects.filter(user=user).delete()
    if farewell is not None and keys:
        cache.set_many({FAREWELL_PREFIX + key: farewell for key in keys}, FAREWELL_SECONDS)
    return len(keys)


@transaction.atomic
def vacation_start(*, user: User, until: datetime.date) -> Vacation:
    """Start a vacation now, to the end of ``until`` (UTC); ValidationError if not allowed.

    It may not start while another runs, nor end before today, nor take more days of a
    calendar year than are left of that year's allowance (``LIMES_VACATION_DAYS_PER_YEAR``;
    one over New Year counts its days in each year).
    """
    # The player's row lock serialises two requests: both cannot spend the same days.
    User.objects.select_for_update().filter(pk=user.pk).first()
    now = timezone.now()
    today = now.astimezone(datetime.UTC).date()
    if vacation_current(user, now) is not None:
        raise ValidationError(_("You are already on vacation."), code="running")
    if until < today:
        raise ValidationError(_("The last day of a vacation cannot lie in the past."), code="past")
    allowance = settings.LIMES_VACATION_DAYS_PER_YEAR
    left = max(allowance - vacation_days_used(user, today.year), 0)
    # Days compared before any date is computed: a far-off ``until`` overflows nothing.
    if (until - today).days + 1 > left:
        raise ValidationError(
            ngettext(
                "That is more than the %(left)d day of vacation you have left this year.",
                "That is more than the %(left)d days of vacation you have left this year.",
                left,
            )
            % {"left": left},
            code="allowance",
        )
    if until.year > today.year:
        # Over New Year: its days of next year come out of next year's allowance.
        next_year = until.year
        left = max(allowance - vacation_days_used(user, next_year), 0)
        if (until - datetime.date(next_year, 1, 1)).days + 1 > left:
            raise ValidationError(
                ngettext(
                    "That is more than the %(left)d day of vacation you have left in %(year)d.",
                    "That is more than the %(left)d days of vacation you have left in %(year)d.",
                    left,
                )
                % {"left": left, "year": next_year},
                code="allowance",
            )
    ends_at = datetime.datetime.combine(
        until + datetime.timedelta(days=1), datetime.time(), tzinfo=datetime.UTC
    )
    vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=ends_at)
    vacation_changed.send(sender=User, user=user)
    return vacation


@transaction.atomic
def vacation_end(*, user: User) -> bool:
    """End the player's vacation now; the days not taken return. Whether one was running."""
    User.objects.select_for_update().filter(pk=user.pk).first()
    now = timezone.now()
    vacation = vacation_current(user, now)
    if vacation is None:
        return False
    if vacation.starts_at >= now:
        vacation.delete()
    else:
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
    vacation_changed.send(sender=User, user=user)
    return True


# Notifications: choices and devices


@transaction.atomic
def notification_preferences_set(*, user: User, choices: dict[tuple[str, str], bool]) -> None:
    """Store ``user``'s choices, each (event, channel) on or off; pairs that can't be
    chosen (a moderator's answer, a live turn by e-mail) are ignored."""
    for event in CHOOSABLE:
        for channel in CHANNELS[event]:
            if (event.value, channel.value) in choices:
                NotificationPreference.objects.update_or_create(
                    user=user,
                    event=event.value,
                    channel=channel.value,
                    defaults={"enabled": bool(choices[(event.value, channel.value)])},
                )


#: The Push API's keys, base64url: 65 bytes (an uncompressed P-256 point) and 16 bytes.
_P256DH_LENGTH = 87
_AUTH_LENGTH = 22
_BASE64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@transaction.atomic
def push_subscription_save(
    *, user: User, endpoint: str, p256dh: str, auth: str, label: str = ""
) -> PushSubscription:
    """Subscribe one device of ``user`` (or refresh its keys: an endpoint is one device).

    Raises ``ValidationError`` for an endpoint ``push_endpoint`` refuses (it stores the URL
    that function gives, the one the worker posts to), keys of the wrong shape, or anything
    too long; ``ActionRefused`` (409) for a device past ``LIMES_PUSH_DEVICES_PER_PLAYER``.
    """
    p256dh, auth = p256dh.rstrip("="), auth.rstrip("=")
    if len(p256dh) != _P256DH_LENGTH or not set(p256dh) <= _BASE64URL or p256dh[0] != "B":
        raise ValidationError(_("This is not a push subscription's key."), code="p256dh")
    if len(auth) != _AUTH_LENGTH or not set(auth) <= _BASE64URL:
        raise ValidationError(_("This is not a push subscription's key."), code="auth")
    if not _is_p256_point(p256dh):
        # The worker could never encrypt for it.
        raise ValidationError(_("This is not a push subscription's key."), code="p256dh")
    endpoint = push_endpoint(endpoint)
    # The player's row first, then the device's: one count of their devices at a time.
    User.objects.select_for_update().filter(pk=user.pk).first()
    existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    # A device moves to another account (a shared browser) only with its own keys: its
    # endpoint alone, which a push service's logs or a page may show, takes nobody's.
    if existing is not None and existing.user_id != user.pk:
        same = hmac.compare_digest(existing.p256dh, p256dh)
        if not (hmac.compare_digest(existing.auth, auth) and same):
            raise ValidationError(_("This is not a push subscription."), code="endpoint")
    # Each device costs the task worker a POST for every notification: a script's
    # hundreds would hold it (a refreshed one is no new device).
    devices = PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint).count()
    if devices >= settings.LIMES_PUSH_DEVICES_PER_PLAYER:
        raise ActionRefused(
            _("Notifications already reach as many devices as they may: remove one first."),
            status=409,
            code="devices",
        )
    subscription = existing or PushSubscription(endpoint=endpoint)
    subscription.user = user
    subscription.p256dh = p256dh
    subscription.auth = auth
    subscription.label = label[:100]
    subscription.full_clean()
    subscription.save()
    return subscription


def _is_p256_point(p256dh: str) -> bool:
    raw = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        return False
    return True


@transaction.atomic
def push_subscriptions_signed_out(*, user: User, subscription_ids: Iterable[int]) -> int:
    """Unsubscribe the devices ``user`` subscribed in a session they now sign out of: on a
    shared browser, the next person must not get their notifications. Returns how many."""
    ids = [pk for pk in subscription_ids if isinstance(pk, int)]
    deleted, _kinds = PushSubscription.objects.filter(user=user, pk__in=ids).delete()
    return deleted


@transaction.atomic
def push_subscription_remove(*, user: User, subscription_id: int) -> bool:
    """Unsubscribe one of ``user``'s devices; False if they have no such device."""
    deleted, _kinds = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    return deleted > 0


def ensure_not_banned(user: User) -> None:
    """Raise ``PermissionDenied`` if ``user`` is banned: a banned player starts nothing,
    in either game."""
    if user.is_banned:
        raise PermissionDenied(_("Your account is banned."))
