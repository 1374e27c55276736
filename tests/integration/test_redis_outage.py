"""A private Redis stopped under a running server (daphne, production-like: DEBUG off, throttles on) and
started again: 503 with Retry-After while it is down, never 500; 2xx again once it is back, with no
restart of the server (its connection pools reconnect by themselves). Logging in keeps working throughout.

Run: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test pytest tests/integration/test_redis_outage.py
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.services import daphne, free_port, service_env, unavailable

pytestmark = [pytest.mark.postgres]


class PrivateRedis:
    """A redis-server of this test's own on a free port, without persistence; stop() and start() again."""

    def __init__(self, tmp: Path) -> None:
        self.port, self.tmp, self.proc = free_port(), tmp, None  # type: ignore[var-annotated]
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            cwd=self.tmp,
            stdout=(self.tmp / "redis.log").open("a"),
            stderr=subprocess.STDOUT,
        )
        import redis

        for _ in range(100):
            try:
                if redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping():
                    return
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError((self.tmp / "redis.log").read_text())

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        unavailable("redis-server is not installed")
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def call(url: str, method: str = "GET", body: Any = None, token: str = "") -> tuple[int, dict[str, str], Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            status, headers, raw = response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        status, headers, raw = error.code, dict(error.headers), error.read()
    text = raw.decode()
    return (
        status,
        headers,
        json.loads(text) if headers.get("Content-Type", "").startswith("application/json") else text,
    )


def test_redis_stopped_gives_503s_with_retry_after_and_the_site_recovers_by_itself(
    private_redis: PrivateRedis, shared_db: str, tmp_path: Path
) -> None:
    env = service_env(redis_url=private_redis.url, database_url=shared_db)
    env.update(DJANGO_SETTINGS_MODULE="config.settings.dev", DEBUG="0", VAR_DIR=str(tmp_path / "var"))
    with daphne(env, tmp_path) as site:
        login = {"username": "alice", "password": "a-long-pass-4471"}
        status, _, body = call(f"{site}/api/auth/signup/", "POST", login)  # hashed by the server's settings
        assert status == 201, body
        token = body["token"]
        status, _, match = call(f"{site}/api/matches/", "POST", {"kind": "counting"}, token)
        assert status == 201, match
        chat = f"{site}/api/matches/{match['id']}/chat/?channel=table"
        status, _, body = call(chat, "POST", {"body": "before"}, token)
        assert status == 201, body
        # a second match, started (bob joins), for a move during the outage
        status, _, body = call(
            f"{site}/api/auth/signup/", "POST", {"username": "bob", "password": "b-long-pass-4471"}
        )
        assert status == 201, body
        bob = body["token"]
        status, _, game = call(
            f"{site}/api/matches/",
            "POST",
            {"kind": "counting", "time_control": {"initial_s": 60, "increment_s": 0}, "auto_start": False},
            bob,
        )
        assert status == 201, game
        assert call(f"{site}/api/matches/{game['id']}/join/", "POST", {}, token)[0] == 200
        status, _, body = call(f"{site}/api/matches/{game['id']}/start/", "POST", {}, bob)
        assert status == 200, body

        private_redis.stop()
        for url, payload in (
            (f"{site}/api/matches/", {"kind": "counting"}),
            (chat, {"body": "during"}),
        ):
            status, headers, body = call(url, "POST", payload, token)
            assert status == 503, (url, status, body, (tmp_path / "daphne.log").read_text()[-3000:])
            assert headers.get("Retry-After") == "5"
            assert body["code"] == "service_unavailable" and set(body) == {"code", "message", "extra"}
        for page in ("/", "/play/", f"/play/{match['id']}/", "/cards/"):  # pages: served, or the 503 page
            status, headers, body = call(f"{site}{page}")
            assert status in (200, 503), (page, status)
            assert status == 200 or (headers.get("Retry-After") == "5" and 'class="site-header"' in body)
        # a move is stored and acknowledged: its timer cannot be queued, the sweep will enforce that deadline
        state = call(f"{site}/api/matches/{game['id']}/state/", token=bob)[2]
        mover = bob if state["you"] in state["current_players"] else token
        state = call(f"{site}/api/matches/{game['id']}/state/", token=mover)[2]
        action = {"action": state["legal_actions"][0]["action"], "state_version": state["state_version"]}
        status, _, body = call(f"{site}/api/matches/{game['id']}/actions/", "POST", action, mover)
        assert status in (200, 201), body
        assert (
            call(f"{site}/api/matches/{game['id']}/state/", token=mover)[2]["state_version"]
            > state["state_version"]
        )
        # logging in keeps working: the rate limit skips its counter, the lockouts are in PostgreSQL
        status, _, body = call(f"{site}/api/auth/token/", "POST", login)
        assert status == 200, body

        private_redis.start()  # the same port, empty: no restart of the server
        status, _, body = call(f"{site}/api/matches/", "POST", {"kind": "counting"}, token)
        assert status in (200, 201) and body["id"], body  # 200: the waiting match of that kind again
        status, _, body = call(chat, "POST", {"body": "after"}, token)
        assert status == 201, body
        status, _, body = call(f"{site}/api/auth/token/", "POST", login)
        assert status == 200, body
    assert "Internal Server Error" not in (tmp_path / "daphne.log").read_text()
