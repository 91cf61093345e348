"""Who is asking: the client's address as the throttles, the API's limits and the streams'
limits count it."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's IP address, trusting as many proxies as allauth is told to."""
    proxies = int(getattr(settings, "ALLAUTH_TRUSTED_PROXY_COUNT", 0))
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= proxies:
            return str(hops[-proxies])
    return str(request.META.get("REMOTE_ADDR", ""))
