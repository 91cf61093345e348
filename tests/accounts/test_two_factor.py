"""Two-factor sign-in: an authenticator app with recovery codes, passkeys, and moderators."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import (
    format_hotp_value,
    hotp_value,
    yield_hotp_counters_from_time,
)
from django.contrib.auth import get_user
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD, moderators_group

pytestmark = pytest.mark.django_db


def _code(secret: str) -> str:
    counter = list(yield_hotp_counters_from_time())[len(list(yield_hotp_counters_from_time())) // 2]
    return str(format_hotp_value(hotp_value(secret, counter)))


def _sign_in(client: Client, user: User) -> Any:
    return client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})


def _activate_totp(client: Client) -> str:
    # Adding a factor asks for the password again, however recent the sign-in.
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    page = client.get(reverse("mfa_activate_totp"))
    assert page.status_code == 200
    secret = page.context["form"].secret
    response = client.post(reverse("mfa_activate_totp"), {"code": _code(secret)})
    assert response.status_code == 302
    return str(secret)


def test_an_authenticator_app_with_recovery_codes_guards_the_next_sign_in(user: User) -> None:
    client = Client()
    _sign_in(client, user)
    secret = _activate_totp(client)
    kinds = set(Authenticator.objects.filter(user=user).values_list("type", flat=True))
    assert kinds == {Authenticator.Type.TOTP, Authenticator.Type.RECOVERY_CODES}
    codes = client.get(reverse("mfa_view_recovery_codes")).context["unused_codes"]
    assert len(codes) >= 8

    other = Client()
    response = _sign_in(other, user)
    # The password alone is not enough: the second step asks for a code.
    assert response["Location"] == reverse("mfa_authenticate")
    assert not get_user(other).is_authenticated
    other.post(reverse("mfa_authenticate"), {"code": "000000"})
    assert not get_user(other).is_authenticated
    other.post(reverse("mfa_authenticate"), {"code": _code(secret)})
    assert get_user(other) == user

    # A recovery code stands in for a lost phone, once.
    third = Client()
    _sign_in(third, user)
    third.post(reverse("mfa_authenticate"), {"code": codes[0]})
    assert get_user(third) == user


def test_passkeys_are_offered_for_sign_in_and_as_a_second_factor(
    client: Client, user: User
) -> None:
    login_page = client.get(reverse("account_login")).content.decode()
    assert reverse("mfa_login_webauthn") in login_page or "passkey" in login_page.lower()
    _sign_in(client, user)
    index = client.get(reverse("mfa_index")).content.decode()
    assert reverse("mfa_add_webauthn") in index
    client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    add = client.get(reverse("mfa_add_webauthn"))
    assert add.status_code == 200
    # The browser's WebAuthn call is made by allauth's script file, not inline.
    assert "webauthn.js" in add.content.decode()
    settings_page = client.get(reverse("accounts:settings")).content.decode()
    assert reverse("mfa_index") in settings_page


@override_settings(LIMES_STAFF_NEED_MFA=True)
def test_where_required_moderators_open_the_admin_only_with_a_second_factor(user: User) -> None:
    user.is_staff = True
    user.save()
    user.groups.add(moderators_group())
    client = Client()
    _sign_in(client, user)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert response["Location"] == reverse("mfa_index")
    secret = _activate_totp(client)
    # The session was opened by the password alone: the code is asked for once.
    response = client.get(reverse("admin:index"))
    assert response["Location"].startswith(reverse("mfa_reauthenticate"))
    client.post(reverse("mfa_reauthenticate"), {"code": _code(secret)})
    assert client.get(reverse("admin:index")).status_code == 200
