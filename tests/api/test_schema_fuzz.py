"""The API speaks JSON everywhere, as its schema says.

/api/v1/ against its own OpenAPI schema: schemathesis asks every operation a few dozen
generated questions, with a personal token, and every answer must be one the schema
documents (no 5xx, the documented status codes, bodies and headers)."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.signals import request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given, settings
from schemathesis.core.result import Ok

from accounts.models import User
from api import limits
from games.models import Game

pytestmark = pytest.mark.django_db

EXAMPLES = 25


@pytest.mark.parametrize(
    "path", ["/api/v1/nothing/", "/api/nope", "/api/v1/games/not-a-number/", "/api/"]
)
def test_a_path_the_api_does_not_have_answers_json(client: Client, path: str) -> None:
    response = client.get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}
    assert response["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize(("method", "path"), [("post", "/api/v1/games/"), ("delete", "/api/v1/")])
def test_a_method_the_api_does_not_offer_answers_json(
    client: Client, method: str, path: str
) -> None:
    response = getattr(client, method)(path)

    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Method not allowed: the API only reads."}


def test_the_schema_documents_the_answers_every_operation_may_give(client: Client) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]

    for path, operations in paths.items():
        for operation in operations.values():
            answers = operation["responses"]
            assert {"401", "422", "429"} <= set(answers), path
            assert "Retry-After" in answers["429"]["headers"], path
            assert ("404" in answers) == ("{" in path), path


def test_every_operation_answers_as_the_schema_says(
    user: User, token: str, finished_solo: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A few hundred requests in one pinned minute: the limits would answer 429 to most.
    monkeypatch.setattr(limits, "TOKEN_PER_WINDOW", 10**6)
    monkeypatch.setattr(limits, "ADDRESS_CEILING", 10**6)
    monkeypatch.setattr(limits, "EXPORT_PAGES_PER_WINDOW", 10**6)
    # Straight to the WSGI handler, whose request_started would close the test's
    # connection inside its transaction once CONN_MAX_AGE has passed (Django's test client
    # leaves it out the same way).
    request_started.disconnect(close_old_connections)
    try:
        _fuzz(token)
    finally:
        request_started.connect(close_old_connections)


def _fuzz(token: str) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
    headers = {"Authorization": f"Bearer {token}"}
    failures: list[str] = []
    results = list(schema.get_all_operations())
    operations = [result.ok() for result in results if isinstance(result, Ok)]
    assert len(operations) == len(results) >= 10

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def ask(case: Any) -> None:
            case.call_and_validate(headers=headers)

        try:
            ask()
        except Exception as failure:  # every operation's failures, together
            failures.append(f"{operation.label}: {failure}")
    assert not failures, "\n\n".join(failures)
