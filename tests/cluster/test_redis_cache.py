"""The cluster's cache (limes_site.cache.RedisCache) against the machine's Redis: what the
app servers keep there (sessions, poll states, rate-limit counts) reads back, and one
client object serves every call."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from limes_site.cache import RedisCache

pytestmark = [pytest.mark.cluster, pytest.mark.postgres]


@pytest.fixture
def cache() -> Iterator[RedisCache]:
    # A key prefix of this test's own in the database the cluster tests use.
    cache = RedisCache("redis://127.0.0.1:6379/0", {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})
    yield cache
    cache.delete_many(["session", "poll", "count", "gone"])
    cache.close()


def test_values_read_back_across_calls(cache: RedisCache) -> None:
    cache.set("session", {"_auth_user_id": "7"}, 60)
    cache.set("poll", (12, None), 60)
    assert cache.get("session") == {"_auth_user_id": "7"}
    assert cache.get_many(["session", "poll", "gone"]) == {
        "session": {"_auth_user_id": "7"},
        "poll": (12, None),
    }
    assert cache.add("count", 1, 60) is True
    assert cache.add("count", 5, 60) is False
    assert cache.incr("count") == 2
    cache.delete("session")
    assert cache.get("session", "missing") == "missing"


def test_one_client_serves_every_call(cache: RedisCache) -> None:
    client = cache._cache.get_client(write=True)
    cache.set("poll", (1, None), 60)
    assert cache._cache.get_client() is client
    assert cache._cache.get_client("poll", write=True) is client
