"""Who is asking: the client's address as the throttles, the API's limits and the streams'
limits count it."""

from __future__ import annotations

import ipaddress

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


def client_network(request: HttpRequest) -> str:
    """The client's address, or for IPv6 its /64: one household or machine is usually given
    a whole /64, and counting each of its addresses apart would count it many times."""
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)
