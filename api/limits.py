"""Rate limits of the API: per address and per token, fixed windows in the shared cache.

Counters live in the cache every app server shares in production (Redis), so a limit holds
across processes; ``add`` then ``incr`` is atomic there. The client's address is found the
way the rest of the site finds it (``core.clients.client_address``, trusting
``ALLAUTH_TRUSTED_PROXY_COUNT`` proxies).

A request is counted once however often it is served: one that lost its database
connection is served again from the first middleware on (``limes_site.dbretry``), and
keeps the verdict of its first pass.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.http import HttpRequest

from core.clients import client_address
from core.counters import window_count

WINDOW_SECONDS = 60
# Requests a window: without a token, per address; with one, per token. No address may
# pass ADDRESS_CEILING whatever tokens it sends (made-up tokens do not buy more).
ANONYMOUS_PER_WINDOW = 60
TOKEN_PER_WINDOW = 300
ADDRESS_CEILING = 300
# Pages of the NDJSON export (``api.v1.EXPORT_PAGE`` games, a few seconds of an app server
# each) a player may ask for a window, whatever tokens they hold.
EXPORT_PAGES_PER_WINDOW = 6


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after: int  # seconds until the window ends, when refused


def _bearer(request: HttpRequest) -> str | None:
    scheme, _space, secret = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        return None
    return secret.strip()


_VERDICT = "_limes_api_verdict"
_EXPORT_VERDICT = "_limes_api_export_verdict"


def api_request_admit(request: HttpRequest) -> Verdict:
    """Count one API request; refused once its address or its token is past the limit."""
    known: Verdict | None = getattr(request, _VERDICT, None)
    if known is None:
        known = _admit(request)
        setattr(request, _VERDICT, known)
    return known


def _admit(request: HttpRequest) -> Verdict:
    now = time.time()
    window = int(now // WINDOW_SECONDS)
    retry_after = max(1, WINDOW_SECONDS - int(now % WINDOW_SECONDS))
    address = client_address(request)
    secret = _bearer(request)
    limits: list[tuple[str, int]] = [(f"api:rate:addr:{window}:{address}", ADDRESS_CEILING)]
    if secret is None:
        limits.append((f"api:rate:anon:{window}:{address}", ANONYMOUS_PER_WINDOW))
    else:
        # The key holds a hash: a token never lies in the cache as it was sent.
        digest = hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()
        limits.append((f"api:rate:token:{window}:{digest}", TOKEN_PER_WINDOW))
    over = [window_count(key, WINDOW_SECONDS * 2) > limit for key, limit in limits]
    return Verdict(not any(over), retry_after)


def export_page_admit(request: HttpRequest, user_id: int) -> Verdict:
    """Count one page of ``user_id``'s NDJSON export; refused past the window's pages."""
    known: Verdict | None = getattr(request, _EXPORT_VERDICT, None)
    if known is not None:
        return known
    now = time.time()
    window = int(now // WINDOW_SECONDS)
    retry_after = max(1, WINDOW_SECONDS - int(now % WINDOW_SECONDS))
    pages = window_count(f"api:rate:export:{window}:{user_id}", WINDOW_SECONDS * 2)
    verdict = Verdict(pages <= EXPORT_PAGES_PER_WINDOW, retry_after)
    setattr(request, _EXPORT_VERDICT, verdict)
    return verdict
