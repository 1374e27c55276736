"""The Redis cache keeps one connection pool per process (config/cache.py): Django makes a cache object per
request context, and without the shared pool each ASGI request opened a TCP connection of its own."""

from __future__ import annotations

import contextvars
import os

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings

from config.cache import SharedConnectionPool
from config.settings.base import CACHES as CONFIGURED

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
OPTIONS = {"socket_timeout": 1.0, "pool_class": "config.cache.SharedConnectionPool"}
SHARED = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "OPTIONS": OPTIONS,
    }
}


def _pool_in_a_new_context() -> object:
    """What a request (a context of its own under ASGI) gets: a cache object of its own, and its pool."""

    def read() -> object:
        cache = caches["default"]
        assert isinstance(cache, RedisCache)
        return cache._cache._get_connection_pool(True)

    return contextvars.copy_context().run(read)


@override_settings(CACHES=SHARED)
def test_every_request_context_shares_one_pool() -> None:
    first, second = _pool_in_a_new_context(), _pool_in_a_new_context()
    assert isinstance(first, SharedConnectionPool)
    assert first is second


def test_the_pool_is_per_address_and_options() -> None:
    a = SharedConnectionPool.from_url("redis://127.0.0.1:6379/3", socket_timeout=1.0)
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6379/3", socket_timeout=1.0) is a
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6379/4", socket_timeout=1.0) is not a
    assert SharedConnectionPool.from_url("redis://127.0.0.1:6379/3", socket_timeout=2.0) is not a


def test_the_settings_use_the_shared_pool_with_redis() -> None:
    """With REDIS_URL set (production, CI) the cache is Redis with the shared pool; without it, in memory."""
    default = CONFIGURED["default"]
    if os.environ.get("REDIS_URL"):
        assert default["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
        assert default["OPTIONS"]["pool_class"] == "config.cache.SharedConnectionPool"
    else:
        assert default["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
