"""The player search reads an index on PostgreSQL, not the whole players' table."""

from __future__ import annotations

import pytest
from django.db import connection

from accounts.models import User

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_a_search_by_the_start_of_a_name_uses_the_index() -> None:
    query = User.objects.filter(username__istartswith="ann").only("pk")
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        # As on a table of many players, where the planner would choose it on its own.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "accounts_user_name_prefix" in plan
