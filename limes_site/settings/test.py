"""Settings for the test suite: fast, isolated, no outside services but the database."""

from __future__ import annotations

import os
import tempfile

from .base import *  # noqa: F403

SECRET_KEY = os.environ.get(
    "DJANGO_SECRET_KEY", "django-insecure-test-only-key-never-use-this-in-production"
)

ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

# Hashing strength is not under test, and a slow hasher makes every sign-in slow.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Always in memory, even when REDIS_URL is set: tests clear the cache between them and must
# not wipe a shared Redis.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "limes-tests",
    },
}
# Connections as before the pool: one per thread, kept (tests hold their transaction in it).
DATABASES["default"].get("OPTIONS", {}).pop("pool", None)  # noqa: F405
DATABASES["default"]["CONN_MAX_AGE"] = 60  # noqa: F405
# Nor the pool's check before each request: the tests of a lost connection see it lost.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = False  # noqa: F405

# One process: its cache is every poll's, as Redis is in production.
POLL_STATE_IN_CACHE = True
# Push never through a shared Redis: through sockets of this test run's own.
PUSH_REDIS_URL = None
PUSH_SOCKET_DIR = os.environ.get("LIMES_PUSH_DIR") or tempfile.mkdtemp(prefix="limes-push-")
# Sessions in the database alone, as without Redis: the query counts tests pin include
# the session's read whether or not REDIS_URL is set.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Serve static files straight from static/ so no collectstatic is needed before a test run.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# allauth's limits stay on, so the tests see them; the per-IP ones are raised because every
# request in the suite comes from the same address.
ACCOUNT_RATE_LIMITS = {
    "login_failed": "100/m/ip,5/5m/key",
    "login": "1000/m/ip",
    "signup": "1000/m/ip",
    "reset_password": "1000/m/ip,5/m/key",
    "reset_password_from_key": "1000/m/ip",
}

# Tasks run at once, inside the request or service that enqueues them, so a test sees
# their effect without a worker.
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
        "QUEUES": ["default", "computers"],
    }
}
# Except in the real workers tests/games/test_task_worker.py starts on the test database.
if os.environ.get("LIMES_TEST_TASK_QUEUE") == "database":
    TASKS = {
        "default": {
            "BACKEND": "django_tasks_db.DatabaseBackend",
            "QUEUES": ["default", "computers"],
        }
    }

# The request log stays quiet in tests and in-process benchmarks; tests of the log itself
# raise its level with caplog.
LOGGING["loggers"]["limes.request"]["level"] = "WARNING"  # noqa: F405

# The par's search, kept short: tests check what it stores, not how good it is.
LIMES_PAR_BUDGET = 0.2

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
