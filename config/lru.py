"""The one cache policy of the play layer's in-process caches: bounded, least recently used goes first.

Used for values that can never go stale because their key names an immutable thing (a match's start
snapshot by match and seed; a parsed engine state by match, version and seed), so entries are only ever
evicted, never invalidated (`pop`/`drop_where` serve the one exception, the AI seats' agents, whose plans
go stale when a match moves on). Thread-safe (web threads share a process).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """At most `size` entries; `get` and `put` make an entry the most recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def pop(self, key: K) -> V | None:
        """Take `key`'s value out (None when absent): for values that DO go stale or must not be shared
        between threads, e.g. an AI's plan."""
        with self._lock:
            return self._data.pop(key, None)

    def drop_where(self, stale: Callable[[K], bool]) -> None:
        """Forget every key for which `stale(key)` holds."""
        with self._lock:
            for key in [k for k in self._data if stale(k)]:
                del self._data[key]

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data
