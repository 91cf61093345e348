"""The settings modules a deployment would use, each loaded in a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# At least 50 characters and 5 distinct ones, as Django's deployment check wants.
PROD_ENV = {
    "DJANGO_SETTINGS_MODULE": "limes_site.settings.prod",
    "DJANGO_SECRET_KEY": "t3st-0nly-Kq8vZ2mN7pR4sW9xY1bC6dF5gH0jL3aE8uT2iO7yQ",
    "DJANGO_ALLOWED_HOSTS": "example.org",
}


def run_django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` after django.setup() in a new Python, with only ``env`` as settings."""
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "REDIS_URL", "LIMES_"))
    }
    script = f"import django\ndjango.setup()\n{code}"
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


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
    assert result.stdout.strip() == "django.core.cache.backends.redis.RedisCache"


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


def test_production_sends_the_content_security_policy() -> None:
    result = run_django(
        "from django.test import Client\n"
        "response = Client().get('/i18n/', secure=True, HTTP_HOST='example.org')\n"
        "print(response['Content-Security-Policy'])",
        **PROD_ENV,
    )
    assert result.returncode == 0, result.stderr
    assert "script-src 'self'" in result.stdout
    assert "frame-ancestors 'none'" in result.stdout


def test_production_requires_a_second_factor_of_moderators() -> None:
    result = run_django(
        "from django.conf import settings\nprint(settings.LIMES_STAFF_NEED_MFA)", **PROD_ENV
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"
