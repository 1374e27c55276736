"""The Celery app: turn timers and AI seats run here (broker: REDIS_URL, else the filesystem transport)."""

import os
from typing import Any

from celery import Celery
from celery.signals import beat_init, worker_init, worker_process_init
from kombu.transport import TRANSPORT_ALIASES

# `make run`'s broker without Redis: kombu's filesystem transport with atomic writes (config/broker.py).
TRANSPORT_ALIASES["filesystem-atomic"] = "config.broker:Transport"

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
@beat_init.connect
def _own_database_pools(**_: Any) -> None:
    """A forked worker child must open its own PostgreSQL pool: the parent's pool threads and sockets
    do not survive fork (Django keeps pools on the backend class), so a shared one would hang."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    DatabaseWrapper._connection_pools.clear()  # type: ignore[attr-defined]  # private: not in the stubs


@worker_process_init.connect
def _tune_gc(**_: Any) -> None:
    """Worker children run long: the same collector settings as the web processes (config.gc)."""
    from config.gc import tune_for_server

    tune_for_server()


@worker_init.connect
def _refuse_a_short_visibility_timeout(**_: Any) -> None:
    """A worker does not start when Redis would redeliver a task it still holds (one line, exit status 1)."""
    from matches.tasks import visibility_timeout_problem

    problem = visibility_timeout_problem()
    if problem:
        raise SystemExit(problem)
