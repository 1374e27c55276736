"""Real services for the tests: Redis, a Celery worker subprocess, PostgreSQL, a daphne server (the fixtures are
registered by tests/conftest.py, so tests/integration and tests/browser share them).

They never skip silently in CI: when `CI` is set, an unreachable Redis or a missing PostgreSQL is a failure.
Locally (no `CI`) they skip with the reason, so the fast suite stays runnable on a bare machine.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

import matches.tests.fakegame  # noqa: F401  (registers kind "counting" in this process too)

ROOT = Path(__file__).resolve().parents[1]
REDIS_URL = os.environ.get("CELERY_TEST_REDIS_URL", "redis://127.0.0.1:6379/11")
EXTRA_GAMES = "matches.tests.fakegame,matches.tests.slowgame"  # test games; Commandeer is built in


def unavailable(reason: str) -> None:
    """Fail in CI, skip locally."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: real-service tests must not skip)")
    pytest.skip(reason)


def redis_reachable(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except Exception:
        return False


@pytest.fixture
def redis_url() -> str:
    if not redis_reachable(REDIS_URL):
        unavailable(f"Redis is unreachable at {REDIS_URL}")
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    return REDIS_URL


@pytest.fixture
def shared_db(transactional_db: Any) -> str:
    """A committed-data test database another process can open (PostgreSQL), as a DATABASE_URL."""
    s = connection.settings_dict
    if connection.vendor != "postgresql":
        unavailable("needs PostgreSQL: run with DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test")
    user = s.get("USER") or ""
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgresql://{user}{password}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{s['NAME']}"


def service_env(*, redis_url: str, database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_TASK_ALWAYS_EAGER"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        CELERY_TASK_ALWAYS_EAGER="0",
        REDIS_URL=redis_url,
        DATABASE_URL=database_url,
        DB_CONN_MAX_AGE="0",
        MATCHES_EXTRA_GAMES=EXTRA_GAMES,
        SECRET_KEY="test-secret-key",
        PYTHONUNBUFFERED="1",
        # The worker's embedded beat (RedBeat) holds its lock this long: a killed worker's successor
        # takes the beat over within seconds.
        REDBEAT_LOCK_TIMEOUT_S="3",
    )
    return env


class Worker:
    """A real `celery worker -B` subprocess (solo pool, embedded beat running the deadline sweep)."""

    def __init__(self, env: dict[str, str], tmp: Path, pool: str = "solo") -> None:
        """`pool` "prefork" (one child) enforces Celery's time limits, which the solo pool cannot."""
        self.env, self.tmp, self.proc = env, tmp, None  # type: ignore[var-annotated]
        self.pool = pool
        self.n = 0

    def start(self) -> None:
        self.n += 1
        self.log = self.tmp / f"worker-{self.n}.log"
        cmd = [
            sys.executable, "-m", "celery", "-A", "config", "worker", "-B", "-P", self.pool, "-c", "1",
            "-l", "info", "-s", str(self.tmp / f"beat-{self.n}"), "-n", f"matchtest{self.n}@%h",
        ]  # fmt: skip
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if "ready." in self.log.read_text():
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"celery worker exited:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.1)
        raise RuntimeError(f"celery worker did not get ready:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL the worker's process group (no graceful shutdown, in-flight messages stay unacked)."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return "\n".join(p.read_text() for p in sorted(self.tmp.glob("worker-*.log")))


def _reset_pools(app: Any) -> None:
    """Drop cached broker connections so the next send uses the current broker settings."""
    from kombu import pools

    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def celery_producer(redis_url: str) -> Iterator[Any]:
    """Make this test process send tasks to Redis (not eager) while the test runs."""
    from config.celery import app

    old = (app.conf.task_always_eager, app.conf.broker_url, app.conf.broker_transport_options)
    app.conf.task_always_eager = False
    app.conf.broker_url = redis_url
    app.conf.broker_transport_options = {"visibility_timeout": 3600}
    _reset_pools(app)
    try:
        yield app
    finally:
        _reset_pools(app)
        app.conf.task_always_eager, app.conf.broker_url, app.conf.broker_transport_options = old


@pytest.fixture
def worker(redis_url: str, shared_db: str, celery_producer: Any, tmp_path: Path) -> Iterator[Worker]:
    w = Worker(service_env(redis_url=redis_url, database_url=shared_db), tmp_path)
    w.start()
    yield w
    w.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def daphne(env: dict[str, str], tmp: Path) -> Iterator[str]:
    """A daphne server (HTTP and WebSockets, `config.asgi`) run with `env` on a free port: its URL once
    `/api/health/` answers; stopped on exit. Its output goes to `tmp/daphne.log`."""
    import urllib.request

    port = free_port()
    log = (tmp / "daphne.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90  # a loaded machine may take long to import Django and the apps
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/health/", timeout=1)
                break
            except Exception:
                if proc.poll() is not None:
                    raise RuntimeError((tmp / "daphne.log").read_text()) from None
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"daphne did not answer in 90 s: {(tmp / 'daphne.log').read_text()}"
                    ) from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:  # a busy machine: the server is stopped either way
            proc.kill()
            proc.wait(10)
