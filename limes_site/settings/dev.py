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
