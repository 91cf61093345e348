"""Django started in a fresh interpreter, with only the settings a test gives it: how the
settings modules a deployment uses are tested (tests/accounts, tests/limes_site)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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
