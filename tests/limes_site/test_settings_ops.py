"""Operations settings: error reports only with a DSN, a shared Redis split by prefix."""

from __future__ import annotations

from tests.fresh_django import PROD_ENV, run_django

SENTRY_ACTIVE = "import sentry_sdk\nprint(sentry_sdk.get_client().is_active())"


def test_errors_go_to_sentry_when_a_dsn_is_set() -> None:
    # A loopback DSN: nothing is sent unless an error happens, and then only to this machine.
    result = run_django(SENTRY_ACTIVE, **PROD_ENV, SENTRY_DSN="http://key@127.0.0.1:9/1")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_no_error_reporting_without_a_dsn() -> None:
    result = run_django(SENTRY_ACTIVE, **PROD_ENV)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_a_cache_prefix_keeps_sites_apart_in_one_redis() -> None:
    result = run_django(
        "from django.conf import settings\nprint(settings.CACHES['default']['KEY_PREFIX'])",
        **PROD_ENV,
        REDIS_URL="redis://127.0.0.1:6379/0",
        LIMES_CACHE_PREFIX="cluster-a",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "cluster-a"


def test_sessions_are_read_from_redis_only_when_every_server_shares_it() -> None:
    show = "from django.conf import settings\nprint(settings.SESSION_ENGINE)"
    shared = run_django(show, **PROD_ENV, REDIS_URL="redis://127.0.0.1:6379/0")
    alone = run_django(show, **{**PROD_ENV, "DJANGO_SETTINGS_MODULE": "limes_site.settings.dev"})

    assert shared.returncode == 0, shared.stderr
    assert alone.returncode == 0, alone.stderr
    # Written through to the database, so losing Redis signs nobody out.
    assert shared.stdout.strip() == "django.contrib.sessions.backends.cached_db"
    # A per-process cache would hand another process a stale session: database only.
    assert alone.stdout.strip() == "django.contrib.sessions.backends.db"


def test_the_cluster_runs_production_settings_over_plain_http() -> None:
    result = run_django(
        "from django.conf import settings\n"
        "print(settings.DEBUG, settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE,"
        " settings.STORAGES['staticfiles']['BACKEND'])",
        **{**PROD_ENV, "DJANGO_SETTINGS_MODULE": "limes_site.settings.cluster"},
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "False",
        "False",
        "False",
        "whitenoise.storage.CompressedManifestStaticFilesStorage",
    ]
