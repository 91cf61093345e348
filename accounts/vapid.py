"""VAPID keys, which sign this site's web pushes (RFC 8292): made here, read from settings.

The public key goes to the browser (``applicationServerKey``); the private key stays with
the task worker that sends the pushes.
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings


def b64url(data: bytes) -> str:
    """``data`` in unpadded base64url, as the Push API writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def vapid_pair_make() -> tuple[str, str]:
    """A fresh key pair: (public, private), each base64url (65 and 32 bytes)."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public), b64url(private)


def push_enabled() -> bool:
    """Whether web push is configured (both VAPID keys set)."""
    return bool(settings.LIMES_VAPID_PUBLIC_KEY and settings.LIMES_VAPID_PRIVATE_KEY)
