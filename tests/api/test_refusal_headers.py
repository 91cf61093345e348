"""The API's refusals carry the site's security headers, as its answers do."""

from __future__ import annotations

import pytest
from django.test import Client

from api import limits

pytestmark = pytest.mark.django_db

SECURITY_HEADERS = [
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "X-Frame-Options",
    "Cross-Origin-Opener-Policy",
]


def test_a_refused_api_request_has_the_security_headers_of_an_answered_one(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "ANONYMOUS_PER_WINDOW", 1)
    answered = client.get("/api/v1/leaderboards/")
    refused = client.get("/api/v1/leaderboards/")

    assert (answered.status_code, refused.status_code) == (200, 429)
    for header in SECURITY_HEADERS:
        assert refused.get(header) == answered.get(header) is not None, header
