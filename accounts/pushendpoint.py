"""A push subscription's endpoint, read once, with the parser of the code that posts to it.

The task worker POSTs each notification to its device's endpoint through ``requests``,
which reads a URL with urllib3's parser; ``urllib.parse`` reads some URLs otherwise (it
ends the host at ``@`` where urllib3 ends it at a backslash: ``https://10.0.0.1\\@fcm.
googleapis.com/`` is Google's to one, an address of the site's network to the other). So
an endpoint is read here with urllib3's parser alone, checked, and written back from what
was read (``push_endpoint``): the subscription stores that URL and the worker, reading it
again here, posts to it, to the very host that was checked.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from urllib3.exceptions import LocationParseError
from urllib3.util import Url, parse_url

# Printable ASCII, the backslash left out: what every browser's push service sends, and
# nothing two parsers could read two ways (spaces, controls, a backslash).
_PRINTABLE = frozenset(chr(code) for code in range(0x21, 0x7F)) - {"\\"}


def push_endpoint(endpoint: str) -> str:
    """The URL the worker posts to for ``endpoint``, as urllib3 (requests) reads it.

    Raises ``ValidationError`` unless it is an https URL (http only where
    ``LIMES_PUSH_ALLOW_HTTP``) with no user, no fragment and no backslash, and, where
    ``LIMES_PUSH_HOSTS`` names the push services, on one of their hosts by name, without a
    port. (Without that list, in development and tests, a stand-in on an address and a
    port of this machine passes.)
    """
    if not endpoint or not set(endpoint) <= _PRINTABLE:
        raise _refused()
    try:
        url = parse_url(endpoint)
    except (LocationParseError, ValueError):
        raise _refused() from None
    schemes = ("https", "http") if settings.LIMES_PUSH_ALLOW_HTTP else ("https",)
    if url.scheme not in schemes:
        raise ValidationError(_("A push service must be reached over https."), code="endpoint")
    if url.auth is not None or url.fragment is not None or not url.host:
        raise _refused()
    hosts: tuple[str, ...] | None = settings.LIMES_PUSH_HOSTS
    if hosts is not None and not _is_push_service(url, hosts):
        raise _refused()
    written = url.url
    # Read again, it must name the same place: what the worker posts to is what passed.
    again = parse_url(written)
    if (again.scheme, again.host, again.port, again.auth) != (url.scheme, url.host, url.port, None):
        raise _refused()  # pragma: no cover - urllib3 writes back what it read
    return written


def _is_push_service(url: Url, hosts: tuple[str, ...]) -> bool:
    host = url.host or ""
    if url.port is not None or _is_address(host):
        return False
    return any(host == known or host.endswith("." + known) for known in hosts)


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _refused() -> ValidationError:
    return ValidationError(_("This is not a push subscription."), code="endpoint")
