"""WSGI entry point, e.g. ``gunicorn limes_site.wsgi``."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.prod")

application = get_wsgi_application()

# Then what the first requests would load, and the heap frozen (limes_site.warmup).
from limes_site import warmup  # noqa: E402

warmup.settle()
