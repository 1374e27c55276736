"""One active beat and expiring timers, against a REAL Redis: two `celery beat` processes share RedBeat's
lock (the second waits as a standby and takes over when the first is killed); a real worker drops a
deadline timer whose time has passed and the sweep enforces that deadline once.

Run: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test pytest tests/integration/test_operations_celery.py
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from tests.integration.test_celery_clocks import started_match, timeout_entry, users, wait_for
from tests.services import ROOT, service_env, unavailable

LOCK_S = 3  # RedBeat's lock timeout in these tests (REDBEAT_LOCK_TIMEOUT_S)
ACQUIRED = "beat: Acquired lock"
SENT = "Sending due task matches-sweep-deadlines"  # printed with CELERY_TASK_LOG_LEVEL=INFO only


class Beat:
    """A `celery -A config beat` process (the production command) writing to its own log."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "info", "-s", str(log) + ".db"],
            cwd=ROOT,
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return self.log.read_text()

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


@pytest.fixture
def start_beat(redis_url: str, tmp_path: Path) -> Iterator[Callable[[], Beat]]:
    """Starts `celery beat` processes on one Redis (a lock timeout of LOCK_S); all killed at the end."""
    env = service_env(redis_url=redis_url, database_url=f"sqlite:///{tmp_path / 'unused.sqlite3'}")
    env.update(
        REDBEAT_LOCK_TIMEOUT_S=str(LOCK_S), VAR_DIR=str(tmp_path / "var"), CELERY_TASK_LOG_LEVEL="INFO"
    )
    started: list[Beat] = []

    def start() -> Beat:
        started.append(Beat(env, tmp_path / f"beat-{len(started) + 1}.log"))
        return started[-1]

    try:
        yield start
    finally:
        for beat in started:
            beat.kill()


@pytest.mark.celery_worker
def test_a_second_beat_waits_for_the_lock_and_takes_over_when_the_first_dies(
    start_beat: Callable[[], Beat], redis_url: str
) -> None:
    import redis

    first = start_beat()
    assert wait_for(lambda: ACQUIRED in first.output(), 30), first.output()[-3000:]
    second = start_beat()
    assert wait_for(lambda: "beat: Starting..." in second.output(), 30), second.output()[-3000:]
    time.sleep(2 * LOCK_S)  # well past a lock timeout: the first one renews it, the second keeps waiting
    assert ACQUIRED not in second.output() and SENT not in second.output(), second.output()[-3000:]
    assert first.output().count(SENT) >= 2 * LOCK_S - 1  # the sweep, every second, from the holder only
    lock_ttl = redis.Redis.from_url(redis_url).pttl("redbeat::lock")
    assert 0 < lock_ttl <= LOCK_S * 1000

    first.kill()  # no clean shutdown: the lock is not released, it runs out
    killed_at = time.monotonic()
    assert wait_for(lambda: ACQUIRED in second.output(), LOCK_S + 10), second.output()[-3000:]
    assert time.monotonic() - killed_at <= LOCK_S + 3
    assert wait_for(lambda: SENT in second.output(), 5), second.output()[-3000:]


def test_the_beat_outlives_a_redis_restart_and_sends_again(tmp_path: Path) -> None:
    """Redis stopped for a few seconds and started again empty: the same beat process takes its lock
    back, installs its schedule again and goes on sending the sweep (RedBeat alone exited at once)."""
    from tests.integration.test_redis_outage import PrivateRedis

    if shutil.which("redis-server") is None:
        unavailable("redis-server is not installed")
    server = PrivateRedis(tmp_path)
    server.start()
    env = service_env(redis_url=server.url, database_url=f"sqlite:///{tmp_path / 'unused.sqlite3'}")
    env.update(
        REDBEAT_LOCK_TIMEOUT_S=str(LOCK_S), VAR_DIR=str(tmp_path / "var"), CELERY_TASK_LOG_LEVEL="INFO"
    )
    beat = Beat(env, tmp_path / "beat.log")
    try:
        assert wait_for(lambda: SENT in beat.output(), 30), beat.output()[-3000:]
        server.stop()
        time.sleep(3)
        assert beat.proc.poll() is None, beat.output()[-3000:]  # still running, waiting for Redis
        sent_before = beat.output().count(SENT)
        server.start()
        assert wait_for(lambda: beat.output().count(SENT) > sent_before + 1, 10), beat.output()[-3000:]
        assert beat.output().count(ACQUIRED) == 2 and beat.proc.poll() is None
    finally:
        beat.kill()
        server.stop()


@pytest.mark.postgres
@pytest.mark.celery_worker
def test_an_expired_timer_is_dropped_by_the_worker_and_the_sweep_enforces_its_deadline_once(
    worker: Any,
) -> None:
    from matches import tasks
    from matches.models import ActionLog, Seat

    alice, bob = users()
    match = started_match(alice, bob, initial_s=600)
    Seat.objects.filter(match=match, deadline__isnull=False).update(
        deadline=timezone.now() - timedelta(minutes=5)
    )
    timer = tasks.enforce_deadline.apply_async(args=[match.pk], expires=timezone.now() - timedelta(seconds=1))
    assert wait_for(
        lambda: f"Discarding revoked task: matches.tasks.enforce_deadline[{timer.id}]" in worker.output(), 15
    ), worker.output()[-3000:]
    assert f"enforce_deadline[{timer.id}] succeeded" not in worker.output()
    assert wait_for(lambda: timeout_entry(match) is not None, 10), worker.output()[-3000:]
    time.sleep(2)  # more sweeps pass
    assert ActionLog.objects.filter(match=match, source="timeout").count() == 1


@pytest.mark.postgres
def test_two_beats_sweeping_at_once_enforce_a_passed_deadline_exactly_once(shared_db: str) -> None:
    """A takeover may overlap two beats for a moment: their sweeps race on the same passed deadline, and
    the match lock with the re-check of the stored deadline lets exactly one of them apply it."""
    from matches import tasks
    from matches.models import ActionLog, Seat
    from tests.integration.test_concurrency import run_at_once

    alice, bob = users()
    match = started_match(alice, bob, initial_s=600)
    Seat.objects.filter(match=match, deadline__isnull=False).update(
        deadline=timezone.now() - timedelta(seconds=2)
    )
    done = run_at_once([tasks.sweep_deadlines] * 4)
    assert sorted(done) == [0, 0, 0, 1]
    assert ActionLog.objects.filter(match=match, source="timeout").count() == 1
