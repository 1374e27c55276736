"""Each user's open match sockets: the per-match and total caps, counted where every web process sees them.

A socket holds a lease: an entry in two sorted sets of its owner (all their sockets, and those on this
match), scored by the time it lapses. Claiming purges lapsed entries, then refuses when a set is full;
the socket renews its lease while it lives and drops it when it closes. A process that dies without
closing its sockets leaves entries that lapse on their own after at most the lease.

With the Redis channel layer the sets live in that Redis (through the layer's own connection pool), so
the caps hold across web processes; with the in-memory layer (one process, `make run`) they live in
this process. Who owns a socket: the signed-in user, else the client's address (as behind
`TRUSTED_PROXIES` proxies, the rule of `config.client_address`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from django.conf import settings
from redis.exceptions import RedisError

from config.client_address import address_behind_proxies

log = logging.getLogger(__name__)

KEY_PREFIX = "matches:ws:"


class Refusal(Enum):
    """Why a socket was not admitted."""

    PER_MATCH = "per_match"
    TOTAL = "total"


@dataclass(frozen=True)
class Limits:
    """The caps and the lease, from settings (tests pass their own)."""

    per_match: int
    total: int
    lease_s: float

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(
            per_match=settings.MATCHES_WS_MAX_PER_MATCH,
            total=settings.MATCHES_WS_MAX_PER_USER,
            lease_s=float(settings.MATCHES_WS_LEASE_S),
        )


class SocketRegistry(Protocol):
    async def claim(
        self, owner: str, match_id: int, socket_id: str, now: float, limits: Limits
    ) -> Refusal | None:
        """Admit the socket (its lease runs to now + lease) unless the owner is at a cap."""

    async def renew(self, owner: str, match_id: int, socket_id: str, now: float, limits: Limits) -> None:
        """Extend a live socket's lease (taking it again if it had lapsed)."""

    async def release(self, owner: str, match_id: int, socket_id: str) -> None:
        """Drop a socket's lease."""


def _keys(owner: str, match_id: int) -> tuple[str, str]:
    # One hash tag per owner: both sets land on one node of a Redis Cluster, as the script needs.
    base = f"{KEY_PREFIX}{{{owner}}}"
    return base, f"{base}:m:{match_id}"


# KEYS: all the owner's sockets, those on this match. ARGV: member, now, lapses at, per-match cap, total
# cap, key lifetime (s). Returns 0 (admitted), 1 (per-match cap), 2 (total cap).
_CLAIM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if redis.call('ZSCORE', KEYS[2], ARGV[1]) == false then
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 1 end
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 2 end
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[6])
return 0
"""
_REFUSALS = {1: Refusal.PER_MATCH, 2: Refusal.TOTAL}


class RedisSocketRegistry:
    """The leases in Redis; `connection(key)` gives the redis.asyncio client for a key."""

    # Any: the redis client channels_redis hands out (channels_redis is untyped)
    def __init__(self, connection: Callable[[str], Any]) -> None:
        self.connection = connection

    async def claim(
        self, owner: str, match_id: int, socket_id: str, now: float, limits: Limits
    ) -> Refusal | None:
        everywhere, here = _keys(owner, match_id)
        result = await self.connection(everywhere).eval(
            _CLAIM, 2, everywhere, here, socket_id, now, now + limits.lease_s,
            limits.per_match, limits.total, int(limits.lease_s) + 1,
        )  # fmt: skip
        return _REFUSALS.get(int(result))

    async def renew(self, owner: str, match_id: int, socket_id: str, now: float, limits: Limits) -> None:
        everywhere, here = _keys(owner, match_id)
        ttl = int(limits.lease_s) + 1
        pipe = self.connection(everywhere).pipeline(transaction=False)
        for key in (everywhere, here):
            pipe.zadd(key, {socket_id: now + limits.lease_s})
            pipe.expire(key, ttl)
        await pipe.execute()

    async def release(self, owner: str, match_id: int, socket_id: str) -> None:
        everywhere, here = _keys(owner, match_id)
        pipe = self.connection(everywhere).pipeline(transaction=False)
        pipe.zrem(everywhere, socket_id)
        pipe.zrem(here, socket_id)
        await pipe.execute()


class MemorySocketRegistry:
    """The leases in this process (the in-memory channel layer serves one process only)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # the tests' event loops run in several threads
        self._leases: dict[str, dict[str, tuple[int, float]]] = {}  # owner -> socket -> (match, lapses at)

    async def claim(
        self, owner: str, match_id: int, socket_id: str, now: float, limits: Limits
    ) -> Refusal | None:
        with self._lock:
            held = {s: v for s, v in self._leases.get(owner, {}).items() if v[1] > now}
            if socket_id not in held:
                if sum(1 for m, _ in held.values() if m == match_id) >= limits.per_match:
                    return Refusal.PER_MATCH
                if len(held) >= limits.total:
                    return Refusal.TOTAL
            held[socket_id] = (match_id, now + limits.lease_s)
            self._leases[owner] = held
            return None

    async def renew(self, owner: str, match_id: int, socket_id: str, now: float, limits: Limits) -> None:
        with self._lock:
            self._leases.setdefault(owner, {})[socket_id] = (match_id, now + limits.lease_s)

    async def release(self, owner: str, match_id: int, socket_id: str) -> None:
        with self._lock:
            held = self._leases.get(owner, {})
            held.pop(socket_id, None)
            if not held:
                self._leases.pop(owner, None)


_memory = MemorySocketRegistry()


def registry_for(channel_layer: object) -> SocketRegistry:
    """Where the leases live: in the Redis of a Redis channel layer (sharded as it shards), else here."""
    connection = getattr(channel_layer, "connection", None)
    consistent_hash = getattr(channel_layer, "consistent_hash", None)
    if connection is None or consistent_hash is None:
        return _memory
    return RedisSocketRegistry(lambda key: connection(consistent_hash(key)))


# Any: an ASGI scope's values differ per key (asgiref types the scope as a dict of Any)
def owner_of(scope: dict[str, Any]) -> str:
    """Whose socket this is: `user:<id>`, or `addr:<client address>` for an anonymous viewer."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    client = scope.get("client") or ("", 0)
    headers = dict(scope.get("headers") or [])
    meta = {
        "REMOTE_ADDR": client[0] or "",
        "HTTP_X_FORWARDED_FOR": headers.get(b"x-forwarded-for", b"").decode("latin-1"),
    }
    return f"addr:{address_behind_proxies(meta, settings.TRUSTED_PROXIES) or '-'}"


# Transient failures (a busy pool, a dropped connection) that a clean-up step retries after these pauses.
RETRY_DELAYS_S = (0.05, 0.2, 0.5)


async def retrying(what: str, step: Callable[[], Awaitable[object]]) -> bool:
    """Run a clean-up step, retrying transient Redis failures; give up (logged, never raised) after the last.

    Clean-ups that still fail have backstops: a group member lapses after CHANNEL_GROUP_EXPIRY_S, a
    lease after MATCHES_WS_LEASE_S.
    """
    for delay in (*RETRY_DELAYS_S, None):
        try:
            await step()
            return True
        except (RedisError, OSError) as exc:  # OSError covers TimeoutError
            if delay is None:
                log.warning("%s failed, left to expire: %r", what, exc)
                return False
        await asyncio.sleep(delay)
    return False
