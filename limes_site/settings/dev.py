"""Settings for a developer's machine: debug on, emails printed to the console."""

from __future__ import annotations

import os

from .base import *  # noqa: F403

DEBUG = True

SECRET_KEY = os.environ.get(
    "DJANGO_SECRET_KEY", "django-insecure-dev-only-key-never-use-this-in-production"
)

ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# A development pair for web push, public on purpose: production reads its own from the
# environment (`manage.py vapid_keys`), never this one.
DEV_VAPID_PUBLIC_KEY = (
    "BF2vkP5KOaKt2dGuYsEaYpE9bM2ajjRsvyq0xeC5vEzB-A-TzVjrTCcYdRfdWPhrQRk29VIOFsakeCpiAoSHheA"
)
DEV_VAPID_PRIVATE_KEY = "4DRA4JpH08yE9fMxaJdgnRL_0YEvzouobpRS-4pwVzs"
LIMES_VAPID_PUBLIC_KEY = os.environ.get("LIMES_VAPID_PUBLIC_KEY", DEV_VAPID_PUBLIC_KEY)
LIMES_VAPID_PRIVATE_KEY = os.environ.get("LIMES_VAPID_PRIVATE_KEY", DEV_VAPID_PRIVATE_KEY)
# The tests' stand-in push service listens on http://127.0.0.1.
LIMES_PUSH_ALLOW_HTTP = True
LIMES_PUSH_HOSTS = None
