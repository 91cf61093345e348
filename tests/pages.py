"""Helpers for page tests: htmx requests, a round's form fields, the boards as listed."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

import rules
from accounts.models import User

#: Extra arguments of a test client request that make it an htmx request.
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def turn_fields(round_number: int, turn: rules.Turn) -> dict[str, object]:
    fields: dict[str, object] = {
        "round": round_number,
        "rot": turn.placement.rotation,
        "at": "{},{}".format(*turn.placement.card_at),
    }
    if isinstance(turn.worker, rules.PlaceWorker):
        fields["place"] = "{},{}".format(*turn.worker.zone)
    elif isinstance(turn.worker, rules.MoveWorker):
        fields["from"] = "{},{}".format(*turn.worker.source)
        fields["to"] = "{},{}".format(*turn.worker.target)
    return fields


def board_url(ruleset: str, kind: str, page: int | None = None) -> str:
    url = reverse("leaderboards:board", kwargs={"ruleset": ruleset, "kind": kind})
    return url if page is None else f"{url}?page={page}"


def board_names(client: Client, url: str) -> list[str]:
    """The player names of a board page, top to bottom."""
    response = client.get(url)
    assert response.status_code == 200
    return [row.username for row in response.context["board"].rows]


def csp_policy(response: object) -> dict[str, list[str]]:
    """A response's Content-Security-Policy as {directive: [values]}."""
    header = response["Content-Security-Policy"]  # type: ignore[index]
    return {
        name: values
        for name, *values in (part.split() for part in header.split(";") if part.strip())
    }


def client_for(user: User) -> Client:
    """A test client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client
