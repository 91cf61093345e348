"""The shared Redis clients of ``limes_site.cache`` build on Django's private parts: on a
Django they were not read against, the site says so at start-up and the cache builds its
clients as Django does."""

from __future__ import annotations

import django
import pytest
from django.core import checks
from pytest_django.fixtures import Settings as SettingsWrapper

from limes_site import cache

REDIS = {"default": {"BACKEND": "limes_site.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1"}}


def test_the_site_refuses_a_django_its_cache_was_not_written_for(
    monkeypatch: pytest.MonkeyPatch, settings: SettingsWrapper
) -> None:
    settings.CACHES = REDIS
    assert cache.check_django_version() == []
    assert cache.shares_clients()
    monkeypatch.setattr(django, "VERSION", (6, 0, 0, "final", 0))
    errors = checks.run_checks(tags=[checks.Tags.compatibility])
    assert "limes.E003" in [e.id for e in errors]
    error = next(e for e in errors if e.id == "limes.E003")
    assert error.level == checks.ERROR
    assert "written for Django 5.2, not 6.0" in error.msg
    # Meanwhile nothing reaches into the unknown Django: it builds a client per operation.
    assert not cache.shares_clients()
    backend = cache.RedisCache("redis://127.0.0.1:1", {})
    client = backend._cache.get_client(write=True)
    assert backend._cache.get_client(write=True) is not client


def test_a_site_without_the_redis_cache_is_not_held_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The test settings keep the cache in memory: no Redis internals in use, no error.
    monkeypatch.setattr(django, "VERSION", (6, 0, 0, "final", 0))
    assert cache.check_django_version() == []
