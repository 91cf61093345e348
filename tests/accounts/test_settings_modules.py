"""The settings modules a deployment would use, each loaded in a fresh interpreter."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings

from tests.fresh_django import PROD_ENV, run_django


def test_production_settings_pass_the_deployment_check() -> None:
    result = run_django(
        "from django.core.management import call_command\n"
        "call_command('check', deploy=True, fail_level='WARNING')",
        **PROD_ENV,
    )

    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert "WARNING" not in output
    assert "System check identified no issues" in output


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in PROD_ENV.items() if k != "DJANGO_SECRET_KEY"}

    result = run_django("", **env)

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_cache_is_redis_when_redis_url_is_set() -> None:
    result = run_django(
        "from django.conf import settings\nprint(settings.CACHES['default']['BACKEND'])",
        DJANGO_SETTINGS_MODULE="limes_site.settings.dev",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "limes_site.cache.RedisCache"


def test_cache_is_in_memory_without_redis_url() -> None:
    result = run_django(
        "from django.conf import settings\nprint(settings.CACHES['default']['BACKEND'])",
        DJANGO_SETTINGS_MODULE="limes_site.settings.dev",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.core.cache.backends.locmem.LocMemCache"


def test_production_shares_its_cache_between_workers_even_without_redis() -> None:
    result = run_django(
        "from django.conf import settings\nprint(settings.CACHES['default']['BACKEND'])",
        **PROD_ENV,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.core.cache.backends.db.DatabaseCache"


def test_the_deployment_check_warns_of_a_cache_kept_per_process() -> None:
    result = run_django(
        "from django.conf import settings\n"
        "settings.CACHES['default'] = {'BACKEND': "
        "'django.core.cache.backends.locmem.LocMemCache'}\n"
        "from django.core.management import call_command\n"
        "call_command('check', deploy=True)",
        **PROD_ENV,
    )
    assert "limes.W001" in result.stdout + result.stderr


def test_production_sends_the_content_security_policy_and_a_secure_language_cookie() -> None:
    result = run_django(
        "from django.test import Client\n"
        "response = Client().post('/i18n/', {'language': 'de'}, secure=True,"
        " HTTP_HOST='example.org')\n"
        "print(response['Content-Security-Policy'])\n"
        "print(response.cookies['django_language'].output())",
        **PROD_ENV,
    )
    assert result.returncode == 0, result.stderr
    assert "script-src 'self'" in result.stdout
    assert "frame-ancestors 'none'" in result.stdout
    # The language cookie goes over HTTPS only, as the session's and CSRF's do.
    assert "django_language=de" in result.stdout
    assert "Secure" in result.stdout


def test_production_requires_a_second_factor_of_moderators() -> None:
    result = run_django(
        "from django.conf import settings\nprint(settings.LIMES_STAFF_NEED_MFA)", **PROD_ENV
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


@pytest.mark.django_db
def test_migrate_creates_the_database_caches_table() -> None:
    database_cache = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "limes_cache_probe",
        }
    }
    with override_settings(CACHES=database_cache):
        call_command("migrate", verbosity=0)
        # A throttle's counter, as a failed sign-in keeps it: no 500 for a missing table.
        cache.set("throttle:probe", 1)
        assert cache.get("throttle:probe") == 1
