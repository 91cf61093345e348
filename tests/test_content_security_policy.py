"""Every response carries the Content-Security-Policy, and it allows no inline script."""

from __future__ import annotations

import importlib

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.pages import csp_policy

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/lobby/",
        "/leaderboards/standard/best/",
        "/accounts/login/",
        "/admin/login/",
        "/no-such-page/",
    ],
)
def test_every_response_has_a_policy_without_inline_scripts_or_eval(
    client: Client, url: str
) -> None:
    policy = csp_policy(client.get(url))
    assert policy["default-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


def test_htmx_fragments_and_signed_in_pages_have_it_too(
    client_logged_in: Client, user: User
) -> None:
    for response in (
        client_logged_in.get(reverse("games:lobby"), headers={"HX-Request": "true"}),
        client_logged_in.get(reverse("accounts:settings")),
        client_logged_in.post(reverse("games:new"), {}),
    ):
        assert "script-src 'self'" in response["Content-Security-Policy"]


def test_pages_tell_htmx_to_need_no_eval_and_no_style_elements(client: Client) -> None:
    for url in ("/", "/lobby/"):
        page = client.get(url).content.decode()
        assert '"allowEval": false' in page
        assert '"includeIndicatorStyles": false' in page
        assert "onclick=" not in page


@pytest.mark.parametrize("module", ["dev", "test"])
def test_every_settings_module_keeps_thecsp_policy(module: str) -> None:
    settings_module = importlib.import_module(f"limes_site.settings.{module}")
    assert "csp.middleware.CSPMiddleware" in settings_module.MIDDLEWARE
    assert settings_module.CONTENT_SECURITY_POLICY == settings.CONTENT_SECURITY_POLICY
