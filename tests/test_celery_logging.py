"""The worker and beat log at a useful level: no line per task run (the sweep runs every second), every
warning and task failure still printed, and the beat's own life (starting, the lock taken) still at INFO."""

from __future__ import annotations

import logging

from django.conf import settings


def _record(name: str, level: int, msg: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


def test_per_task_lines_are_quiet_and_failures_are_not() -> None:
    for name in ("celery.worker.strategy", "celery.app.trace"):
        assert settings.LOGGING["loggers"][name]["level"] == "WARNING"
        logger = logging.getLogger(name)
        assert not logger.isEnabledFor(logging.INFO), name  # "Task … succeeded"
        assert logger.isEnabledFor(logging.ERROR), name  # "Task … raised unexpected: …"


def test_the_beat_drops_its_sends_and_keeps_its_life_at_info() -> None:
    beat = logging.getLogger("celery.beat")
    assert beat.isEnabledFor(logging.INFO)
    send = _record("celery.beat", logging.INFO, "Scheduler: Sending due task %s (%s)", "sweep", "t")
    assert not beat.filter(send)
    for line in ("beat: Starting...", "beat: Acquired lock"):  # what operators and cluster.py read
        assert beat.filter(_record("celery.beat", logging.INFO, line))
    assert beat.filter(_record("celery.beat", logging.ERROR, "Message Error: %s", "x"))
