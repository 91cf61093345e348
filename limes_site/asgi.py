"""ASGI entry point, e.g. ``uvicorn limes_site.asgi:application``."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "limes_site.settings.prod")

application = get_asgi_application()

# Then what the first requests would load, and the heap frozen (limes_site.warmup).
from limes_site import warmup  # noqa: E402

warmup.settle()
