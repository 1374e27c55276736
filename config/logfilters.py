"""Logging filters named by ``LOGGING`` (config/settings/base.py)."""

from __future__ import annotations

import logging


class DropTaskSends(logging.Filter):
    """Drops celery beat's "Scheduler: Sending due task …" lines (the deadline sweep is sent every second)
    while the beat's own life — "beat: Starting", the redbeat lock acquired, lost or released — stays at
    INFO, where operators and the cluster's readiness check read it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Scheduler: Sending due task")
