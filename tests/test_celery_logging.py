"""The worker and beat log at a useful level: no line per task run (the sweep runs every second), every
warning and task failure still printed."""

from __future__ import annotations

import logging

from django.conf import settings


def test_per_task_lines_are_quiet_and_failures_are_not() -> None:
    for name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
        assert settings.LOGGING["loggers"][name]["level"] == "WARNING"
        logger = logging.getLogger(name)
        assert not logger.isEnabledFor(logging.INFO), name  # "Task … succeeded", "Sending due task"
        assert logger.isEnabledFor(logging.ERROR), name  # "Task … raised unexpected: …"
