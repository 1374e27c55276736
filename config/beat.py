"""The beat's scheduler when Redis is there: RedBeat, made to outlive a Redis outage.

RedBeat (celery-redbeat) keeps the schedule in Redis and holds a lock there, so one beat sends the
periodic tasks and a second one waits as a standby. As shipped, its beat process exits on the first
refused connection, so a Redis restart would leave nobody sweeping deadlines. It also installs its
schedule only at start, so a Redis that came back empty would leave a running beat with nothing to send.
This scheduler instead waits out an outage. Once Redis answers again it takes the lock back, or waits
for it as a standby if another beat took it meanwhile, and installs the schedule again.
"""

from __future__ import annotations

import logging
from typing import Any

import redis.exceptions
from redbeat.schedulers import LUA_EXTEND_TO_SCRIPT, RedBeatScheduler, get_redis

log = logging.getLogger(__name__)

_UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


class Scheduler(RedBeatScheduler):  # type: ignore[misc]
    _recovering = False

    def tick(self, *args: Any, **kwargs: Any) -> float:
        """RedBeat's tick (renew the lock, send what is due); when Redis fails, wait a loop interval and
        recover on a later tick. Returns the seconds until the next tick."""
        try:
            if self._recovering or (self.lock_key and self.lock is None):
                self._take_lock_back()
            return float(super().tick(*args, **kwargs))
        except redis.exceptions.LockError as exc:  # the lock is gone: Redis restarted, or it ran out
            log.warning("beat: lost the lock (%s); taking it back or waiting for it", exc)
        except _UNREACHABLE as exc:
            log.warning("beat: Redis is out of reach (%s); trying again in %s s", exc, self.max_interval)
        self._recovering = True
        return float(self.max_interval)

    def _take_lock_back(self) -> None:
        """Hold the lock again (waiting as a standby while another beat holds it), then put back the
        schedule entries a Redis restarted empty has lost (entries still there keep their last run)."""
        if self.lock_key:
            if self.lock is None:  # Redis was out of reach when the beat started (RedBeat's beat_init)
                client = get_redis(self.app)
                self.lock = client.lock(self.lock_key, timeout=self.lock_timeout, sleep=self.max_interval)
                self.lock.lua_extend = client.register_script(LUA_EXTEND_TO_SCRIPT)
            if not self.lock.owned():
                log.info("beat: waiting for the lock")
                self.lock.acquire()
                log.info("beat: Acquired lock")
        self.setup_schedule()
        self._recovering = False
