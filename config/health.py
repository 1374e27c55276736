"""Probes for the load balancer and the process supervisor: `/healthz` (liveness) and `/readyz` (readiness).

Plain Django views, outside DRF: no authentication, no session, no throttle (a throttle needs the cache,
which is Redis: a probe must not depend on what it is meant to report). Both answer JSON and are never
cached. nginx does not log them (deploy/nginx.conf).

- `/healthz`: 200 while the process serves requests at all. A supervisor restarts a process that fails it.
- `/readyz`: 200 when PostgreSQL and Redis answer, else 503 with `Retry-After`; the load balancer stops
  sending new requests to a process that is not ready (the cause is named, never its details: those go
  to the log).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)

PROBE_TIMEOUT_S = 1.0  # a probe answers within about this per dependency, however the dependency hangs
RETRY_AFTER_S = 5

_redis_lock = threading.Lock()
_redis_clients: dict[str, Any] = {}


def _redis_client(url: str) -> Any:
    """One client per URL and process, with short timeouts (redis-py pools its connections)."""
    import redis

    with _redis_lock:
        client = _redis_clients.get(url)
        if client is None:
            client = redis.Redis.from_url(
                url, socket_connect_timeout=PROBE_TIMEOUT_S, socket_timeout=PROBE_TIMEOUT_S
            )
            _redis_clients[url] = client
        return client


def check_database() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        log.warning("readiness: the database does not answer", exc_info=True)
        return False


def check_redis() -> bool | None:
    """True or False; None when no Redis is configured (single-process mode: nothing to reach)."""
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    try:
        return bool(_redis_client(url).ping())
    except Exception:
        log.warning("readiness: Redis does not answer", exc_info=True)
        return False


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {"database": "ok" if check_database() else "unavailable"}
    redis_ok = check_redis()
    checks["redis"] = "not configured" if redis_ok is None else "ok" if redis_ok else "unavailable"
    ready = "unavailable" not in checks.values()
    response = JsonResponse({"status": "ok" if ready else "unavailable", "checks": checks})
    if not ready:
        response.status_code = 503
        response["Retry-After"] = str(RETRY_AFTER_S)
    return response
