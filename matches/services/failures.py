"""Failing AI and clock tasks: count failures in a row, back off, abort the match after too many.

Needs no engine (the engine may be what fails): the match row and the seats' clocks only.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from matches import storage
from matches.games.kind import Result
from matches.models import Match, MatchStatus
from matches.services.notify import after_change_on_commit
from matches.services.submit import finish

log = logging.getLogger(__name__)

TASK_MAX_FAILURES = 5  # failures in a row of a match's AI/clock task before the match is aborted
TASK_BACKOFF_S = (2, 4, 8, 16, 32)  # the wait before the n-th retry (the last value repeats)
INTERNAL_ERROR_TEXT = (
    "internal error: the server could not go on with this match (no result)."  # page: "Aborted — ..."
)


def task_backoff_s(failures: int) -> int:
    """Seconds to wait after the `failures`-th failure in a row (1, 2, ...) before trying again."""
    return TASK_BACKOFF_S[min(max(failures, 1), len(TASK_BACKOFF_S)) - 1]


@transaction.atomic
def task_failed(*, match_id: int, error: BaseException, now: datetime | None = None) -> int | None:
    """Record a failure of the match's AI or clock task: the back-off (s) before its retry, or None when
    there is nothing more to try (no such active match, or the TASK_MAX_FAILURES-th failure in a row, which
    aborts the match: status aborted, reason "internal_error", no winner, the error kept for staff).

    Needs no engine (the engine may be what fails): the match row and the seats' clocks only.
    """
    now = now or timezone.now()
    match = storage.lock_match(match_id)
    if match is None or match.status != MatchStatus.ACTIVE:
        return None
    match.task_failures += 1
    match.task_error = f"{now.isoformat()} {type(error).__name__}: {error}"[:2000]
    if match.task_failures < TASK_MAX_FAILURES:
        delay = task_backoff_s(match.task_failures)
        match.task_retry_at = now + timedelta(seconds=delay)
        match.save(update_fields=["task_failures", "task_error", "task_retry_at"])
        return delay
    seats = storage.load_seats(match).seats
    finish(
        match,
        seats,
        Result(winner=None, reason="internal_error", text=INTERNAL_ERROR_TEXT),
        now,
        aborted=True,
    )
    match.task_retry_at = None
    match.save(
        update_fields=["status", "result", "finished_at", "task_failures", "task_error", "task_retry_at"]
    )
    for seat in seats:
        seat.save(update_fields=["clock_started_at", "deadline"])
    log.error("match %s aborted after %s task failures: %s", match_id, match.task_failures, match.task_error)
    after_change_on_commit(match, seats=seats, wake_ai=False)
    return None


def task_succeeded(match: Match) -> None:
    """Clear the failure count of a match whose task just worked (a no-op, no query, when it had none)."""
    if match.task_failures or match.task_retry_at is not None:
        Match.objects.filter(pk=match.pk).update(task_failures=0, task_retry_at=None)
        match.task_failures, match.task_retry_at = 0, None
