"""The load balancer's probes (config/health.py): liveness always, readiness only with PostgreSQL and Redis."""

from __future__ import annotations

import socket
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client, override_settings

from tests.services import REDIS_URL, redis_reachable, unavailable


def _closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"  # nothing listens there once the socket is closed


def test_healthz_answers_without_a_session_or_a_query() -> None:
    r = Client().get("/healthz")  # no django_db mark: any database access here would raise
    assert r.status_code == 200
    assert r.json() == {"status": "ok"}
    assert "sessionid" not in r.cookies
    assert "no-cache" in r["Cache-Control"]


@pytest.mark.django_db
def test_readyz_is_200_when_database_and_redis_answer() -> None:
    if not redis_reachable(REDIS_URL):
        unavailable(f"Redis is unreachable at {REDIS_URL}")
    with override_settings(REDIS_URL=REDIS_URL):
        r = Client().get("/readyz")
    assert r.status_code == 200, r.content
    assert r.json() == {"status": "ok", "checks": {"database": "ok", "redis": "ok"}}


@pytest.mark.django_db
def test_readyz_is_503_with_retry_after_when_redis_is_down() -> None:
    with override_settings(REDIS_URL=_closed_port_url()):
        r = Client().get("/readyz")
    assert r.status_code == 503
    assert r["Retry-After"].isdigit()
    assert r.json()["checks"] == {"database": "ok", "redis": "unavailable"}


@pytest.mark.django_db
def test_readyz_is_503_when_the_database_fails() -> None:
    with (
        override_settings(REDIS_URL=""),
        mock.patch("config.health.connection.cursor", side_effect=OperationalError("down")),
    ):
        r = Client().get("/readyz")
    assert r.status_code == 503
    body = r.json()
    assert body == {"status": "unavailable", "checks": {"database": "unavailable", "redis": "not configured"}}
    assert "down" not in r.content.decode()  # the cause is logged, not published


def test_probes_refuse_writes() -> None:
    assert Client().post("/healthz").status_code == 405
    assert Client().post("/readyz").status_code == 405
