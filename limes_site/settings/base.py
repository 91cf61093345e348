"""Settings shared by every environment.

Per-environment files (``dev``, ``test``, ``prod``) start with ``from .base import *`` and
change only what differs. Anything a deployment must choose comes from the environment.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

import dj_database_url
import django_stubs_ext
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.utils.translation import gettext_lazy as _

# Admin classes name their model (``ModelAdmin[Game]``), as django-stubs types them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent

# Each environment file sets its own; base has none so that prod can't inherit a dev key.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")

DEBUG = False

ALLOWED_HOSTS: list[str] = []

INSTALLED_APPS = [
    "limes_site.admin.LimesAdminConfig",  # django.contrib.admin, one Accounts section
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "csp",
    "allauth",
    "allauth.account",
    # The account's signed-in sessions (accounts/sessions/), to sign the others out.
    "allauth.usersessions",
    # Two-factor sign-in: authenticator apps with recovery codes, and passkeys.
    "allauth.mfa",
    "django_htmx",
    # Wraps the template loaders itself (see template_partials.apps), so that
    # "page.html#fragment" names load a single partial.
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    # Django Ninja: its static Swagger UI for /api/v1/docs (no scripts from elsewhere).
    "ninja",
    "accounts",
    # What every game shares: notices, mail, web push, server push, the task queue.
    "floor",
    "games",
    # Carcassonne: Winter Edition (the engine is winter/), beside Limes.
    "wintergames",
    "learn",
    "leaderboards",
    "tournaments",
    "social",
    "puzzles",
    "moderation",
    # The public read API (/api/v1/), embeds and personal tokens: reads every app above.
    "api",
]

# Work that must not run inside a player's request (computer players' turns, analyses)
# goes to a queue in the database; `manage.py task_worker` runs it.
# Two queues (floor.taskqueue): "computers" for what a person at a table waits for, served by
# workers of its own; "default" for the rest.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default", "computers"],
    }
}
# Seconds a task worker (`manage.py task_worker`) may go without a beat before the tasks it
# was running are queued again for another (floor.taskqueue).
LIMES_TASK_LEASE_SECONDS = float(os.environ.get("LIMES_TASK_LEASE_SECONDS", "30"))

MIDDLEWARE = [
    # First, so its line's duration and query count cover every other middleware.
    "limes_site.observability.RequestLogMiddleware",
    # A request that lost its PostgreSQL connection is served again (or gets a 503).
    "limes_site.dbretry.DatabaseRetryMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads a form body: Django's error pages cannot read some of them.
    "limes_site.middleware.RejectUndecodableFormsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # After CommonMiddleware has checked the host against ALLOWED_HOSTS.
    "accounts.site_url.SiteUrlMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After LocaleMiddleware and the user: a signed-in player's stored language wins.
    "accounts.middleware.PlayerLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # /api/ only: CORS for GET and the rate limits, before any session or user is read (the
    # middlewares above read neither before the view), and inside the ones that add the
    # security headers, which its refusals (429) carry as every other answer does.
    "api.middleware.ApiMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # After allauth's: it keeps a signed-out visitor's POST out of a new session.
    "accounts.middleware.SignedOutConfirmationMiddleware",
    # Signs out banned players and holds renamed ones at the choose-a-name page.
    "moderation.middleware.ModerationMiddleware",
    # Friends see who is online: a read of the cache per request, no query.
    "social.middleware.PresenceMiddleware",
]

ROOT_URLCONF = "limes_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # template_partials replaces this with its own cached loader chain at start-up.
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # {{ request.csp_nonce }} also as {{ CSP_NONCE }}, for any inline script.
                "csp.context_processors.nonce",
                # The menu's badges (games waiting for a move, unread notifications).
                "limes_site.chrome.menu",
            ],
            # {% partialdef %} everywhere without a {% load %} in each template.
            "builtins": ["template_partials.templatetags.partials", "core.htmltime"],
        },
    },
]

WSGI_APPLICATION = "limes_site.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
    ),
}

# SQLite (scripts/serve) is written by two processes at once, the web server and the task
# worker. WAL lets readers go on while one writes; the busy timeout makes a writer wait for
# the lock instead of failing with "database is locked"; and BEGIN IMMEDIATE takes the
# write lock when a transaction starts: a transaction that read first and only then asked
# for it (SQLite's default, DEFERRED) gets SQLITE_BUSY at once, whatever the timeout.
SQLITE_OPTIONS: dict[str, object] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
# Under ASGI (uvicorn: scripts/serve, the cluster's stream servers) views and a stream's
# reads run in threads: a connection kept per thread (CONN_MAX_AGE) would pile up until
# PostgreSQL refuses more (measured: "too many clients" at 250 players). A pool per process
# lends one to each request instead, under WSGI too.
# The pool checks a connection before lending it (one round trip, ~0.1 ms): after a
# PostgreSQL restart, a failover or an idle kill, a dead one is replaced instead of failing
# the request that drew it (limes_site.dbretry serves again one that lost it mid-way).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # (Django gives the pool psycopg_pool's ConnectionPool.check_connection for this.)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("LIMES_DB_POOL_SIZE", "6")),
        "timeout": 10,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The boards' covering indexes (INCLUDE columns) are for PostgreSQL; SQLite, for local
# play, keeps the index without them, which is all it needs.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

# Redis lets several processes share rate-limit counters; one process can do with memory.
REDIS_URL = os.environ.get("REDIS_URL")
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "limes_site.cache.RedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that is away costs a request at most this, then is left alone for a
            # second (limes_site.cache): every use of the cache has the database behind it.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        },
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "limes",
        },
    }

# A game's poll state (games.pollstate) lives in the cache only where every process sees
# the same cache: with a per-process one (scripts/serve without Redis), the worker's moves
# would never reach the web server's polls, so they read the game's row instead.
POLL_STATE_IN_CACHE = bool(REDIS_URL)

# Server push (floor.push, floor.streams): through Redis pub/sub when there is Redis, which
# reaches every app server; else through Unix datagram sockets in this folder, which reach
# every process of this machine (the web server and the worker of scripts/serve).
PUSH_REDIS_URL = REDIS_URL
PUSH_SOCKET_DIR = os.environ.get("LIMES_PUSH_DIR", str(BASE_DIR / "var" / "push"))
# Sites (or test clusters) sharing one Redis server hear only their own events.
PUSH_PREFIX = os.environ.get("LIMES_CACHE_PREFIX", "")

# With Redis shared by every app server, a session is read from it and written through to
# the database, which keeps it if Redis is lost: one query less on every signed-in request.
# (Not with a per-process cache: another process would read a stale copy.)
if REDIS_URL:
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Content-Security-Policy, for every environment: scripts and styles from this site only
# (an inline script needs the request's nonce), no plugins, no framing, forms post here.
# Style attributes stay allowed (the board's grid size, SVG defs, the admin's), style
# elements do not: htmx is told not to add its own (see base.html's htmx-config).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Event streams (floor.streams) one client may hold open at a time in each stream process:
# per address (players behind one address share it) and per browser session. A stream
# refused past the limit answers 429 and its page polls instead. The proxy holds its own
# limits across the stream servers (deploy/haproxy.cfg).
LIMES_STREAMS_PER_ADDRESS = int(os.environ.get("LIMES_STREAMS_PER_ADDRESS", "100"))
LIMES_STREAMS_PER_SESSION = int(os.environ.get("LIMES_STREAMS_PER_SESSION", "20"))

# Vacation: the days a player may stop their correspondence clocks in a calendar year (UTC).
LIMES_VACATION_DAYS_PER_YEAR = int(os.environ.get("LIMES_VACATION_DAYS_PER_YEAR", "30"))

# Users and authentication

AUTH_USER_MODEL = "accounts.User"

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    # Signs in by username or email, with allauth's rate limits.
    "allauth.account.auth_backends.AuthenticationBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"

# django-allauth (65.x setting names)
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
# Names that would shadow a page under /players/ or pose as staff or as a deleted player.
ACCOUNT_USERNAME_BLACKLIST = ["admin", "administrator", "settings", "staff", "support"]
# Words no username may contain, whatever the case, digits for letters or separators
# ("N-a-z-1" contains "nazi"); comma-separated in the environment to replace the list.
LIMES_FORBIDDEN_USERNAME_WORDS = [
    word.strip()
    for word in os.environ.get(
        "LIMES_FORBIDDEN_USERNAME_WORDS",
        "nazi,hitler,fuck,nigger,nigga,faggot,retard,whore,rapist,moderator",
    ).split(",")
    if word.strip()
]
# Words no chat message may contain (whole words, whatever the case or width), refused
# when sent; comma-separated in the environment to replace the list, empty for none.
LIMES_CHAT_WORD_FILTER = [
    word.strip()
    for word in os.environ.get(
        "LIMES_CHAT_WORD_FILTER", "nigger,nigga,faggot,retard,whore,rapist"
    ).split(",")
    if word.strip()
]
# How long a challenge to a live game waits for its answer (minutes): the challenger is
# waiting at the screen. A correspondence challenge waits days (social.services).
LIMES_LIVE_CHALLENGE_MINUTES = int(os.environ.get("LIMES_LIVE_CHALLENGE_MINUTES", "5"))
# At most one "your move" mail of correspondence games per player per this many minutes;
# it lists every game then waiting for them (floor.mail).
LIMES_TURN_MAIL_INTERVAL = int(os.environ.get("LIMES_TURN_MAIL_INTERVAL", "60"))
# Web push (floor.webpush): the VAPID key pair that signs this site's pushes, base64url, made
# by `manage.py vapid_keys`. Both empty: no push (the settings page offers none). The public
# key reaches the page; the private key only the task worker. The subject is a contact
# address the push services may write to.
LIMES_VAPID_PUBLIC_KEY = os.environ.get("LIMES_VAPID_PUBLIC_KEY", "")
LIMES_VAPID_PRIVATE_KEY = os.environ.get("LIMES_VAPID_PRIVATE_KEY", "")
LIMES_VAPID_SUBJECT = os.environ.get("LIMES_VAPID_SUBJECT", "mailto:admin@localhost")
# Whether a device may subscribe with a push service on plain http (a local stand-in):
# never in production, where every real push service is https.
LIMES_PUSH_ALLOW_HTTP = False
# The push services a device may subscribe with (a host, or any host under it): the task
# worker POSTs to each endpoint, so an address of the site's own network must not pass.
# Chrome, Edge, Firefox and Safari's; None (development, tests): any host.
LIMES_PUSH_HOSTS: tuple[str, ...] | None = (
    "fcm.googleapis.com",
    "android.googleapis.com",
    "push.services.mozilla.com",
    "push.apple.com",
    "notify.windows.com",
)
# A player's devices that get pushes: each costs the task worker a POST per notification.
LIMES_PUSH_DEVICES_PER_PLAYER = int(os.environ.get("LIMES_PUSH_DEVICES_PER_PLAYER", "10"))
# Seconds the worker waits for a push service (to connect, then each read of its answer),
# and at most for all of one notification's devices (floor.webpush).
LIMES_PUSH_TIMEOUT_SECONDS = float(os.environ.get("LIMES_PUSH_TIMEOUT_SECONDS", "5"))
LIMES_PUSH_TASK_SECONDS = float(os.environ.get("LIMES_PUSH_TASK_SECONDS", "20"))
# allauth's defaults stay in force (failed sign-ins: 10 a minute per IP and 5 per
# five minutes per account); only the sign-in limit is spelt out to show it is wanted.
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
# Two-factor sign-in (allauth.mfa): an authenticator app (TOTP) with recovery codes, and
# passkeys (WebAuthn) where the browser offers them, for a second step or on their own.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_TOTP_ISSUER = "Limes Online"
# Keeps staff from switching their second factor off where it is required.
MFA_ADAPTER = "accounts.adapter.MFAAdapter"
# Whether staff (moderators) must have a second factor, used in the session, before they
# may open the admin, and may not switch it off; production requires it.
LIMES_STAFF_NEED_MFA = False
# Behind a reverse proxy, the number of proxies whose X-Forwarded-For allauth may trust
# to find the client's address for rate limiting.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("DJANGO_TRUSTED_PROXY_COUNT", "0"))

# Internationalisation

LANGUAGE_CODE = "en"
# Each language but English has its catalogues under locale/ (compiled by scripts/_bootstrap.sh).
LANGUAGES = [
    ("en", _("English")),
    ("cs", _("Czech")),
    ("de", _("German")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language menu's cookie is sent with the site's own requests and top-level links only.
LANGUAGE_COOKIE_SAMESITE: Final = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Static files, served by WhiteNoise

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "Limes Online <noreply@localhost>")

# The site's address as players reach it, for links in emails.
# Empty: emails use the host of the request that sends them (accounts/site_url.py).
LIMES_SITE_URL = os.environ.get("LIMES_SITE_URL", "").rstrip("/")

# Path of a deck file to play with, or None for the built-in deck.
LIMES_DECK = os.environ.get("LIMES_DECK")

# The hottest reads use SQL compiled once and Django's row populators (floor/internals.py,
# written for Django 5.2). False reads them through the plain ORM: the same objects for a
# query or two more per page, on any Django.
LIMES_ORM_INTERNALS = True

# Key of the daily challenge's card sequences (HMAC of the date), so that no one can work
# out tomorrow's cards from the code. Empty: games.daily derives one from SECRET_KEY,
# which production requires; set it to keep the days' cards when SECRET_KEY is rotated.
LIMES_DAILY_SECRET = os.environ.get("LIMES_DAILY_SECRET", "")

# The release's name, for the service worker's cache of static files (limes_site.installable):
# a new name makes browsers install the new worker. Empty: a hash of the static files, the
# same on every server built from the same code.
LIMES_RELEASE = os.environ.get("LIMES_RELEASE", "")

# -- Operations: request logs, error reports ---------------------------------------------
# (kept together so that other settings blocks can change without touching this one)

# One JSON line per request on stderr (limes_site.observability.RequestLogMiddleware); the
# process manager (systemd's journal, the cluster script's log files) keeps them.
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "limes_site.observability.JsonFormatter"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "json": {"class": "logging.StreamHandler", "formatter": "json"},
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "limes.request": {"handlers": ["json"], "level": "INFO", "propagate": False},
        "limes.health": {"handlers": ["json"], "level": "WARNING", "propagate": False},
    },
}

# Several sites (or test clusters) may share one Redis server: each keeps to its own keys.
for _cache in CACHES.values():
    if _cache["BACKEND"].endswith(".RedisCache"):
        _cache["KEY_PREFIX"] = os.environ.get("LIMES_CACHE_PREFIX", "")

# Errors go to Sentry when SENTRY_DSN is set, and nowhere new otherwise.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        # Players' addresses, cookies and names stay out of the reports.
        send_default_pii=False,
    )

# Seconds of search the daily challenge's par may take (rules.bot.hindsight_best's budget), once
# a day in the background.
LIMES_PAR_BUDGET = float(os.environ.get("LIMES_PAR_BUDGET", "5"))
