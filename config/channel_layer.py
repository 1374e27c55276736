"""The Redis channel layer with a bounded, waiting connection pool.

channels-redis builds each host's pool as a plain `ConnectionPool`, which raises `MaxConnectionsError` as
soon as every connection is busy (redis-py 8 caps a pool at 100 by default; older versions let it grow
without bound). A burst of sockets closing at once then either fails its `group_discard` calls, leaving dead
members in the groups, or opens one Redis connection per socket. A `BlockingConnectionPool` of a fixed size
makes such a burst queue for a connection for up to `pool_timeout` seconds instead: the process holds at
most `max_connections` connections and the burst completes.
"""

from __future__ import annotations

from typing import Any

from channels_redis.core import RedisChannelLayer as _RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class RedisChannelLayer(_RedisChannelLayer):
    """channels-redis' layer; a host dict's `max_connections` and `pool_timeout` size a blocking pool."""

    def create_pool(self, index: int) -> BlockingConnectionPool:
        host: dict[str, Any] = dict(self.hosts[index])
        address = host.pop("address")
        timeout = host.pop("pool_timeout", 10.0)
        return BlockingConnectionPool.from_url(address, timeout=timeout, **host)
