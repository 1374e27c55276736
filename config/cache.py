"""One Redis connection pool per process for Django's cache.

Django keeps one cache object per request context (``django.core.cache.caches`` is an asgiref ``Local``),
and its Redis client makes a connection pool per cache object. Under ASGI every request runs in a context
of its own, so every request opened a new TCP connection to Redis (and left it to be closed): 3,211
connections for 2,306 moves in `bench/online_play.py`, the connect, its address lookup and the close
being a tenth of a web process's samples. Django's backend takes the pool class as an option
(``CACHES["default"]["OPTIONS"]["pool_class"]``); this one hands every cache object of a process the same
pool for the same address and options. redis-py's pool is thread-safe, reconnects a connection the server
closed (a restarted Redis) before handing it out, and starts afresh in a forked child.
"""

from __future__ import annotations

import threading
from typing import Any

import redis


class SharedConnectionPool(redis.ConnectionPool):
    """``from_url`` answers the process's pool for that URL and those options (made on the first call)."""

    _shared: dict[tuple[str, tuple[tuple[str, str], ...]], SharedConnectionPool] = {}
    _shared_lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> SharedConnectionPool:
        key = (url, tuple(sorted((name, repr(value)) for name, value in kwargs.items())))
        with cls._shared_lock:
            pool = cls._shared.get(key)
            if pool is None:
                pool = cls._shared[key] = super().from_url(url, **kwargs)
            return pool
