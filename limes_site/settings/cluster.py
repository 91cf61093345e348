"""Production settings for ``scripts/cluster``: the real stack on one machine, over plain HTTP.

Everything is ``prod`` except what needs TLS or a mail server, which a loopback cluster
has not: secure cookies and redirects, HSTS, and mandatory email verification.
"""

from __future__ import annotations

from .prod import *  # noqa: F403

SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http"

# No mail server here: messages are logged, and a new account can play at once.
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
ACCOUNT_EMAIL_VERIFICATION = "optional"
