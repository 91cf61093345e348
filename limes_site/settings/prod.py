"""Settings for a deployment. Everything secret or site-specific comes from the environment.

Required: DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS (comma-separated), DATABASE_URL.
Optional: REDIS_URL, DJANGO_CSRF_TRUSTED_ORIGINS, DJANGO_BEHIND_TLS_PROXY, EMAIL_HOST and
friends, DJANGO_TRUSTED_PROXY_COUNT, LIMES_DECK, SENTRY_DSN (SENTRY_ENVIRONMENT,
SENTRY_TRACES_SAMPLE_RATE).
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403


def _env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = False

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY: production has no default secret key.")

ALLOWED_HOSTS = _env_list("DJANGO_ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set DJANGO_ALLOWED_HOSTS, e.g. 'limes.example.org'.")

CSRF_TRUSTED_ORIGINS = _env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# HTTPS everywhere.
SECURE_SSL_REDIRECT = True
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = _env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
SECURE_REFERRER_POLICY = "same-origin"
# Only behind a proxy that terminates TLS and overwrites this header; otherwise a client
# could claim HTTPS.
if _env_bool("DJANGO_BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Hashed, compressed file names so browsers may cache static files forever.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Throttles (failed sign-ins, invitation codes) must count across every worker: without
# Redis, the database holds the cache (create its table with `manage.py createcachetable`).
if not REDIS_URL:  # noqa: F405
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "limes_cache",
        },
    }

# Moderators sign in with a second factor (an authenticator app or a passkey).
LIMES_STAFF_NEED_MFA = True

ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https"

EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _env_bool("EMAIL_USE_TLS", False)
SERVER_EMAIL = DEFAULT_FROM_EMAIL  # noqa: F405

# Django's own messages (errors above all) beside the JSON request lines of base.
LOGGING["root"]["level"] = "INFO"  # noqa: F405
LOGGING["loggers"]["django"] = {"handlers": ["console"], "level": "INFO", "propagate": False}  # noqa: F405

# The proxy's health checks come over plain HTTP from inside the network.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
